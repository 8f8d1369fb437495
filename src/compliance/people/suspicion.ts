/**
 * Signs of a suspicious transaction, for a report to the GIF (Instrução 1/2016).
 *
 * The Instrução asks the operator to report suspicious transactions to the
 * Gabinete de Informação Financeira whatever their amount, under internal
 * rules the operator sets from its risk assessment. These are two such rules,
 * with their figures in {@link SUSPICION_RULES}; a flag raises a case for a
 * compliance officer to review, it does not refuse the move or file a report.
 *
 * - `structuring`: deposits just under the large-cash threshold, so that none
 *   is identified as large — two or more deposits within 24 hours, each at
 *   least 80% of the threshold and below it. The flag is raised on every such
 *   deposit that has at least one other such deposit in the 24 hours before it
 *   (the second, and each later one while the pattern goes on).
 * - `cash-in-out-little-play`: chips bought and cashed out with little play,
 *   the classic way to make cash look like winnings — a withdrawal of at least
 *   50% of the player's deposits of the 24 hours before it, when the player
 *   staked less than 20% of those deposits since the first of them, and those
 *   deposits total at least 10% of the threshold (below that it is not worth
 *   a review).
 *
 * "Within 24 hours" includes a move exactly 24 hours before; moves of the
 * history after the move judged are ignored. Percentages compare in integers
 * (`a * 100 >= b * p`), never in floating point.
 */

/** 24 hours, in milliseconds. */
export const SUSPICION_WINDOW_MS = 24 * 60 * 60 * 1000;

export const SUSPICION_RULES = {
  structuring: {
    windowMs: SUSPICION_WINDOW_MS,
    /** Deposits in the window, this one included, for the pattern. */
    depositsMin: 2,
    /** Each deposit is at least this share of the threshold, and below the threshold. */
    depositPercentOfThresholdMin: 80,
  },
  'cash-in-out-little-play': {
    windowMs: SUSPICION_WINDOW_MS,
    /** The withdrawal is at least this share of the window's deposits. */
    withdrawalPercentOfDepositsMin: 50,
    /** Stakes since the first deposit are below this share of the deposits. */
    stakePercentOfDepositsBelow: 20,
    /** The deposits total at least this share of the threshold. */
    depositsPercentOfThresholdMin: 10,
  },
} as const;

export type SuspicionRule = keyof typeof SUSPICION_RULES;

export interface Move {
  readonly atMs: number;
  readonly kind: 'deposit' | 'withdrawal' | 'stake';
  readonly amountMinor: number;
}

export interface Suspicion {
  readonly rule: SuspicionRule;
  readonly message: string;
  readonly details: Record<string, number>;
}

/** a >= p% of b, in integers. */
function atLeastPercent(a: number, b: number, percent: number): boolean {
  return a * 100 >= b * percent;
}

function sum(moves: readonly Move[]): number {
  return moves.reduce((total, m) => total + m.amountMinor, 0);
}

/** The history's moves within the window before `move` (not after it). */
function windowBefore(move: Move, history: readonly Move[], windowMs: number): Move[] {
  return history.filter((m) => m.atMs <= move.atMs && move.atMs - m.atMs <= windowMs);
}

function structuring(move: Move, history: readonly Move[], thresholdMinor: number): Suspicion[] {
  const rule = SUSPICION_RULES.structuring;
  const nearThreshold = (m: Move) =>
    m.kind === 'deposit' &&
    m.amountMinor < thresholdMinor &&
    atLeastPercent(m.amountMinor, thresholdMinor, rule.depositPercentOfThresholdMin);
  if (!nearThreshold(move)) return [];
  const others = windowBefore(move, history, rule.windowMs).filter(nearThreshold);
  const deposits = others.length + 1;
  if (deposits < rule.depositsMin) return [];
  const totalMinor = sum(others) + move.amountMinor;
  return [
    {
      rule: 'structuring',
      message: `${deposits} deposits within 24 hours each between ${rule.depositPercentOfThresholdMin}% of the large-cash threshold and the threshold, ${totalMinor} in all: possible structuring, review for a report to the GIF (Instrução 1/2016).`,
      details: { deposits, totalMinor, thresholdMinor },
    },
  ];
}

function cashInOut(move: Move, history: readonly Move[], thresholdMinor: number): Suspicion[] {
  const rule = SUSPICION_RULES['cash-in-out-little-play'];
  if (move.kind !== 'withdrawal') return [];
  const recent = windowBefore(move, history, rule.windowMs);
  const deposits = recent.filter((m) => m.kind === 'deposit');
  const depositsMinor = sum(deposits);
  if (!atLeastPercent(depositsMinor, thresholdMinor, rule.depositsPercentOfThresholdMin)) return [];
  if (!atLeastPercent(move.amountMinor, depositsMinor, rule.withdrawalPercentOfDepositsMin))
    return [];
  const firstDepositMs = Math.min(...deposits.map((m) => m.atMs));
  const stakedMinor = sum(recent.filter((m) => m.kind === 'stake' && m.atMs >= firstDepositMs));
  if (atLeastPercent(stakedMinor, depositsMinor, rule.stakePercentOfDepositsBelow)) return [];
  return [
    {
      rule: 'cash-in-out-little-play',
      message: `A withdrawal of ${move.amountMinor} after deposits of ${depositsMinor} in 24 hours with only ${stakedMinor} staked (under ${rule.stakePercentOfDepositsBelow}%): review for a report to the GIF (Instrução 1/2016).`,
      details: { withdrawalMinor: move.amountMinor, depositsMinor, stakedMinor, thresholdMinor },
    },
  ];
}

/**
 * Instrução 1/2016: the suspicion rules `move` triggers, given the player's
 * moves of the 24 hours before it (`history`, in any order).
 */
export function suspicionsOf(
  move: Move,
  history: readonly Move[],
  thresholdMinor: number,
): Suspicion[] {
  if (!Number.isSafeInteger(thresholdMinor) || thresholdMinor <= 0) {
    throw new RangeError(`thresholdMinor must be a positive integer: ${thresholdMinor}`);
  }
  return [
    ...structuring(move, history, thresholdMinor),
    ...cashInOut(move, history, thresholdMinor),
  ];
}
