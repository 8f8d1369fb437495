/**
 * The betting layout: every offered spot as a button on green felt, grouped as
 * on a Macau table, with its payout printed ("N:1"). Built once per paytable
 * and language, then updated in place (stakes, lit winners) so that keyboard
 * focus survives the live updates.
 */
import { type Spot } from '../../../src/rules/index.js';
import type { Key } from '../i18n/dict.js';
import { art, lang, t } from '../i18n/i18n.js';
import { officialName, spotName } from '../i18n/spot-names.js';
import { layoutGroups, topArea, type GroupId, isExtraGroup } from '../logic/layout.js';
import { chipLabel, formatAmount, formatMoney } from '../logic/money.js';
import { DIRECTION_OF_KEY, nearestInDirection } from '../logic/nav.js';
import { type LayoutOdds, payLabel } from '../logic/paytable.js';
import { chipTone } from '../logic/chips.js';
import { diceRow } from './dice.js';
import { h } from './dom.js';

export type BoardMode = 'player' | 'croupier' | 'board';

export interface LayoutBoardOptions {
  readonly odds: LayoutOdds;
  readonly mode: BoardMode;
  /** Leaves out the combination bets a house may add (for the display board's mini layout). */
  readonly coreOnly?: boolean;
  readonly onBet?: (spot: Spot) => void;
  readonly onWithdraw?: (spot: Spot) => void;
}

export interface LayoutState {
  /** The player's own stakes (player mode) or the table's (croupier). */
  readonly stakes: ReadonlyMap<string, number>;
  /** Art. 3.2: the winning combinations may light up on the layout. */
  readonly lit: ReadonlySet<string>;
  /** What each of the player's spots won this round. */
  readonly wins: ReadonlyMap<string, number>;
  /** Whether a bet would be accepted now (betting open). */
  readonly open: boolean;
  readonly currency: string;
}

const GROUP_TITLE: Readonly<Record<GroupId, Key>> = {
  top: 'group.bigSmall',
  totals: 'group.totals',
  twoDice: 'group.twoDice',
  singles: 'group.singles',
  threeDice: 'group.threeDice',
  doubleSingle: 'group.doubleSingle',
  fourNumbers: 'group.fourNumbers',
};

const BIG_CHAR: Readonly<Record<string, string>> = {
  small: '小',
  big: '大',
  odd: '單',
  even: '雙',
};
const RANGE: Readonly<Record<string, string>> = { small: '4–10', big: '11–17' };

/** What is printed inside a spot: dice, numbers and names as on the felt. */
function spotFace(spot: Spot, pays: string): HTMLElement[] {
  const name = spotName(spot, lang());
  const payEl = h('span', { class: 'pay' }, pays);
  switch (spot.kind) {
    case 'small':
    case 'big':
      return [
        h('span', { class: 'big-char', lang: 'zh-Hant' }, BIG_CHAR[spot.kind]),
        h(
          'span',
          { class: 'spot-name' },
          lang() === 'zh-Hant' ? spot.names.en.toUpperCase() : name.toUpperCase(),
        ),
        h('span', { class: 'range' }, RANGE[spot.kind]),
        payEl,
        h('span', { class: 'note' }, t('layout.tripleLoses')),
      ];
    case 'odd':
    case 'even':
      return [
        h('span', { class: 'big-char', lang: 'zh-Hant' }, BIG_CHAR[spot.kind]),
        h(
          'span',
          { class: 'spot-name' },
          lang() === 'zh-Hant' ? spot.names.en.toUpperCase() : name.toUpperCase(),
        ),
        payEl,
      ];
    case 'any-triple':
      return [
        h(
          'span',
          { class: 'any-grid' },
          [1, 2, 3, 4, 5, 6].map((f) => diceRow([f, f, f], 'dice-row mini')),
        ),
        h('span', { class: 'spot-name' }, name),
        payEl,
      ];
    case 'total':
      return [h('span', { class: 'total-num' }, String(spot.numbers[0])), payEl];
    case 'double':
      return [diceRow([spot.numbers[0]!, spot.numbers[0]!]), payEl];
    case 'triple':
      return [diceRow([spot.numbers[0]!, spot.numbers[0]!, spot.numbers[0]!]), payEl];
    case 'double-single':
      return [diceRow([spot.numbers[0]!, spot.numbers[0]!, spot.numbers[1]!]), payEl];
    case 'single':
      return [diceRow([spot.numbers[0]!], 'dice-row solo'), payEl];
    default:
      return [diceRow(spot.numbers), payEl];
  }
}

function tooltip(spot: Spot, pays: string): string {
  const lines = [`${spotName(spot, lang())} · ${pays}`];
  if (lang() !== 'pt') lines.push(t('spot.official', { pt: officialName(spot) }));
  lines.push(art(spot.article));
  return lines.join('\n');
}

export class LayoutBoard {
  readonly el: HTMLElement;
  private readonly buttons = new Map<string, HTMLButtonElement>();
  private readonly spots = new Map<string, Spot>();

  constructor(private readonly options: LayoutBoardOptions) {
    this.el = h('div', {
      class: `layout layout-${options.mode}`,
      role: 'group',
      'aria-label': t('layout.label'),
    });
    const groups = layoutGroups(options.odds.offered).filter(
      (g) => !(options.coreOnly === true && isExtraGroup(g.id)),
    );
    const core = groups.filter((g) => !isExtraGroup(g.id));
    const extra = groups.filter((g) => isExtraGroup(g.id));
    for (const g of core) this.el.appendChild(this.section(g.id, g.spots));
    if (extra.length > 0) {
      this.el.appendChild(
        h(
          'div',
          { class: 'extras' },
          extra.map((g) => this.section(g.id, g.spots)),
        ),
      );
    }
    this.el.addEventListener('keydown', (e) => this.onKey(e));
    // The layout is one tab stop (a roving tabindex): Tab goes on to the chip rack, the
    // arrow keys move between spots. The spot last focused is the one Tab comes back to.
    if (options.mode !== 'board') {
      this.el.addEventListener('focusin', (e) => {
        if (e.target instanceof HTMLButtonElement && e.target.dataset['spot'] !== undefined)
          this.rove(e.target);
      });
      const first = this.buttons.values().next().value;
      if (first !== undefined) this.rove(first);
    }
  }

  /** Makes `button` the layout's one tab stop. */
  private rove(button: HTMLButtonElement): void {
    for (const b of this.buttons.values()) b.tabIndex = b === button ? 0 : -1;
  }

  private section(id: GroupId, spots: readonly Spot[]): HTMLElement {
    const title = t(GROUP_TITLE[id]);
    return h(
      'section',
      { class: `zone zone-${id}`, role: 'group', 'aria-label': title },
      id === 'top'
        ? null
        : h(
            'h3',
            { class: 'zone-title' },
            title,
            id === 'singles' ? h('small', {}, ' · ', t('layout.singlesPay')) : null,
          ),
      h(
        'div',
        { class: `zone-grid grid-${id}` },
        spots.map((s) => this.button(s, id === 'top')),
      ),
    );
  }

  private button(spot: Spot, inTop: boolean): HTMLButtonElement {
    const pays = payLabel(this.options.odds.pays(spot));
    const button = h(
      'button',
      {
        type: 'button',
        class: `spot spot-${spot.kind}`,
        'data-spot': spot.id,
        'data-focus': `spot:${spot.id}`,
        title: tooltip(spot, pays),
        // The top block is a grid with named areas so it can take a Macau shape on a wide screen.
        style: inTop ? `grid-area: ${topArea(spot)}` : null,
        tabindex: this.options.mode === 'board' ? -1 : null,
        onclick: () => this.options.onBet?.(spot),
      },
      // What the felt prints is for the eye; the spot's name for a screen reader is the
      // sentence below (name, odds, stake, winner), which says all of it in words and
      // begins with the spot's name (WCAG 2.5.3: a voice user says what they see).
      spotFace(spot, pays).map((part) => {
        part.setAttribute('aria-hidden', 'true');
        return part;
      }),
      h('span', { class: 'stake', hidden: true, 'aria-hidden': 'true' }),
      h('span', { class: 'win', hidden: true, 'aria-hidden': 'true' }),
      h('span', { class: 'sr-only spot-label' }),
    );
    this.buttons.set(spot.id, button);
    this.spots.set(spot.id, spot);
    return button;
  }

  update(state: LayoutState): void {
    for (const [id, button] of this.buttons) {
      const spot = this.spots.get(id)!;
      const stake = state.stakes.get(id) ?? 0;
      const win = state.wins.get(id) ?? 0;
      const lit = state.lit.has(id);
      button.classList.toggle('lit', lit);
      button.classList.toggle('has-stake', stake > 0);
      button.setAttribute('aria-disabled', String(this.options.mode !== 'player' || !state.open));
      button.setAttribute('aria-pressed', String(lit));
      const chip = button.querySelector<HTMLElement>('.stake')!;
      chip.hidden = stake === 0;
      if (this.options.mode === 'croupier') {
        // The croupier reads amounts, not chips: a band at the spot's foot, clear of its number.
        chip.textContent = stake === 0 ? '' : formatAmount(stake);
        chip.className = 'stake stake-amount';
      } else {
        chip.textContent = stake === 0 ? '' : chipLabel(stake);
        chip.className = `stake chip-${chipTone(nearestTone(stake))}`;
      }
      const winEl = button.querySelector<HTMLElement>('.win')!;
      winEl.hidden = win === 0;
      winEl.textContent = win === 0 ? '' : `+${chipLabel(win)}`;
      button.querySelector<HTMLElement>('.spot-label')!.textContent = this.label(
        spot,
        stake,
        win,
        lit,
        state.currency,
      );
    }
  }

  private label(spot: Spot, stake: number, win: number, lit: boolean, currency: string): string {
    const pays = t('spot.pays', { n: this.options.odds.pays(spot).join('/') });
    const stakeText = stake === 0 ? t('app.none') : formatMoney(stake, currency);
    const key = this.options.mode === 'player' ? 'spot.aria' : 'spot.ariaTable';
    let text = t(key, { name: spotName(spot, lang()), pays, stake: stakeText });
    if (lit) text += t('spot.litAria');
    if (win > 0) text += t('spot.winAria', { amount: formatMoney(win, currency) });
    return text;
  }

  /** The spot whose button has focus, if any. */
  focusedSpot(): Spot | undefined {
    const active = document.activeElement;
    if (!(active instanceof HTMLButtonElement)) return undefined;
    const id = active.dataset['spot'];
    return id === undefined ? undefined : this.spots.get(id);
  }

  focusSpot(id: string): void {
    this.buttons.get(id)?.focus();
  }

  private onKey(e: KeyboardEvent): void {
    const dir = DIRECTION_OF_KEY[e.key];
    const current = this.focusedSpot();
    if (current === undefined) return;
    if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const all = [...this.buttons.values()].filter((b) => b.offsetParent !== null);
      (e.key === 'Home' ? all[0] : all.at(-1))?.focus();
    } else if (dir !== undefined) {
      const from = this.buttons.get(current.id)!;
      const all = [...this.buttons.values()].filter((b) => b !== from && b.offsetParent !== null);
      const rect = (b: HTMLElement) => {
        const r = b.getBoundingClientRect();
        return { x: r.left, y: r.top, w: r.width, h: r.height };
      };
      const next = nearestInDirection(rect(from), all.map(rect), dir);
      if (next >= 0) {
        e.preventDefault();
        all[next]!.focus();
      }
    } else if (
      (e.key === 'Backspace' || e.key === 'Delete') &&
      this.options.onWithdraw !== undefined
    ) {
      e.preventDefault();
      this.options.onWithdraw(current);
    }
  }
}

/** A stack of mixed chips shows the colour of the largest chip it holds. */
function nearestTone(stake: number): number {
  const values = [5000000, 1000000, 500000, 100000, 50000, 10000, 5000, 2000, 1000, 500, 100];
  return values.find((v) => stake >= v) ?? 100;
}
