/**
 * A table's view kept up to date from its events alone (the socket's `summary`
 * feed), as the round machine of src/table moves its state: the phase, round
 * and roll, the sealed roll's commitment, the betting deadline, the result and
 * the history. Pure, so a page applies each event as it comes instead of
 * fetching the whole view again after every burst.
 *
 * What events do not carry is left as the last fetched view had it: the
 * table's settings (they change between rounds only, so a page fetches the
 * view once per new round) and `allowed`, the croupier's steps (the player's
 * page does not use it).
 */
import type {
  HistoryEntry,
  LastRound,
  Phase,
  RoundEvent,
  StakesMessage,
  TableView,
} from '../api/types.js';

/** The server keeps this many results in a view (HISTORY_ROUNDS_MAX of src/server/hub.ts). */
export const HISTORY_MAX = 100;

/** The view after `event` (journal entry `seq`); events of another table are the caller's error. */
export function applyEvent(view: TableView, event: RoundEvent, seq: number): TableView {
  const at: TableView = {
    ...view,
    roundNo: event.roundNo,
    rollNo: event.rollNo,
    lastEventSeq: Math.max(view.lastEventSeq, seq),
  };
  const phase = (p: Phase): TableView => ({ ...at, phase: p });
  switch (event.type) {
    case 'dome-covered':
      // Art. 3.3: after a void roll the same round goes on; otherwise a new one starts.
      return {
        ...phase('covered'),
        leverPulls: 0,
        commitmentHex: null,
        bettingDeadlineMs: null,
        ...(event.newRound
          ? { stakesBySpotMinor: {}, betCount: 0, totalStakeMinor: 0, lastRound: null }
          : {}),
      };
    case 'latches-fastened':
      return phase('latched');
    case 'lever-pulled':
      // Art. 2.1: three pulls in a row; dice-shaken follows the third.
      return { ...phase('shaking'), leverPulls: event.pullNo };
    case 'dice-shaken':
      return { ...phase('shaken'), commitmentHex: event.commitmentHex };
    case 'betting-opened':
      return {
        ...phase('betting'),
        commitmentHex: event.commitmentHex,
        bettingDeadlineMs: event.deadlineMs,
      };
    case 'bet-placed':
    case 'bet-withdrawn':
      return { ...at, totalStakeMinor: event.totalStakeMinor };
    case 'bell-rung':
      return { ...phase('closed'), bettingDeadlineMs: null };
    case 'dome-lifted':
      return phase('lifted');
    case 'roll-voided':
      // Art. 3.3: the roll is repeated under the next roll number; the bets stand (Art. 3.4).
      return {
        ...phase('voided'),
        rollNo: event.nextRollNo,
        leverPulls: 0,
        commitmentHex: null,
      };
    case 'dice-revealed':
      // The seal opens (Art. 2.1); round-settled, in the same commit, carries the winners.
      return {
        ...at,
        lastRound: {
          roundNo: event.roundNo,
          rollNo: event.rollNo,
          dice: event.dice,
          winningSpots: [],
          totalReturnedMinor: 0,
          payoutCount: 0,
          nonceHex: event.nonceHex,
          commitmentHex: event.commitmentHex,
        },
      };
    case 'round-settled':
      return settled(at, event);
    case 'prizes-paid':
      return phase('paid');
    default:
      // dice-read announces what round-settled then carries.
      return at;
  }
}

/**
 * How many bets the round pays. The summary feed leaves everyone's `returnsMinor`
 * out of round-settled (server/feed.ts), so there the count is not known: 0.
 */
function payoutCountOf(event: Extract<RoundEvent, { type: 'round-settled' }>): number {
  const returns = (event as { readonly returnsMinor?: readonly number[] }).returnsMinor;
  return returns === undefined ? 0 : returns.filter((m) => m > 0).length;
}

function settled(
  view: TableView,
  event: Extract<RoundEvent, { type: 'round-settled' }>,
): TableView {
  const dice = event.dice;
  const sealed = view.lastRound?.roundNo === event.roundNo ? view.lastRound : null;
  const lastRound: LastRound = {
    roundNo: event.roundNo,
    rollNo: event.rollNo,
    dice,
    winningSpots: event.winningSpots,
    // Art. 4: what "pay all" pays, and to how many bets (as the server's view counts them).
    totalReturnedMinor: event.totalReturnedMinor,
    payoutCount: payoutCountOf(event),
    nonceHex: sealed?.nonceHex ?? null,
    commitmentHex: sealed?.commitmentHex ?? null,
  };
  const entry: HistoryEntry = { roundNo: event.roundNo, dice, total: dice[0] + dice[1] + dice[2] };
  return {
    ...view,
    phase: 'revealed',
    lastRound,
    history: [...view.history, entry].slice(-HISTORY_MAX),
  };
}

/** The table's stakes from a `stakes` message, unless the view has moved past it. */
export function applyStakes(
  view: TableView,
  stakes: Pick<
    StakesMessage,
    'roundNo' | 'rollNo' | 'stakesBySpotMinor' | 'betCount' | 'totalStakeMinor'
  >,
): TableView {
  if (stakes.roundNo !== view.roundNo || stakes.rollNo !== view.rollNo) return view;
  return {
    ...view,
    stakesBySpotMinor: stakes.stakesBySpotMinor,
    betCount: stakes.betCount,
    totalStakeMinor: stakes.totalStakeMinor,
  };
}
