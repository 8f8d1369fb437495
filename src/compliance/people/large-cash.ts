/**
 * Large cash transactions (Instrução 1/2016, customer due diligence).
 *
 * The customer's identity is checked and recorded for every transaction of
 * MOP 500,000 or more, or the equivalent; buying and selling chips — here a
 * cash deposit or withdrawal at the cage — are such transactions. Without a
 * credible identification the transaction is refused.
 *
 * Linked transactions: transactions split to stay under the figure are one
 * transaction. A move is large when it alone reaches the threshold
 * ("single"), or when the player's cash moves of the gaming day, this one
 * included, together reach it ("linked"). Once they have, every further cash
 * move of that day is large too and needs the identity and its sighting: a
 * player past the figure must not be able to go on in small amounts.
 *
 * Deposits and withdrawals are summed together, not netted: the Instrução
 * counts buying and selling chips alike as transactions, a player who buys
 * MOP 300,000 and cashes out MOP 300,000 has moved MOP 600,000 through the
 * cage, and netting would let a player alternate in and out under the figure
 * for ever. Summing can only ask for an identification more often, which is
 * always allowed; missing one is a breach.
 *
 * The gaming day is the Macau calendar date of the move (UTC+8, midnight to
 * midnight), the same day the daily report counts, so the two agree on which
 * day a move belongs to.
 */
import { type IsoDate, macauDate } from '../iso-date.js';

/** Instrução 1/2016: MOP 500,000, in avos. */
export const LARGE_CASH_THRESHOLD_MOP_MINOR = 50_000_000;

/**
 * The threshold by currency, in minor units. HKD 485,000: the law's MOP
 * 500,000 at the peg of HKD 1 = MOP 1.03 is HKD 485,436.89, rounded down to
 * the thousand so that the Hong Kong dollar figure is never above the law's.
 */
export const DEFAULT_LARGE_CASH_THRESHOLD_MINOR: Record<'MOP' | 'HKD', number> = {
  MOP: LARGE_CASH_THRESHOLD_MOP_MINOR,
  HKD: 48_500_000,
};

/** The gaming day of an instant: its Macau calendar date, as in the daily report. */
export function gamingDay(epochMs: number): IsoDate {
  return macauDate(epochMs);
}

export interface CashMove {
  readonly atMs: number;
  readonly kind: 'deposit' | 'withdrawal';
  readonly amountMinor: number;
}

export interface CashClassification {
  readonly large: boolean;
  /** single: the move alone reaches the threshold; linked: the day's moves together do. */
  readonly reason: 'single' | 'linked' | null;
  /** Deposits and withdrawals of the move's gaming day, this one included. */
  readonly dayTotalMinor: number;
}

function assertAmount(name: string, value: number): void {
  // A programmer error, not an operating one: amounts come from validated commands.
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer number of minor units: ${value}`);
  }
}

/**
 * Instrução 1/2016: whether `move` is a large cash transaction. `earlierToday`
 * are the player's earlier cash moves; those of another gaming day than the
 * move's are left out, so a caller may pass a longer history.
 */
export function classifyCash(
  move: CashMove,
  earlierToday: readonly CashMove[],
  thresholdMinor: number,
): CashClassification {
  assertAmount('thresholdMinor', thresholdMinor);
  assertAmount('amountMinor', move.amountMinor);
  const day = gamingDay(move.atMs);
  let dayTotalMinor = move.amountMinor;
  for (const earlier of earlierToday) {
    if (gamingDay(earlier.atMs) === day) dayTotalMinor += earlier.amountMinor;
  }
  if (!Number.isSafeInteger(dayTotalMinor)) throw new RangeError('day total out of range');
  // Instrução 1/2016: MOP 500,000 "or more", alone or with the day's linked moves.
  if (move.amountMinor >= thresholdMinor) return { large: true, reason: 'single', dayTotalMinor };
  if (dayTotalMinor >= thresholdMinor) return { large: true, reason: 'linked', dayTotalMinor };
  return { large: false, reason: null, dayTotalMinor };
}
