/**
 * `/`: sign in, then go where the role works. A signed-in player or croupier
 * with several tables picks one here, each table with its name in the page's
 * language, its stake limits per spot and its phase.
 */
import { login, tables } from '../api/endpoints.js';
import type { Me, TableSummary } from '../api/types.js';
import { homeRoute, lastTable, loadSession, go } from '../app/session.js';
import { onLanguage, t } from '../i18n/i18n.js';
import { tableName } from '../i18n/table-name.js';
import { formatMoney } from '../logic/money.js';
import { diceRow } from '../ui/dice.js';
import { h, replaceChildren } from '../ui/dom.js';
import { shell } from '../ui/shell.js';
import { toastError } from '../ui/status.js';
import { phasePill } from '../ui/widgets.js';
import type { Page } from './page.js';

export function loginPage(me: Me | null): Page {
  const main = h('main', { class: 'page page-login' });
  const el = shell({ me, tableId: null, active: '' }, main);
  const card = h('div', { class: 'login-card' });
  main.appendChild(card);
  const render = (): void => {
    if (me === null) replaceChildren(card, ...loginForm());
    else void chooser(me, card);
  };
  render();
  const off = onLanguage(render);
  return { el, destroy: off };
}

function brandBlock(): HTMLElement[] {
  return [
    diceRow([4, 5, 6], 'dice-row login-dice'),
    h(
      'h1',
      { class: 'login-title' },
      h('span', { lang: 'zh-Hant' }, '骰寶'),
      ' ',
      h('span', { lang: 'pt' }, '«Cussec»'),
    ),
    h('p', { class: 'muted small' }, t('app.regulation')),
  ];
}

function loginForm(): HTMLElement[] {
  const user = h('input', {
    id: 'login-user',
    name: 'username',
    autocomplete: 'username',
    required: true,
    'data-focus': 'user',
  });
  const pass = h('input', {
    id: 'login-pass',
    name: 'password',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
    'data-focus': 'pass',
  });
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    try {
      await login(user.value, pass.value);
      const me = await loadSession();
      if (me !== null) await goHome(me);
    } catch (error) {
      toastError(error);
    }
  };
  return [
    ...brandBlock(),
    h(
      'form',
      { class: 'form', onsubmit: (e) => void submit(e) },
      h('label', { for: 'login-user' }, t('login.username')),
      user,
      h('label', { for: 'login-pass' }, t('login.password')),
      pass,
      h(
        'button',
        { type: 'submit', class: 'btn btn-gold btn-wide', 'data-focus': 'submit' },
        t('login.submit'),
      ),
    ),
  ];
}

/** Goes straight to the role's page when there is no choice to make. */
async function goHome(me: Me): Promise<void> {
  const role = me.user.role;
  if (me.user.mustChangePassword === true) {
    go('#/password');
    return;
  }
  if (role !== 'player' && role !== 'croupier') {
    go(homeRoute(role, null));
    return;
  }
  const list = await tables();
  const remembered = list.find((x) => x.id === lastTable());
  const only = list.length === 1 ? list[0] : remembered;
  go(only === undefined ? '#/' : homeRoute(role, only.id)); // '#/' shows the chooser.
}

async function chooser(me: Me, card: HTMLElement): Promise<void> {
  let list: TableSummary[] = [];
  try {
    list = await tables();
  } catch (error) {
    toastError(error);
  }
  const links = (x: TableSummary): HTMLElement[] => {
    const id = encodeURIComponent(x.id);
    const role = me.user.role;
    const out: HTMLElement[] = [];
    if (role === 'player')
      out.push(h('a', { class: 'btn btn-gold', href: `#/table/${id}` }, t('nav.table')));
    if (role === 'croupier' || role === 'supervisor')
      out.push(h('a', { class: 'btn btn-gold', href: `#/croupier/${id}` }, t('nav.croupier')));
    out.push(h('a', { class: 'btn', href: `#/board/${id}` }, t('nav.board')));
    return out;
  };
  replaceChildren(
    card,
    ...brandBlock(),
    h('h2', { class: 'panel-title' }, t('login.chooseTable')),
    list.length === 0
      ? h('p', { class: 'muted' }, t('login.noTables'))
      : h(
          'ul',
          { class: 'table-list' },
          list.map((x) =>
            h(
              'li',
              { class: 'table-item' },
              h(
                'span',
                { class: 'table-item-name' },
                h('span', { class: 'table-item-title' }, tableName(x)),
                h(
                  'small',
                  {},
                  ` ${t(`inspector.shaker.${x.shaker}`)} · ${t('app.round')} ${x.roundNo}`,
                ),
              ),
              phasePill(x.phase),
              h(
                'span',
                { class: 'table-item-limits' },
                t('player.limits', {
                  min: formatMoney(x.stakeMinorMin, x.currency),
                  max: formatMoney(x.stakeMinorMax, x.currency),
                }),
              ),
              h('span', { class: 'table-item-links' }, links(x)),
            ),
          ),
        ),
  );
}
