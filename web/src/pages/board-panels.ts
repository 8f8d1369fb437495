/**
 * The display board's panels: the round's state and countdown, the limits
 * sign, the result, the results list, the roadmaps, hot and cold numbers.
 */
import type { HistoryEntry, Phase, TableView } from '../api/types.js';
import { art, t } from '../i18n/i18n.js';
import { hotCold, type Count } from '../logic/hot-cold.js';
import { lastResult } from '../logic/last-result.js';
import { formatMoney } from '../logic/money.js';
import {
  beadPlate,
  bigRoad,
  bigSmallOf,
  lastColumns,
  oddEvenOf,
  ROAD_ROWS,
  type BigSmall,
  type OddEven,
  type Round,
} from '../logic/roadmap.js';
import { die, diceRow } from '../ui/dice.js';
import { h } from '../ui/dom.js';
import { bigDice, panel, resultBadges } from '../ui/widgets.js';

/**
 * Rounds the hot and cold numbers are counted over (the board's and the
 * player's page): all the view's history holds (HISTORY_ROUNDS_MAX, src/server/hub.ts).
 */
export const HOT_WINDOW = 100;

/** The articles behind what the state panel says in a phase. */
const PHASE_ARTICLES: Partial<Record<Phase, readonly string[]>> = {
  shaken: ['2.1', '2.2'],
  betting: ['2.1'],
  closed: ['3.1'],
  lifted: ['3.2'],
  voided: ['3.3', '3.4'],
  revealed: ['3.2'],
  paid: ['4'],
};

/**
 * The round's state in large words, and while betting is open the countdown
 * to the bell. The shaker lights the board before betting starts (Art. 2.2):
 * from the shake until the bell the panel is lit.
 */
export function statusPanel(v: TableView, countdown: HTMLElement): HTMLElement {
  const lit = v.phase === 'shaken' || v.phase === 'betting';
  const closed = v.closedSinceMs !== null && v.closedSinceMs !== undefined;
  return h(
    'section',
    {
      class: `panel sign-status sign-${v.phase}${lit ? ' sign-lit' : ''}`,
      'aria-label': t('board.state'),
    },
    h('p', { class: 'sign-phase' }, t(`phase.${v.phase}`)),
    countdown,
    v.phase === 'voided' ? h('p', { class: 'sign-note' }, t('board.voidStands')) : null,
    closed ? h('p', { class: 'sign-note' }, t('err.table_closed')) : null,
    h(
      'p',
      { class: 'sign-arts' },
      (PHASE_ARTICLES[v.phase] ?? []).map((a) => h('span', { class: 'art-badge' }, art(a))),
    ),
  );
}

/** The limits sign (限紅): the least and the most one bet on a spot may stake. */
export function limitsSign(v: TableView): HTMLElement {
  const money = (minor: number): string => formatMoney(minor, v.currency);
  return h(
    'section',
    { class: 'panel sign-limits', 'aria-labelledby': 'sign-limits-title' },
    h('h2', { class: 'sign-limits-title', id: 'sign-limits-title' }, t('board.limits')),
    h(
      'dl',
      { class: 'sign-limits-list' },
      h('div', {}, h('dt', {}, t('board.limitMin')), h('dd', {}, money(v.stakeMinorMin))),
      h('div', {}, h('dt', {}, t('board.limitMax')), h('dd', {}, money(v.stakeMinorMax))),
    ),
    h('p', { class: 'sign-limits-note' }, t('board.limitsPerSpot')),
  );
}

// Columns kept in the DOM; the grid shows as many of the newest as fit (see .road-grid).
const BEAD_COLUMNS = 40;
const ROAD_COLUMNS = 80;

export function resultCard(v: TableView): HTMLElement {
  const last = lastResult(v.lastRound, v.history, v.paytable);
  if (last === null)
    return panel(t('player.lastResult'), h('p', { class: 'muted' }, t('board.noHistory')));
  const total = last.dice[0] + last.dice[1] + last.dice[2];
  const el = panel(
    `${t('player.lastResult')} · ${t('app.round')} ${last.roundNo}`,
    h(
      'div',
      { class: 'result result-live board-result' },
      bigDice(last.dice),
      h(
        'div',
        { class: 'result-meta' },
        h('span', { class: 'board-total' }, String(total)),
        resultBadges(last.dice),
      ),
    ),
  );
  el.classList.add('board-card');
  return el;
}

export function resultsTable(history: readonly HistoryEntry[], count: number): HTMLElement {
  const recent = history.slice(-count).reverse();
  const el = panel(
    t('board.results'),
    h(
      'table',
      { class: 'data results' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, t('app.round')),
          h('th', { scope: 'col' }, t('player.dice')),
          h('th', { scope: 'col', class: 'num' }, t('app.total')),
          h('th', { scope: 'col' }, ''),
        ),
      ),
      h(
        'tbody',
        {},
        recent.map((r) =>
          h(
            'tr',
            { class: bigSmallOf(r.dice) === 'triple' ? 'row-triple' : '' },
            h('td', {}, String(r.roundNo)),
            h(
              'td',
              {},
              diceRow(r.dice, 'dice-row list-dice'),
              h('span', { class: 'sr-only' }, r.dice.join('-')),
            ),
            h('td', { class: 'num total-cell' }, String(r.total)),
            h('td', {}, resultBadges(r.dice)),
          ),
        ),
      ),
    ),
  );
  el.classList.add('board-results');
  return el;
}

type Mark = BigSmall | OddEven;

function beadGrid(
  rounds: readonly Round[],
  markOf: (d: Round['dice']) => Mark,
  label: string,
): HTMLElement {
  const cells = lastColumns(beadPlate(rounds, markOf), BEAD_COLUMNS);
  return roadGrid(
    'bead',
    label,
    cells.map((c) =>
      h(
        'span',
        {
          class: `bead bead-${c.mark}${c.triple ? ' is-triple' : ''}`,
          style: `grid-column:${c.col + 1};grid-row:${c.row + 1}`,
          title: `${t('app.round')} ${c.roundNo}: ${c.total}`,
        },
        t(`board.mark.${c.mark}`),
      ),
    ),
  );
}

function roadGridOf(
  rounds: readonly Round[],
  markOf: (d: Round['dice']) => Mark,
  skipTriples: boolean,
  label: string,
): HTMLElement {
  const cells = lastColumns(
    bigRoad(rounds, markOf, skipTriples ? (m) => m === 'triple' : () => false),
    ROAD_COLUMNS,
  );
  return roadGrid(
    'road',
    label,
    cells.map((c) =>
      h(
        'span',
        {
          class: `road-ring road-ring-${c.mark ?? 'none'}`,
          style: `grid-column:${c.col + 1};grid-row:${c.row + 1}`,
          title: `${t('app.round')} ${c.roundNo}`,
        },
        // A triple after this result (Small/Big road), or this result was a triple (Odd/Even road).
        c.triples > 0
          ? h('span', { class: 'road-ring-triple' }, c.triples > 1 ? String(c.triples) : '')
          : null,
      ),
    ),
  );
}

function roadGrid(kind: string, label: string, cells: HTMLElement[]): HTMLElement {
  return h(
    'figure',
    { class: `roadmap roadmap-${kind}` },
    h('figcaption', {}, label),
    h(
      'div',
      { class: 'road-grid', role: 'img', 'aria-label': label, style: `--rows:${ROAD_ROWS}` },
      cells,
    ),
  );
}

/** Which roads to draw: both (the board), or one of them (the player's page, one tab each). */
export type RoadKind = 'both' | 'bigSmall' | 'oddEven';

export function roadsPanel(history: readonly HistoryEntry[], kind: RoadKind = 'both'): HTMLElement {
  const rounds = history.map((r) => ({ roundNo: r.roundNo, dice: r.dice }));
  const bs = kind !== 'oddEven';
  const oe = kind !== 'bigSmall';
  const title = [bs ? t('board.bigSmall') : null, oe ? t('board.oddEven') : null]
    .filter((x) => x !== null)
    .join(' · ');
  const el = panel(
    title,
    h(
      'div',
      { class: 'roads' },
      bs ? beadGrid(rounds, bigSmallOf, `${t('board.bigSmall')} — ${t('board.beadPlate')}`) : null,
      bs
        ? roadGridOf(rounds, bigSmallOf, true, `${t('board.bigSmall')} — ${t('board.bigRoad')}`)
        : null,
      oe ? beadGrid(rounds, oddEvenOf, `${t('board.oddEven')} — ${t('board.beadPlate')}`) : null,
      oe
        ? roadGridOf(rounds, oddEvenOf, false, `${t('board.oddEven')} — ${t('board.bigRoad')}`)
        : null,
    ),
    h('p', { class: 'small muted legend' }, t('board.legendTriple')),
  );
  el.classList.add('board-roads');
  return el;
}

function bars(
  counts: readonly Count[],
  hot: ReadonlySet<number>,
  cold: ReadonlySet<number>,
  face: boolean,
): HTMLElement {
  const max = Math.max(1, ...counts.map((c) => Math.max(c.count, c.expected)));
  const pct = (x: number): string => `${((x / max) * 100).toFixed(0)}%`;
  return h(
    'ul',
    { class: `freq ${face ? 'freq-faces' : 'freq-totals'}` },
    counts.map((c) =>
      h(
        'li',
        {
          class: hot.has(c.value) ? 'is-hot' : cold.has(c.value) ? 'is-cold' : '',
          'aria-label': `${c.value}: ${t('board.timesExpected', {
            n: c.count,
            e: c.expected.toFixed(1),
          })}`,
        },
        h(
          'span',
          { class: 'freq-bar', 'aria-hidden': 'true' },
          h('span', { class: 'freq-fill', style: `height:${pct(c.count)}` }),
          // What fair dice would show over the same rounds (Art. 1.1).
          h('span', { class: 'freq-expected', style: `bottom:${pct(c.expected)}` }),
        ),
        h('span', { class: 'freq-count', 'aria-hidden': 'true' }, String(c.count)),
        face
          ? die(c.value, { className: 'freq-die' })
          : h('span', { class: 'freq-label', 'aria-hidden': 'true' }, String(c.value)),
      ),
    ),
  );
}

/**
 * How often each face and total came up, against what fair dice would show;
 * the hot and cold totals named only once there are rounds enough to say so
 * (logic/hot-cold.ts), and until then how many rounds that takes.
 */
export function hotColdPanel(history: readonly HistoryEntry[], window: number): HTMLElement {
  const hc = hotCold(
    history.map((r) => r.dice),
    window,
  );
  const set = (xs: readonly Count[]): Set<number> => new Set(xs.map((x) => x.value));
  const list = (xs: readonly Count[]): string =>
    xs.length === 0 ? '—' : xs.map((x) => x.value).join(' · ');
  const head =
    hc.rounds < hc.totalsFromRounds
      ? h(
          'p',
          { class: 'hc-wait' },
          t('board.hotColdFrom', {
            faces: hc.facesFromRounds,
            totals: hc.totalsFromRounds,
            n: hc.rounds,
          }),
        )
      : h(
          'div',
          { class: 'hc-head' },
          h('span', { class: 'hot-chip' }, t('board.hot'), ': ', list(hc.hotTotals)),
          h('span', { class: 'cold-chip' }, t('board.cold'), ': ', list(hc.coldTotals)),
        );
  const el = panel(
    `${t('board.hot')} / ${t('board.cold')} · ${t('board.lastN', { n: hc.rounds })}`,
    head,
    h('h3', { class: 'sub' }, t('board.faces')),
    bars(hc.faces, set(hc.hotFaces.slice(0, 1)), set(hc.coldFaces.slice(0, 1)), true),
    h('h3', { class: 'sub' }, t('board.totals')),
    bars(hc.totals, set(hc.hotTotals), set(hc.coldTotals), false),
    h('p', { class: 'small muted legend' }, t('board.expectedLegend')),
  );
  el.classList.add('board-hot');
  return el;
}
