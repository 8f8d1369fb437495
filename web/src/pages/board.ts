/**
 * The display board beside the table (Art. 2.2 lets the shaker light it): the
 * result with the winning spots lit (Art. 3.2), the last results, Small/Big and
 * Odd/Even roadmaps, and hot and cold numbers. Read-only, made to be read from
 * a distance; it follows the table live.
 */
import type { LiveStatus } from '../api/live.js';
import type { Me, TableView } from '../api/types.js';
import { TableFeed } from '../app/table-feed.js';
import { onLanguage, t } from '../i18n/i18n.js';
import { lastResult } from '../logic/last-result.js';
import { layoutOdds } from '../logic/paytable.js';
import { h, replaceChildren } from '../ui/dom.js';
import { LayoutBoard } from '../ui/layout-board.js';
import { shell } from '../ui/shell.js';
import { Countdown, liveBadge, phasePill } from '../ui/widgets.js';
import { HOT_WINDOW, hotColdPanel, resultCard, resultsTable, roadsPanel } from './board-panels.js';
import type { Page } from './page.js';

export function boardPage(me: Me, tableId: string): Page {
  const main = h('main', { class: 'page page-board' });
  const el = shell({ me, tableId, active: 'board' }, main);
  const bar = h('div', { class: 'table-bar' });
  const grid = h('div', { class: 'board-grid' });
  const felt = h('div', { class: 'felt felt-board' });
  main.append(bar, grid);
  const countdown = new Countdown();
  let view: TableView | null = null;
  let live: LiveStatus = 'connecting';
  let board: LayoutBoard | null = null;
  let oddsKey = '';

  const render = (): void => {
    if (view === null) return;
    const v = view;
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
    replaceChildren(
      bar,
      h('h1', { class: 'table-name' }, v.name),
      h('span', { class: 'round-no' }, `${t('app.round')} ${v.roundNo}`),
      phasePill(v.phase),
      countdown.el,
      h('span', { class: 'limits' }),
      liveBadge(live),
    );
    replaceChildren(
      grid,
      resultCard(v),
      h(
        'section',
        { class: 'board-winners', 'aria-label': t('board.winners') },
        h(
          'h2',
          { class: 'panel-title' },
          t('board.winners'),
          shown === null ? '' : ` · ${t('app.round')} ${shown.roundNo}`,
        ),
        felt,
      ),
      resultsTable(v.history, 12),
      roadsPanel(v.history),
      hotColdPanel(v.history, HOT_WINDOW),
    );
    tick();
  };
  const tick = (): void => {
    if (view === null) return;
    countdown.showBetting(view, feed.clock.now());
  };

  // The summary feed, each event applied to the view: the board needs no one's bets.
  const feed = new TableFeed(
    tableId,
    {
      onView: (v) => {
        view = v;
        render();
      },
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
      window.clearInterval(timer);
      off();
    },
  };
}
