/** Small pieces shared by the table pages: phase, live state, countdown, result, history. */
import type { LiveStatus } from '../api/live.js';
import type { HistoryEntry, Phase, TableView, Triple } from '../api/types.js';
import { t } from '../i18n/i18n.js';
import { tableName } from '../i18n/table-name.js';
import { secondsLeft } from '../logic/clock.js';
import { bigSmallOf, oddEvenOf } from '../logic/roadmap.js';
import { die, diceRow } from './dice.js';
import { h, svg } from './dom.js';

export function phasePill(phase: Phase): HTMLElement {
  return h('span', { class: `phase-pill phase-${phase}` }, t(`phase.${phase}`));
}

/**
 * The bar above a table page: name, round and roll, phase, countdown, a line of
 * details (limits for a player, stakes for the croupier) and the live state.
 */
export function tableBar(
  v: {
    readonly id: string;
    readonly name: string;
    readonly roundNo: number;
    readonly rollNo: number;
    readonly phase: Phase;
  },
  countdown: HTMLElement,
  details: string,
  live: LiveStatus,
): HTMLElement[] {
  return [
    h('h1', { class: 'table-name' }, tableName(v)),
    h(
      'span',
      { class: 'round-no' },
      `${t('app.round')} ${v.roundNo}`,
      v.rollNo > 1 ? ` · ${t('app.roll')} ${v.rollNo}` : '',
    ),
    phasePill(v.phase),
    countdown,
    h('span', { class: 'limits' }, details),
    liveBadge(live),
  ];
}

export function liveBadge(status: LiveStatus): HTMLElement {
  return h(
    'span',
    { class: `live-badge live-${status}` },
    h('span', { class: 'live-dot', 'aria-hidden': 'true' }),
    t(`live.${status}`),
  );
}

/** Badges for a result: Small/Big (or triple), Odd/Even, as on the board. */
export function resultBadges(dice: Triple): HTMLElement {
  const bs = bigSmallOf(dice);
  const oe = oddEvenOf(dice);
  return h(
    'span',
    { class: 'badges' },
    h('span', { class: `badge badge-${bs}` }, t(`board.mark.${bs}`)),
    h('span', { class: `badge badge-${oe}` }, t(`board.mark.${oe}`)),
  );
}

export function bigDice(dice: Triple, className = 'big-dice'): HTMLElement {
  const label = `${t('player.dice')}: ${dice.join(', ')}`;
  return h(
    'div',
    { class: className, role: 'img', 'aria-label': label },
    dice.map((f, i) => die(f, { className: `rolled rolled-${i}` })),
  );
}

/** A ring that empties as betting time runs out. */
export class Countdown {
  readonly el: HTMLElement;
  private readonly ring: SVGElement;
  private readonly text: HTMLElement;

  constructor(className = 'countdown') {
    this.ring = svg('circle', { cx: 50, cy: 50, r: 44, class: 'ring-fg', pathLength: 100 });
    this.text = h('span', { class: 'countdown-num' });
    this.el = h(
      'div',
      { class: className, role: 'timer', 'aria-live': 'off' },
      svg(
        'svg',
        { viewBox: '0 0 100 100', class: 'ring', 'aria-hidden': 'true' },
        svg('circle', { cx: 50, cy: 50, r: 44, class: 'ring-bg' }),
        this.ring,
      ),
      this.text,
    );
  }

  /** A table's betting time left at the server's `nowMs`: hidden outside betting. */
  showBetting(
    view: Pick<TableView, 'phase' | 'bettingDeadlineMs' | 'bettingTimerMs'>,
    nowMs: number,
  ): void {
    this.update(
      view.phase === 'betting' ? secondsLeft(view.bettingDeadlineMs, nowMs) : null,
      view.bettingTimerMs === null ? null : Math.round(view.bettingTimerMs / 1000),
    );
  }

  update(seconds: number | null, totalSeconds: number | null): void {
    this.el.hidden = seconds === null;
    if (seconds === null) return;
    const fraction =
      totalSeconds === null || totalSeconds <= 0 ? 0 : Math.min(1, seconds / totalSeconds);
    this.ring.setAttribute('stroke-dasharray', `${fraction * 100} 100`);
    this.el.classList.toggle('urgent', seconds <= 5);
    this.text.textContent = String(seconds);
    this.el.setAttribute('aria-label', t('player.countdown', { s: seconds }));
  }
}

/** The last results as a strip: dice, total and the Small/Big mark. */
export function historyStrip(history: readonly HistoryEntry[], count: number): HTMLElement {
  const recent = history.slice(-count).reverse();
  return h(
    'ol',
    {
      class: 'history-strip',
      'aria-label': t('board.results'),
      // Equal columns that share the width: the newest `count` always fit, none cut off.
      style: `grid-template-columns: repeat(${count}, minmax(0, 1fr))`,
    },
    recent.map((r) =>
      h(
        'li',
        {
          class: `hist hist-${bigSmallOf(r.dice)}`,
          'aria-label': `${t('app.round')} ${r.roundNo}: ${r.dice.join('-')} = ${r.total}`,
        },
        diceRow(r.dice, 'dice-row tiny'),
        h('span', { class: 'hist-total' }, String(r.total)),
      ),
    ),
  );
}

export function panel(title: string, ...children: (Node | null)[]): HTMLElement {
  return h(
    'section',
    { class: 'panel', 'aria-label': title },
    h('h2', { class: 'panel-title' }, title),
    ...children,
  );
}

/** "a1b2c3d4…e5f6" for a 64-hex string, the whole value in the tooltip and for copying. */
export function shortHex(hex: string): HTMLElement {
  const short = hex.length > 20 ? `${hex.slice(0, 10)}…${hex.slice(-10)}` : hex;
  return h('code', { class: 'hex', title: hex, 'aria-label': hex }, short);
}
