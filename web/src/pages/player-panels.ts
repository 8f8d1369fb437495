/** The player page's side panels and chip rack, drawn from the page's state. */
import { spotById } from '../../../src/rules/index.js';
import type { HistoryEntry, TableView, Triple } from '../api/types.js';
import type { RollVerdict } from '../app/roll-check.js';
import { art, lang, t } from '../i18n/i18n.js';
import { spotName } from '../i18n/spot-names.js';
import { type BetBook, linesBySpot, totalStake, winnings } from '../logic/bet-book.js';
import { chipTone } from '../logic/chips.js';
import { lastResult } from '../logic/last-result.js';
import { chipLabel } from '../logic/money.js';
import { h } from '../ui/dom.js';
import { bigDice, historyStrip, panel, resultBadges, shortHex } from '../ui/widgets.js';
import { HOT_WINDOW, hotColdPanel, roadsPanel } from './board-panels.js';

export function chipRack(
  chips: readonly number[],
  selected: number,
  choose: (v: number) => void,
): HTMLElement {
  return h(
    'div',
    { class: 'chips', role: 'radiogroup', 'aria-label': t('player.chips') },
    chips.map((value, i) =>
      h(
        'button',
        {
          type: 'button',
          role: 'radio',
          'aria-checked': String(value === selected),
          'aria-label': `${t('player.chip', { value: chipLabel(value) })} (${i + 1})`,
          'aria-keyshortcuts': String(i + 1),
          'data-focus': `chip:${value}`,
          class: `chip chip-${chipTone(value)}${value === selected ? ' selected' : ''}`,
          onclick: () => choose(value),
        },
        h('span', { class: 'chip-value' }, chipLabel(value)),
      ),
    ),
  );
}

/** What each spot of the player's won this round (winMinor summed per spot). */
export function winsBySpot(bets: BetBook): Map<string, number> {
  const out = new Map<string, number>();
  for (const b of bets.bets)
    if ((b.winMinor ?? 0) > 0) out.set(b.spot, (out.get(b.spot) ?? 0) + b.winMinor!);
  return out;
}

/** The dice of the round (once revealed) or of the last one, with the history strip. */
export function resultPanel(v: TableView): HTMLElement {
  const last = lastResult(v.lastRound, v.history, v.paytable);
  const thisRound =
    last !== null && last.roundNo === v.roundNo && (v.phase === 'revealed' || v.phase === 'paid');
  const title =
    last === null
      ? t('player.lastResult')
      : `${thisRound ? t('player.dice') : t('player.lastResult')} · ${t('app.round')} ${last.roundNo}`;
  const body =
    last === null
      ? h('p', { class: 'muted' }, t('board.noHistory'))
      : h(
          'div',
          { class: `result${thisRound ? ' result-live' : ''}` },
          bigDice(last.dice),
          h(
            'div',
            { class: 'result-meta' },
            h(
              'span',
              { class: 'result-total' },
              `${t('app.total')} ${last.dice[0] + last.dice[1] + last.dice[2]}`,
            ),
            resultBadges(last.dice),
          ),
          thisRound ? h('p', { class: 'lit-note' }, t('player.lit')) : null,
        );
  const el = panel(title, body, v.history.length > 0 ? historyStrip(v.history, 12) : null);
  el.classList.add('panel-result');
  return el;
}

/** The player's result of a settled round as one sentence: won, lost or even, with the amount. */
export function netSentence(bets: BetBook, money: (minor: number) => string): string | null {
  const won = winnings(bets);
  if (!won.settled) return null;
  const net = won.returnedMinor - totalStake(bets);
  if (net > 0) return t('result.won', { amount: money(net) });
  if (net < 0) return t('result.lost', { amount: money(-net) });
  return t('result.even');
}

/**
 * At the reveal, the round's result where the player's eyes are: in the chip
 * rack, which stays on screen on a phone however far the layout is scrolled
 * (betting is closed, so the chips have nothing to do until the next round).
 * The dice, the total with Small/Big and Odd/Even, and what the round did to
 * the player: won, lost or even, with the stakes and what came back.
 */
export function roundResult(
  dice: Triple,
  bets: BetBook,
  money: (minor: number) => string,
): HTMLElement {
  const won = winnings(bets);
  const net = won.returnedMinor - totalStake(bets);
  const sentence = netSentence(bets, money);
  const tone =
    bets.bets.length === 0 || !won.settled ? 'none' : net > 0 ? 'won' : net < 0 ? 'lost' : 'even';
  return h(
    'section',
    { class: `round-result round-result-${tone}`, 'aria-label': t('result.title') },
    bigDice(dice, 'big-dice round-dice'),
    h(
      'p',
      { class: 'round-total' },
      h('span', {}, `${t('app.total')} ${dice[0] + dice[1] + dice[2]}`),
      resultBadges(dice),
    ),
    h(
      'div',
      { class: 'round-net' },
      h(
        'strong',
        { class: 'round-net-line' },
        bets.bets.length === 0 ? t('result.noBets') : (sentence ?? t('result.pending')),
      ),
      won.settled
        ? h(
            'span',
            { class: 'round-net-detail' },
            t('result.detail', {
              staked: money(totalStake(bets)),
              returned: money(won.returnedMinor),
            }),
          )
        : null,
    ),
  );
}

/** "Your bets": one line per spot with its total (not one per chip), no inner scroll. */
export function betsPanel(
  v: TableView,
  bets: BetBook,
  money: (minor: number) => string,
): HTMLElement {
  if (bets.bets.length === 0)
    return panel(t('player.yourBets'), h('p', { class: 'muted' }, t('player.noBets')));
  const won = winnings(bets);
  const rows = linesBySpot(bets, v.rollNo).map((line) => {
    const spot = spotById(line.spot);
    const name = spot === undefined ? line.spot : spotName(spot, lang());
    let outcome: HTMLElement | null = null;
    if (line.winMinor !== undefined) {
      outcome =
        line.winMinor > 0
          ? h('span', { class: 'won' }, t('player.won', { amount: money(line.winMinor) }))
          : h('span', { class: 'lost' }, t('player.lost'));
    }
    return h(
      'li',
      { class: 'bet-row', 'data-spot': line.spot },
      h('span', { class: 'bet-name', title: spot?.names.pt ?? '' }, name),
      line.count > 1 ? h('span', { class: 'bet-count' }, `×${line.count}`) : null,
      line.standingMinor > 0
        ? h('span', { class: 'standing', title: art('3.4') }, t('player.standing'))
        : null,
      h('span', { class: 'bet-stake' }, money(line.stakeMinor)),
      outcome,
    );
  });
  return panel(
    t('player.yourBets'),
    h('ul', { class: 'bet-list' }, rows),
    h(
      'p',
      { class: 'bet-total' },
      `${t('player.atStake')}: ${money(totalStake(bets))}`,
      won.settled
        ? h(
            'strong',
            { class: won.returnedMinor > 0 ? 'won' : 'lost' },
            ' · ',
            t('player.roundWin', { amount: money(won.returnedMinor) }),
          )
        : null,
    ),
  );
}

function verdictLine(verdict: RollVerdict): HTMLElement {
  switch (verdict.state) {
    case 'lever':
      return h('p', { class: 'muted' }, t('verify.lever'));
    case 'pending':
      return h('p', { class: 'muted' }, t('verify.pending'));
    case 'match':
      return h(
        'p',
        { class: 'verify verify-ok', role: 'status' },
        '✔ ',
        t('verify.ok', { dice: verdict.dice.join('-') }),
        ' ',
        h('span', { class: 'art-badge' }, art('2.1')),
      );
    case 'mismatch':
      return h(
        'p',
        { class: 'verify verify-bad', role: 'alert' },
        '✖ ',
        t('verify.fail', { dice: verdict.dice.join('-') }),
      );
    case 'changed':
      return h('p', { class: 'verify verify-bad', role: 'alert' }, '✖ ', t('verify.changed'));
  }
}

/** Art. 2.1: the commitment of the sealed roll, and the check of the last reveal. */
export function sealPanel(v: TableView, verdict: RollVerdict): HTMLElement {
  if (v.shaker === 'lever') return panel(t('verify.title'), verdictLine(verdict));
  const last = v.lastRound;
  // The verdict stays on show into the next round, when the view has no lastRound any more.
  const checkedRound = 'roundNo' in verdict ? verdict.roundNo : last?.roundNo;
  const detail =
    (verdict.state === 'match' || verdict.state === 'mismatch' || verdict.state === 'changed') &&
    last !== null
      ? h(
          'details',
          { class: 'seal-details' },
          h('summary', {}, t('verify.message')),
          h('pre', { class: 'hex-block' }, verdict.message),
          h('p', { class: 'small' }, `SHA-256 = `, shortHex(last.commitmentHex ?? '')),
        )
      : null;
  return panel(
    t('player.commitment'),
    v.commitmentHex === null
      ? null
      : h(
          'p',
          { class: 'seal' },
          h(
            'span',
            { class: 'seal-label' },
            `${t('app.round')} ${v.roundNo} · ${t('app.roll')} ${v.rollNo}`,
          ),
          shortHex(v.commitmentHex),
        ),
    h('p', { class: 'small muted' }, t('player.commitmentHelp')),
    h(
      'h3',
      { class: 'sub' },
      t('verify.title'),
      checkedRound === undefined ? '' : ` · ${t('app.round')} ${checkedRound}`,
    ),
    verdictLine(verdict),
    detail,
  );
}

export type Trend = 'bigSmall' | 'oddEven' | 'hot';
const TRENDS: readonly Trend[] = ['bigSmall', 'oddEven', 'hot'];

/**
 * The display board's roads and hot and cold numbers (board-panels.ts), one at
 * a time behind tabs, so a player need not open the board to see them.
 */
export function trendsPanel(
  history: readonly HistoryEntry[],
  shown: Trend,
  choose: (trend: Trend) => void,
): HTMLElement {
  const label: Readonly<Record<Trend, string>> = {
    bigSmall: t('board.bigSmall'),
    oddEven: t('board.oddEven'),
    hot: `${t('board.hot')} / ${t('board.cold')}`,
  };
  const tab = (trend: Trend): HTMLElement =>
    h(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: `trend-${trend}`,
        class: 'trend-tab',
        'data-focus': `trend:${trend}`,
        'aria-selected': String(trend === shown),
        'aria-controls': 'trend-body',
        tabindex: trend === shown ? 0 : -1,
        onclick: () => choose(trend),
        onkeydown: (e: Event) => {
          const key = (e as KeyboardEvent).key;
          if (key !== 'ArrowLeft' && key !== 'ArrowRight') return;
          e.preventDefault();
          const step = key === 'ArrowRight' ? 1 : TRENDS.length - 1;
          const other = TRENDS[(TRENDS.indexOf(trend) + step) % TRENDS.length]!;
          choose(other);
          document.getElementById(`trend-${other}`)?.focus();
        },
      },
      label[trend],
    );
  const body = shown === 'hot' ? hotColdPanel(history, HOT_WINDOW) : roadsPanel(history, shown);
  body.id = 'trend-body';
  body.setAttribute('role', 'tabpanel');
  body.setAttribute('aria-labelledby', `trend-${shown}`);
  body.querySelector('.panel-title')?.remove();
  return h(
    'section',
    { class: 'panel trends', 'aria-label': t('player.trends') },
    h(
      'div',
      { class: 'trend-tabs', role: 'tablist', 'aria-label': t('player.trends') },
      TRENDS.map(tab),
    ),
    body,
  );
}
