/**
 * The frame of every page: a skip link, the top bar (brand, table, navigation,
 * language switch, user, sign out) and the main region the page fills.
 */
import { logout } from '../api/endpoints.js';
import type { Me } from '../api/types.js';
import { clearSession, lastTable, navFor } from '../app/session.js';
import { LANG_LABELS, LANG_SHORT, LANGS, lang, onLanguage, setLang, t } from '../i18n/i18n.js';
import { h } from './dom.js';

export interface ShellOptions {
  readonly me: Me | null;
  readonly tableId: string | null;
  /** Which nav item is the current page. */
  readonly active: string;
  /** Extra content for the bar (phase, live state…), owned by the page. */
  readonly extra?: HTMLElement;
}

/** Three toggle buttons (繁 / PT / EN): compact enough for a phone's top bar. */
export function languageSelect(): HTMLElement {
  return h(
    'div',
    { class: 'lang', role: 'group', 'aria-label': t('app.language') },
    LANGS.map((l) =>
      h(
        'button',
        {
          type: 'button',
          class: 'lang-btn',
          lang: l,
          'aria-pressed': String(l === lang()),
          // The name starts with what the button shows (WCAG 2.5.3, label in name).
          'aria-label': `${LANG_SHORT[l]} — ${LANG_LABELS[l]}`,
          title: LANG_LABELS[l],
          onclick: () => setLang(l),
        },
        LANG_SHORT[l],
      ),
    ),
  );
}

function navLinks(me: Me, tableId: string | null, active: string): HTMLElement {
  const table = encodeURIComponent(tableId ?? lastTable() ?? 'T1');
  const hrefs = {
    table: `#/table/${table}`,
    croupier: `#/croupier/${table}`,
    board: `#/board/${table}`,
    inspector: '#/inspector',
    cage: '#/cage',
    floor: '#/floor',
    compliance: '#/compliance',
  } as const;
  return h(
    'nav',
    { class: 'nav', 'aria-label': t('app.name') },
    navFor(me.user.role).map((page) =>
      h(
        'a',
        { href: hrefs[page], class: 'nav-link', 'aria-current': page === active ? 'page' : null },
        t(`nav.${page}`),
      ),
    ),
  );
}

async function signOut(): Promise<void> {
  try {
    await logout();
  } finally {
    clearSession();
    location.hash = '#/';
  }
}

function topbar(options: ShellOptions): HTMLElement {
  const { me } = options;
  return h(
    'header',
    { class: 'topbar' },
    h(
      'a',
      { class: 'brand', href: '#/' },
      h('span', { class: 'brand-zh', lang: 'zh-Hant' }, '骰寶'),
      h('span', { class: 'brand-pt', lang: 'pt' }, 'CUSSEC'),
    ),
    options.extra ?? null,
    h('div', { class: 'topbar-spacer' }),
    me === null ? null : navLinks(me, options.tableId, options.active),
    languageSelect(),
    me === null
      ? null
      : h(
          'div',
          { class: 'user' },
          h(
            'span',
            { class: 'user-name' },
            me.user.displayName,
            h('small', {}, t(`role.${me.user.role}`)),
          ),
          h('a', { class: 'btn btn-ghost', href: '#/password' }, t('password.link')),
          h(
            'button',
            { type: 'button', class: 'btn btn-ghost', onclick: () => void signOut() },
            t('app.signout'),
          ),
        ),
  );
}

function setTitle(active: string): void {
  const page = (NAV_KEYS as readonly string[]).includes(active)
    ? `${t(`nav.${active as (typeof NAV_KEYS)[number]}`)} · `
    : '';
  document.title = `${page}骰寶 Cussec`;
}

const NAV_KEYS = [
  'table',
  'croupier',
  'board',
  'inspector',
  'cage',
  'floor',
  'compliance',
] as const;

// Only one page is mounted at a time, so one refresher is enough: the page's
// own content follows the language itself, the frame is redrawn here.
let refreshFrame: (() => void) | null = null;
onLanguage(() => refreshFrame?.());

/**
 * The frame of a sign beside the table (the display board): the page alone,
 * with no top bar, so no navigation and no sign-out on a screen the public
 * faces. The page draws its own language switch.
 */
export function signFrame(active: string, main: HTMLElement): HTMLElement {
  main.id = 'main';
  main.tabIndex = -1;
  setTitle(active);
  refreshFrame = () => setTitle(active);
  return h('div', { class: 'app app-sign' }, main);
}

export function shell(options: ShellOptions, main: HTMLElement): HTMLElement {
  main.id = 'main';
  main.tabIndex = -1;
  const skip = h(
    'a',
    {
      class: 'skip-link',
      href: '#main',
      onclick: (e) => {
        e.preventDefault();
        main.focus();
      },
    },
    t('app.skip'),
  );
  let bar = topbar(options);
  setTitle(options.active);
  refreshFrame = () => {
    const next = topbar(options);
    bar.replaceWith(next);
    bar = next;
    skip.textContent = t('app.skip');
    setTitle(options.active);
    // The language buttons were redrawn: keep the keyboard where it was.
    next.querySelector<HTMLElement>('.lang-btn[aria-pressed="true"]')?.focus();
  };
  return h('div', { class: 'app' }, skip, bar, main);
}
