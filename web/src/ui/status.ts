/**
 * The status line: non-blocking messages in an aria-live region. Errors from
 * the API show their sentence in the user's language and, where a rule of the
 * regulation refused the request, the article (docs/api.md error shape).
 *
 * The messages never cover a control: they sit in a strip along the bottom of
 * the screen (above a page's bottom dock, such as the player's chip rack), and
 * the page keeps room for the strip below its content (`--toasts-height`), so
 * whatever the strip is over can be scrolled clear of it; the place the user
 * just acted on (the control's row, item or form) is scrolled clear at once. The same message again is one message
 * that counts (×3), not three.
 */
import { ApiError } from '../api/http.js';
import { type ErrorParams, errorSentence } from '../i18n/errors.js';
import { lang, t } from '../i18n/i18n.js';
import { lawCitation } from '../i18n/law.js';
import { h } from './dom.js';

/** How long a message stays: a confirmation briefly, what needs reading longer. */
const SHOW_MS: Readonly<Record<Tone, number>> = { ok: 3000, info: 6000, error: 8000 };
const SHOWN_MAX = 3;

let region: HTMLElement | null = null;

/** The strip above a page's bottom dock, and the page's room for the strip below its content. */
function measure(host: HTMLElement): void {
  const dock = document.querySelector<HTMLElement>('[data-dock="bottom"]');
  const dockPx = dock === null ? 0 : dock.getBoundingClientRect().height;
  host.style.bottom = `${dockPx}px`;
  const height = host.childElementCount === 0 ? 0 : host.getBoundingClientRect().height;
  document.documentElement.style.setProperty('--toasts-height', `${height}px`);
}

function watchSizes(host: HTMLElement): void {
  new ResizeObserver(() => measure(host)).observe(host);
  window.addEventListener('resize', () => measure(host));
  new MutationObserver(() => measure(host)).observe(host, { childList: true });
}

function ensureRegion(): HTMLElement {
  if (region === null || !document.body.contains(region)) {
    region = h('div', {
      class: 'toasts',
      role: 'status',
      'aria-live': 'polite',
      'aria-atomic': 'false',
    });
    document.body.appendChild(region);
    watchSizes(region);
  }
  return region;
}

export type Tone = 'info' | 'ok' | 'error';

/**
 * Where the user last acted (the row, item or form of the control clicked or
 * typed in), in page coordinates: a message about it must leave it in sight,
 * even when the page has drawn the control anew meanwhile.
 */
let lastAction: { top: number; bottom: number } | null = null;

function noteAction(event: Event): void {
  const target = event.target;
  if (!(target instanceof Element) || target.closest('.toasts') !== null) return;
  const place = target.closest('tr, li, form') ?? target;
  const box = place.getBoundingClientRect();
  lastAction = { top: box.top + window.scrollY, bottom: box.bottom + window.scrollY };
}
document.addEventListener('click', noteAction, { capture: true });
document.addEventListener('keydown', noteAction, { capture: true });

/** The place the user just acted on, scrolled clear of the strip if the strip is over it. */
function keepActionClear(host: HTMLElement): void {
  if (lastAction === null) return;
  const strip = host.getBoundingClientRect();
  const [top, bottom] = [lastAction.top - window.scrollY, lastAction.bottom - window.scrollY];
  if (bottom > strip.top && top < strip.bottom)
    window.scrollBy({ top: bottom - strip.top + 8, behavior: 'instant' });
}

export function toast(text: string, tone: Tone = 'info', article?: string): void {
  const host = ensureRegion();
  const key = `${tone}\n${text}\n${article ?? ''}`;
  const same = [...host.querySelectorAll<HTMLElement>('.toast')].find(
    (x) => x.dataset['key'] === key,
  );
  if (same !== undefined) {
    repeat(same, tone);
    return;
  }
  const item = h(
    'div',
    { class: `toast toast-${tone}`, 'data-key': key, 'data-count': '1' },
    h('span', { class: 'toast-text' }, text),
    h('span', { class: 'toast-count', hidden: true }),
    article === undefined ? null : h('span', { class: 'art-badge' }, lawCitation(lang(), article)),
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
  expireLater(item, tone);
  measure(host);
  keepActionClear(host);
}

/** The same message once more: its count goes up and it stays its full time again. */
function repeat(item: HTMLElement, tone: Tone): void {
  const count = Number(item.dataset['count']) + 1;
  item.dataset['count'] = String(count);
  const badge = item.querySelector<HTMLElement>('.toast-count')!;
  badge.hidden = false;
  badge.textContent = `×${count}`;
  item.parentElement?.appendChild(item);
  expireLater(item, tone);
}

function expireLater(item: HTMLElement, tone: Tone): void {
  window.clearTimeout(Number(item.dataset['timer']));
  item.dataset['timer'] = String(window.setTimeout(() => item.remove(), SHOW_MS[tone]));
}

/**
 * A message for an error in the user's language only (i18n/errors.ts): the
 * code's sentence, with what it names (the table's limits, a holiday list's
 * bad date). The server's English message (with ids and amounts in minor
 * units) never reaches the screen.
 */
export function errorText(
  error: unknown,
  params?: ErrorParams,
): { text: string; article?: string } {
  if (error instanceof ApiError) {
    const text = errorSentence(lang(), error.code, params);
    return error.article === undefined ? { text } : { text, article: error.article };
  }
  // The page's own check (already in the user's language, e.g. an amount that is not one).
  return { text: error instanceof Error ? error.message : String(error) };
}

export function toastError(error: unknown, params?: ErrorParams): void {
  const { text, article } = errorText(error, params);
  toast(text, 'error', article);
}
