/**
 * Exact odds of each spot under a paytable.
 *
 * The 216 ordered outcomes of three fair dice (Art. 1.1) are equally likely, so
 * every figure here is a count over them: ways to win, the sum of what a unit
 * stake returns, and the sum of the squared net result. The integers are kept
 * alongside the fractions so that nothing is rounded before it is printed.
 */
import {
  type CompiledPaytable,
  OUTCOME_COUNT,
  type Spot,
  SPOT_COUNT,
  spotById,
} from '../rules/index.js';

export interface SpotOdds {
  readonly spot: Spot;
  /** Outcomes out of 216 on which the spot wins. */
  readonly ways: number;
  readonly probability: number;
  /** The odds (N to 1) the spot can pay, ascending: [1, 2, 3] for a single number. */
  readonly pays: readonly number[];
  /** Σ over the 216 outcomes of what a unit stake returns (stake included): rtp = returnSum / 216. */
  readonly returnSum: number;
  /** Expected return per unit staked, stake included (fraction of one). */
  readonly rtp: number;
  /** 1 − rtp: the house's expected gain per unit staked. */
  readonly houseEdge: number;
  /** Standard deviation of the net result (win, or −1 on a loss) per unit staked. */
  readonly stdDev: number;
}

/** Exact odds of one spot; the figures do not depend on whether the layout offers it. */
export function spotOdds(table: CompiledPaytable, spot: Spot): SpotOdds {
  let ways = 0;
  let returnSum = 0;
  let netSquaredSum = 0;
  const pays = new Set<number>();
  for (let o = 0; o < OUTCOME_COUNT; o++) {
    const multiplier = table.returnMultipliers[o * SPOT_COUNT + spot.index]!;
    const net = multiplier - 1;
    if (multiplier > 0) {
      ways++;
      pays.add(net);
    }
    returnSum += multiplier;
    netSquaredSum += net * net;
  }
  // Var = E[net²] − E[net]²; with integers: (216·Σnet² − (Σnet)²) / 216².
  const netSum = returnSum - OUTCOME_COUNT;
  const variance216Squared = OUTCOME_COUNT * netSquaredSum - netSum * netSum;
  return {
    spot,
    ways,
    probability: ways / OUTCOME_COUNT,
    pays: [...pays].sort((a, b) => a - b),
    returnSum,
    rtp: returnSum / OUTCOME_COUNT,
    houseEdge: (OUTCOME_COUNT - returnSum) / OUTCOME_COUNT,
    stdDev: Math.sqrt(variance216Squared) / OUTCOME_COUNT,
  };
}

/** The odds of every spot the paytable offers, in the layout's order. */
export function oddsReport(table: CompiledPaytable): SpotOdds[] {
  return table.paytable.spots.map((id) => spotOdds(table, spotById(id)!));
}

/** "35/36" for 210/216: an exact fraction in lowest terms. */
export function fraction(numerator: number, denominator: number): string {
  const gcd = (a: number, b: number): number => (b === 0 ? Math.abs(a) : gcd(b, a % b));
  const g = gcd(numerator, denominator) || 1;
  return `${numerator / g}/${denominator / g}`;
}
