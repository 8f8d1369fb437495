/**
 * The status line: non-blocking messages in an aria-live region. Errors from
 * the API show their message and, where a rule of the regulation refused the
 * request, the article (docs/api.md error shape).
 */
import { ApiError } from '../api/http.js';
import type { Key } from '../i18n/dict.js';
import { DICT } from '../i18n/dict.js';
import { art, t } from '../i18n/i18n.js';
import { h } from './dom.js';

/** How long a message stays: a confirmation briefly, what needs reading longer. */
const SHOW_MS: Readonly<Record<Tone, number>> = { ok: 3000, info: 6000, error: 8000 };
const SHOWN_MAX = 3;

let region: HTMLElement | null = null;

function ensureRegion(): HTMLElement {
  if (region === null || !document.body.contains(region)) {
    region = h('div', {
      class: 'toasts',
      role: 'status',
      'aria-live': 'polite',
      'aria-atomic': 'false',
    });
    document.body.appendChild(region);
  }
  return region;
}

export type Tone = 'info' | 'ok' | 'error';

export function toast(text: string, tone: Tone = 'info', article?: string): void {
  const host = ensureRegion();
  const item = h(
    'div',
    { class: `toast toast-${tone}` },
    h('span', { class: 'toast-text' }, text),
    article === undefined ? null : h('span', { class: 'art-badge' }, art(article)),
    h(
      'button',
      {
        class: 'toast-close',
        type: 'button',
        'aria-label': t('app.dismiss'),
        onclick: () => item.remove(),
      },
      '×',
    ),
  );
  if (tone === 'error') item.setAttribute('role', 'alert');
  // A confirmation replaces the previous one: a croupier's steps would otherwise pile up.
  if (tone === 'ok') for (const old of host.querySelectorAll('.toast-ok')) old.remove();
  host.appendChild(item);
  while (host.children.length > SHOWN_MAX) host.firstElementChild?.remove();
  window.setTimeout(() => item.remove(), SHOW_MS[tone]);
}

/**
 * A message for an error in the user's language only: the known code's
 * sentence, else a general one naming the code. The server's English message
 * (with ids and amounts in minor units) never reaches the screen.
 */
export function errorText(error: unknown): { text: string; article?: string } {
  if (error instanceof ApiError) {
    const key = `err.${error.code}`;
    const text = key in DICT ? t(key as Key) : t('app.errorGeneric', { code: error.code });
    return error.article === undefined ? { text } : { text, article: error.article };
  }
  return { text: error instanceof Error ? error.message : String(error) };
}

export function toastError(error: unknown): void {
  const { text, article } = errorText(error);
  toast(text, 'error', article);
}
