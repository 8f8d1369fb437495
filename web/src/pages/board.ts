/**
 * The display board beside the table: a sign the players read from their
 * seats, full screen, with no app navigation and no sign-out. It shows the
 * table's limits sign (限紅), the round's state with a large countdown while
 * betting is open, the last result with the winning spots lit (Art. 3.2), the
 * last results, the Small/Big and Odd/Even roads, and hot and cold numbers
 * once there are rounds enough to name them (logic/hot-cold.ts). Read-only; it
 * follows the table live.
 *
 * The display board is a house option (Arts. 2.2, 8): a table without one
 * shows only that it has none. The shaker lights it before betting starts
 * (Art. 2.2): from the shake to the bell the state panel is lit.
 */
import type { LiveStatus } from '../api/live.js';
import type { Me, RoundEvent, TableView } from '../api/types.js';
import { TableFeed } from '../app/table-feed.js';
import { onLanguage, t } from '../i18n/i18n.js';
import { tableName } from '../i18n/table-name.js';
import { lastResult } from '../logic/last-result.js';
import { layoutOdds } from '../logic/paytable.js';
import { Announcer, eventSentence } from '../ui/announcer.js';
import { h, replaceChildren } from '../ui/dom.js';
import { LayoutBoard } from '../ui/layout-board.js';
import { languageSelect, signFrame } from '../ui/shell.js';
import { Countdown, liveBadge, phasePill } from '../ui/widgets.js';
import {
  HOT_WINDOW,
  hotColdPanel,
  limitsSign,
  resultCard,
  resultsTable,
  roadsPanel,
  statusPanel,
} from './board-panels.js';
import type { Page } from './page.js';

/** Rows of the results list: as many as fit beside the layout at 1440×900. */
const RESULT_ROWS = 10;

export function boardPage(_me: Me, tableId: string): Page {
  const main = h('main', { class: 'page page-board' });
  const el = signFrame('board', main);
  const head = h('header', { class: 'sign-head' });
  const grid = h('div', { class: 'board-grid' });
  const felt = h('div', { class: 'felt felt-board' });
  const announcer = new Announcer();
  main.append(head, grid, announcer.el);
  const countdown = new Countdown('countdown sign-countdown');
  let view: TableView | null = null;
  let live: LiveStatus = 'connecting';
  let board: LayoutBoard | null = null;
  let oddsKey = '';

  const renderHead = (v: TableView): void =>
    replaceChildren(
      head,
      h('h1', { class: 'table-name' }, tableName(v)),
      h('span', { class: 'round-no' }, `${t('app.round')} ${v.roundNo}`),
      phasePill(v.phase),
      liveBadge(live),
      h('span', { class: 'topbar-spacer' }),
      languageSelect(),
    );

  const renderWinners = (v: TableView): HTMLElement => {
    const key = JSON.stringify(v.paytable);
    if (board === null || key !== oddsKey) {
      oddsKey = key;
      board = new LayoutBoard({ odds: layoutOdds(v.paytable), mode: 'board', coreOnly: true });
      felt.replaceChildren(board.el);
    }
    const shown = lastResult(v.lastRound, v.history, v.paytable);
    const settled =
      v.lastRound !== null &&
      v.lastRound.roundNo === v.roundNo &&
      (v.phase === 'revealed' || v.phase === 'paid');
    // Art. 3.2: the winning combinations light up; between rounds the last result stays lit.
    board.update({
      stakes: new Map(),
      lit: new Set(shown?.winningSpots ?? []),
      wins: new Map(),
      open: false,
      currency: v.currency,
    });
    felt.classList.toggle('stale', !settled);
    return h(
      'section',
      { class: 'board-winners', 'aria-label': t('board.winners') },
      h(
        'h2',
        { class: 'panel-title' },
        t('board.winners'),
        shown === null ? '' : ` · ${t('app.round')} ${shown.roundNo}`,
      ),
      felt,
    );
  };

  const render = (): void => {
    if (view === null) return;
    const v = view;
    renderHead(v);
    if (!v.displayBoard) {
      // Arts. 2.2 and 8: a display board is a house option this table does not have.
      replaceChildren(grid, h('p', { class: 'notice sign-none' }, t('board.none')));
      return;
    }
    // Three columns on a wide screen, one after the other on a phone: the round and its
    // limits, then the layout and the roads, then the results and hot and cold numbers.
    replaceChildren(
      grid,
      h('div', { class: 'sign-col' }, statusPanel(v, countdown.el), limitsSign(v), resultCard(v)),
      h('div', { class: 'sign-col' }, renderWinners(v), roadsPanel(v.history)),
      h(
        'div',
        { class: 'sign-col' },
        resultsTable(v.history, RESULT_ROWS),
        hotColdPanel(v.history, HOT_WINDOW),
      ),
    );
    tick();
  };
  const tick = (): void => {
    if (view === null) return;
    countdown.showBetting(view, feed.clock.now());
  };
  const onEvent = (event: RoundEvent): void => {
    const seconds =
      event.type === 'betting-opened' && event.deadlineMs !== null
        ? Math.round((event.deadlineMs - event.atMs) / 1000)
        : null;
    const sentence = eventSentence(event, seconds);
    if (sentence !== null) announcer.say(sentence);
  };

  // The summary feed, each event applied to the view: the board needs no one's bets.
  const feed = new TableFeed(
    tableId,
    {
      onView: (v) => {
        view = v;
        render();
      },
      onEvent,
      onStatus: (s) => {
        live = s;
        render();
      },
    },
    'events',
  );
  void feed.start();
  const timer = window.setInterval(tick, 250);
  const off = onLanguage(() => {
    board = null;
    render();
  });
  return {
    el,
    destroy: () => {
      feed.stop();
      announcer.stop();
      window.clearInterval(timer);
      off();
    },
  };
}
