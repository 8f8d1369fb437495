/**
 * The status line: non-blocking messages in an aria-live region. Errors from
 * the API show their message and, where a rule of the regulation refused the
 * request, the article (docs/api.md error shape).
 */
import { ApiError } from '../api/http.js';
import { type ErrorAmounts, errorSentence } from '../i18n/errors.js';
import { art, lang, t } from '../i18n/i18n.js';
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
 * A message for an error in the user's language only (i18n/errors.ts): the
 * code's sentence, with the table's limits where it names them. The server's
 * English message (with ids and amounts in minor units) never reaches the screen.
 */
export function errorText(
  error: unknown,
  amounts?: ErrorAmounts,
): { text: string; article?: string } {
  if (error instanceof ApiError) {
    const text = errorSentence(lang(), error.code, amounts);
    return error.article === undefined ? { text } : { text, article: error.article };
  }
  // The page's own check (already in the user's language, e.g. an amount that is not one).
  return { text: error instanceof Error ? error.message : String(error) };
}

export function toastError(error: unknown, amounts?: ErrorAmounts): void {
  const { text, article } = errorText(error, amounts);
  toast(text, 'error', article);
}
