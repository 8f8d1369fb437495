/** The cashier's cage: find a player, see the balance, deposit or withdraw. */
import { deposit, players, tables, withdraw } from '../api/endpoints.js';
import type { Me, PlayerRow } from '../api/types.js';
import { onLanguage, t } from '../i18n/i18n.js';
import { matchingAccounts } from '../logic/accounts.js';
import { formatAmount, formatMoney, parseAmount } from '../logic/money.js';
import { h, replaceChildren } from '../ui/dom.js';
import { shell } from '../ui/shell.js';
import { toast, toastError } from '../ui/status.js';
import { panel } from '../ui/widgets.js';
import type { Page } from './page.js';

export function cagePage(me: Me): Page {
  const main = h('main', { class: 'page page-cage' });
  const el = shell({ me, tableId: null, active: 'cage' }, main);
  let list: PlayerRow[] = [];
  let filter = '';
  let selected: string | null = null;
  let busy = false;
  // The house keeps one currency (docs/api.md); the tables say which.
  let currency = '';
  const money = (minor: number): string =>
    currency === '' ? formatAmount(minor) : formatMoney(minor, currency);

  const move = async (kind: 'deposit' | 'withdraw', input: HTMLInputElement): Promise<void> => {
    const amount = parseAmount(input.value);
    if (amount === null || selected === null) {
      toast(t('cage.badAmount'), 'error');
      return;
    }
    if (busy) return;
    busy = true;
    try {
      const id = selected;
      const answer = kind === 'deposit' ? await deposit(id, amount) : await withdraw(id, amount);
      list = list.map((p) => (p.id === id ? { ...p, balanceMinor: answer.balanceMinor } : p));
      const player = list.find((p) => p.id === id);
      toast(
        t('cage.done', {
          name: player?.displayName ?? id,
          amount: money(answer.balanceMinor),
        }),
        'ok',
      );
      input.value = '';
      render();
    } catch (error) {
      toastError(error);
    } finally {
      busy = false;
    }
  };

  const playerList = (): HTMLElement => {
    const shown = matchingAccounts(list, filter);
    return h(
      'table',
      { class: 'data players' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, t('cage.players')),
          h('th', { scope: 'col', class: 'num' }, t('cage.balance')),
          h('th', {}, ''),
        ),
      ),
      h(
        'tbody',
        {},
        shown.map((p) =>
          h(
            'tr',
            { class: p.id === selected ? 'selected' : '' },
            h(
              'td',
              {},
              h('strong', {}, p.displayName),
              h('small', { class: 'muted' }, ` @${p.username}`),
            ),
            h('td', { class: 'num' }, money(p.balanceMinor)),
            h(
              'td',
              {},
              h(
                'button',
                {
                  type: 'button',
                  class: 'btn',
                  'aria-label': p.displayName,
                  'aria-pressed': String(p.id === selected),
                  'data-focus': `pick:${p.id}`,
                  onclick: () => {
                    selected = p.id;
                    render();
                    document.getElementById('cage-amount')?.focus();
                  },
                },
                '›',
              ),
            ),
          ),
        ),
      ),
    );
  };

  const form = (): HTMLElement | null => {
    const p = list.find((x) => x.id === selected);
    if (p === undefined) return null;
    const amount = h('input', {
      id: 'cage-amount',
      class: 'input',
      inputmode: 'decimal',
      autocomplete: 'off',
      placeholder: '1,000',
      'data-focus': 'amount',
    });
    return panel(
      p.displayName,
      h(
        'p',
        { class: 'cage-balance' },
        t('cage.balance'),
        ': ',
        h('strong', {}, money(p.balanceMinor)),
      ),
      h(
        'form',
        {
          class: 'form',
          onsubmit: (e) => {
            e.preventDefault();
            void move('deposit', amount);
          },
        },
        h(
          'label',
          { for: 'cage-amount' },
          t('cage.amount'),
          currency === '' ? '' : ` (${currency})`,
        ),
        amount,
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            { type: 'submit', class: 'btn btn-gold', 'data-focus': 'deposit' },
            t('cage.deposit'),
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'btn btn-red',
              'data-focus': 'withdraw',
              onclick: () => void move('withdraw', amount),
            },
            t('cage.withdraw'),
          ),
        ),
      ),
    );
  };

  function render(): void {
    replaceChildren(
      main,
      h('div', { class: 'table-bar' }, h('h1', { class: 'table-name' }, t('cage.title'))),
      h(
        'div',
        { class: 'two-col' },
        panel(
          t('cage.players'),
          h('input', {
            class: 'input search',
            type: 'search',
            'aria-label': t('cage.search'),
            placeholder: t('cage.search'),
            value: filter,
            'data-focus': 'search',
            oninput: (e) => {
              filter = (e.target as HTMLInputElement).value;
              render();
            },
          }),
          playerList(),
        ),
        form(),
      ),
    );
  }

  render();
  void (async () => {
    try {
      const [rows, summaries] = await Promise.all([players(), tables()]);
      list = rows;
      currency = summaries[0]?.currency ?? '';
      selected ??= list[0]?.id ?? null;
    } catch (error) {
      toastError(error);
    }
    render();
  })();
  return { el, destroy: onLanguage(render) };
}
