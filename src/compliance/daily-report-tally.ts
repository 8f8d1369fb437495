/** The figures of a daily report, and the running tallies they come from. */
import { OUTCOME_COUNT } from '../rules/index.js';
import type { IsoDate } from './iso-date.js';

export interface BiggestWin {
  readonly roundId: string;
  readonly settledAtMs: number;
  readonly betId: string | null;
  readonly spot: string;
  readonly stakeMinor: number;
  readonly returnedMinor: number;
  /** returned − stake: what the player won on top of the stake. */
  readonly winMinor: number;
}

export interface SpotFigures {
  readonly spot: string;
  readonly bets: number;
  readonly handleMinor: number;
  readonly payoutsMinor: number;
  readonly holdMinor: number;
  /** 100 · hold / handle; null when nothing was staked. */
  readonly holdPercentActual: number | null;
  /** 100 · Σ(stake × exact house edge) / handle; null when nothing was staked. */
  readonly holdPercentTheoretical: number | null;
}

export interface DailyReport {
  readonly tableId: string;
  /** The Macau calendar day the rounds were settled on. */
  readonly macauDay: IsoDate;
  readonly currency: string;
  readonly rounds: number;
  /** Void rolls declared in those rounds (Art. 3.3). */
  readonly voidRolls: number;
  readonly bets: number;
  /** Σ stakes. */
  readonly handleMinor: number;
  /** Σ returned to players, stakes of winning bets included. */
  readonly payoutsMinor: number;
  /** handle − payouts. */
  readonly holdMinor: number;
  readonly holdPercentActual: number | null;
  readonly holdPercentTheoretical: number | null;
  /** The bet with the largest win, the earliest on a tie; null when nothing won. */
  readonly biggestWin: BiggestWin | null;
  /** Figures per spot staked on, in the regulation's order. */
  readonly bySpot: readonly SpotFigures[];
}

export interface SpotTally {
  bets: number;
  handleMinor: number;
  payoutsMinor: number;
  /** Σ stake × (216 − returnSum): the theoretical hold × 216, exact in integers. */
  edgeWeighted: number;
}

export const newTally = (): SpotTally => ({
  bets: 0,
  handleMinor: 0,
  payoutsMinor: 0,
  edgeWeighted: 0,
});

function checkSafe(value: number, what: string): number {
  // Past 2^53 integer sums stop being exact; a day's handle never gets near, so this is a bug.
  if (!Number.isSafeInteger(value)) throw new RangeError(`daily report: ${what} overflows`);
  return value;
}

export function tallyBet(
  tally: SpotTally,
  bet: { readonly stakeMinor: number; readonly returnedMinor: number },
  edgeUnits: number,
): void {
  tally.bets++;
  tally.handleMinor = checkSafe(tally.handleMinor + bet.stakeMinor, 'handle');
  tally.payoutsMinor = checkSafe(tally.payoutsMinor + bet.returnedMinor, 'payouts');
  tally.edgeWeighted = checkSafe(tally.edgeWeighted + bet.stakeMinor * edgeUnits, 'edge');
}

export function toSpotFigures(spot: string, t: SpotTally): SpotFigures {
  const holdMinor = t.handleMinor - t.payoutsMinor;
  const staked = t.handleMinor > 0;
  return {
    spot,
    bets: t.bets,
    handleMinor: t.handleMinor,
    payoutsMinor: t.payoutsMinor,
    holdMinor,
    holdPercentActual: staked ? (100 * holdMinor) / t.handleMinor : null,
    holdPercentTheoretical: staked
      ? (100 * t.edgeWeighted) / (OUTCOME_COUNT * t.handleMinor)
      : null,
  };
}
