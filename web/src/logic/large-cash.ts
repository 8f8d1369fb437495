/**
 * Large cash at the cage (Instrução 1/2016): whether a move needs the player's
 * document sighted before it is sent. The rule and its figures are the
 * server's own (src/compliance/people/large-cash.ts, bundled): MOP 500,000 or
 * HKD 485,000 alone, or with the player's other cash moves of the Macau day.
 * A house may set a lower figure on the floor (`largeCashThresholdMinor` of
 * GET /floor-settings, never above the law's): that one is in force then.
 * The page asks before sending when this says so; the server is still the
 * judge (it answers `document_sighting_required` for moves the page could not
 * see, such as another cashier's of the same day), and the page asks then.
 */
import {
  type CashMove,
  classifyCash,
  DEFAULT_LARGE_CASH_THRESHOLD_MINOR,
} from '../../../src/compliance/people/large-cash.js';

export type { CashMove };

/**
 * The threshold in force, in the house currency's minor units: the house's
 * own figure where the floor set one, else the law's; null for a currency the
 * law's figure is not given in and no figure of the house's.
 */
export function largeCashThresholdMinor(
  currency: string,
  houseMinor: number | null = null,
): number | null {
  if (houseMinor !== null) return houseMinor;
  return currency === 'MOP' || currency === 'HKD'
    ? DEFAULT_LARGE_CASH_THRESHOLD_MINOR[currency]
    : null;
}

/** Why a move is large: alone (`single`) or with the day's other moves (`linked`); null when it is not. */
export type LargeCashReason = 'single' | 'linked';

/**
 * Whether `move` is a large cash transaction given the player's `earlier`
 * moves (any days: only the move's Macau day counts) and the threshold in
 * force; null when the threshold is unknown, so the page leaves the question
 * to the server.
 */
export function largeCashReason(
  move: CashMove,
  earlier: readonly CashMove[],
  thresholdMinor: number | null,
): LargeCashReason | null {
  const threshold = thresholdMinor;
  if (threshold === null || threshold <= 0 || move.amountMinor <= 0) return null;
  return classifyCash(move, earlier, threshold).reason;
}
