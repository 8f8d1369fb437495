/**
 * A derived index of a round's bets: the ids used in the round, each player's
 * stake per spot and the round's total. Placing a bet needs all three, and
 * scanning `state.bets` for them made a round of n bets cost O(n²).
 *
 * The index is a cache, not state: `RoundState` stays plain JSON data and
 * `transition` stays a function of its arguments. An index belongs to one
 * `bets` array (and the `withdrawnBetIds` array beside it) and is found by that
 * array in a WeakMap; any state whose index is missing — loaded from a
 * database, built by a test, or an older state handed to `transition` again —
 * gets one built in O(n), which gives the same answers as the scans did.
 *
 * When a transition derives the next `bets` array from one whose index it
 * holds, it moves the index to the new array and updates it in O(1): the old
 * array loses its index (it would be wrong for it) and rebuilds one if it is
 * ever used again. So a round played forwards, the common case, costs O(1) per
 * bet here.
 *
 * The index also keeps the round's exposure (src/math's `ExposureBook`: what
 * the bets return under each of the 216 outcomes) for the liability cap, built
 * on its first use under the table's paytable and moved with the index.
 */
import { ExposureBook } from '../math/index.js';
import type { CompiledPaytable } from '../rules/index.js';
import type { PlacedBet } from './types.js';

export interface BetIndex {
  /** The arrays the index describes; any other pair must not use it. */
  bets: readonly PlacedBet[];
  withdrawnBetIds: readonly string[];
  /** Every bet id placed in the round, standing or withdrawn. */
  readonly usedIds: Set<string>;
  /** Standing stake per player, then per spot. */
  readonly stakeBySeat: Map<string, Map<string, number>>;
  totalStakeMinor: number;
  /** The standing bets' exposure under `paytable`; null until asked for. */
  exposure: { readonly paytable: CompiledPaytable; readonly book: ExposureBook } | null;
}

const indexes = new WeakMap<readonly PlacedBet[], BetIndex>();

/** The index of a round's bets, built when the arrays have none. */
export function betIndexOf(
  bets: readonly PlacedBet[],
  withdrawnBetIds: readonly string[],
): BetIndex {
  const found = indexes.get(bets);
  if (found !== undefined && found.bets === bets && found.withdrawnBetIds === withdrawnBetIds)
    return found;
  const index: BetIndex = {
    bets,
    withdrawnBetIds,
    usedIds: new Set(withdrawnBetIds),
    stakeBySeat: new Map(),
    totalStakeMinor: 0,
    exposure: null,
  };
  for (const bet of bets) add(index, bet);
  indexes.set(bets, index);
  return index;
}

/**
 * The standing bets' exposure under `paytable`, built in O(n) on first use (or
 * when the paytable changed between rounds) and kept up to date after.
 */
export function exposureOf(index: BetIndex, paytable: CompiledPaytable): ExposureBook {
  if (index.exposure === null || index.exposure.paytable !== paytable)
    index.exposure = { paytable, book: ExposureBook.of(paytable, index.bets) };
  return index.exposure.book;
}

/** The player's standing stake on the spot. */
export function stakeOnSeat(index: BetIndex, playerId: string, spot: string): number {
  return index.stakeBySeat.get(playerId)?.get(spot) ?? 0;
}

function addStake(index: BetIndex, bet: PlacedBet, stakeMinor: number): void {
  let spots = index.stakeBySeat.get(bet.playerId);
  if (spots === undefined) {
    spots = new Map();
    index.stakeBySeat.set(bet.playerId, spots);
  }
  spots.set(bet.spot, (spots.get(bet.spot) ?? 0) + stakeMinor);
  index.totalStakeMinor += stakeMinor;
  index.exposure?.book.add(bet.spot, stakeMinor);
}

function add(index: BetIndex, bet: PlacedBet): void {
  index.usedIds.add(bet.betId);
  addStake(index, bet, bet.stakeMinor);
}

/** Moves `index` to `bets`, which is its arrays' bets with `bet` appended. */
export function movePlaced(index: BetIndex, bets: readonly PlacedBet[], bet: PlacedBet): void {
  indexes.delete(index.bets);
  add(index, bet);
  index.bets = bets;
  indexes.set(bets, index);
}

/** Moves `index` to the arrays left after `bet` was withdrawn (its id stays used). */
export function moveWithdrawn(
  index: BetIndex,
  bets: readonly PlacedBet[],
  withdrawnBetIds: readonly string[],
  bet: PlacedBet,
): void {
  indexes.delete(index.bets);
  addStake(index, bet, -bet.stakeMinor);
  index.bets = bets;
  index.withdrawnBetIds = withdrawnBetIds;
  indexes.set(bets, index);
}
