/**
 * Hot and cold numbers for the display board: how often each face and each
 * total came up over the recent rounds, against how often fair dice (Art. 1.1)
 * would show it. Fair dice have no memory, so this is information players
 * expect on a Macau board, not a prediction; it must not claim more than the
 * counts say. Two rules keep it honest:
 *
 * - A number is compared with its own expectation, not with the others: over
 *   100 rounds a total of 4 (3 ways in 216) is expected 1.4 times and a total
 *   of 10 (27 ways) 12.5 times, so ranking raw counts would call 4 and 17
 *   "cold" for being rare. Each number's distance from its expectation is
 *   measured in standard deviations of its binomial count (z), hot above,
 *   cold below.
 * - A number is named hot or cold only once the rounds counted make it
 *   expected at least EXPECTED_COUNT_MIN (5) times: the rule under which the
 *   fairness tests trust a chi-square cell (src/math/fairness.ts). Below that,
 *   none (or one) is the likeliest count, and calling it "cold" would say
 *   nothing. So faces are named from 10 rounds (three dice a round, each face
 *   1/6), the likeliest totals 10 and 11 (27/216) from 40 rounds, and over the
 *   100 rounds the board keeps, totals 7 to 14; the rarer totals are counted
 *   but never named.
 */
import { EXPECTED_COUNT_MIN, TOTAL_WAYS } from '../../../src/math/fairness.js';
import type { Dice3 } from './roadmap.js';

export interface Count {
  readonly value: number;
  readonly count: number;
  /** What fair dice would show over the same rounds. */
  readonly expected: number;
}

export interface HotCold {
  readonly rounds: number;
  /** Faces 1–6: how many dice showed each. */
  readonly faces: readonly Count[];
  /** Totals 4–17, the ones a player can bet on (Art. 5.6): rounds with that total. */
  readonly totals: readonly Count[];
  readonly hotFaces: readonly Count[];
  readonly coldFaces: readonly Count[];
  readonly hotTotals: readonly Count[];
  readonly coldTotals: readonly Count[];
  /** The rounds after which faces, and the likeliest totals, may be named hot or cold. */
  readonly facesFromRounds: number;
  readonly totalsFromRounds: number;
}

const DICE_PER_ROUND = 3;
const FACE_P = 1 / 6;
const OUTCOMES = 216;
const totalP = (total: number): number => TOTAL_WAYS[total - 3]! / OUTCOMES;

/** The rounds after which something of chance `p` per trial, `trials` a round, is expected 5 times. */
export const roundsToName = (p: number, trialsPerRound: number): number =>
  Math.ceil(EXPECTED_COUNT_MIN / (p * trialsPerRound) - 1e-9);

/** Dice shown per face (a face shown on two dice counts twice, as a single-number bet sees it). */
export function faceCounts(rolls: readonly Dice3[]): Count[] {
  const counts = [0, 0, 0, 0, 0, 0];
  for (const dice of rolls) for (const f of dice) if (f >= 1 && f <= 6) counts[f - 1]!++;
  const expected = rolls.length * DICE_PER_ROUND * FACE_P;
  return counts.map((count, i) => ({ value: i + 1, count, expected }));
}

/** Rounds with each total a player can bet on, 4 to 17 (3 and 18 are triples only). */
export function totalCounts(rolls: readonly Dice3[]): Count[] {
  const counts = new Array<number>(14).fill(0);
  for (const [a, b, c] of rolls) {
    const total = a + b + c;
    if (total >= 4 && total <= 17) counts[total - 4]!++;
  }
  return counts.map((count, i) => ({
    value: i + 4,
    count,
    expected: rolls.length * totalP(i + 4),
  }));
}

/**
 * The `n` hottest (furthest above their expectation) or coldest (furthest
 * below), among the counts expected at least EXPECTED_COUNT_MIN times; ties go
 * to the smaller value. `trials` is how many draws the counts are out of
 * (dice for faces, rounds for totals), for the standard deviation.
 */
export function rank(
  counts: readonly Count[],
  trials: number,
  n: number,
  order: 'hot' | 'cold',
): Count[] {
  const z = (c: Count): number => {
    const p = c.expected / trials;
    return (c.count - c.expected) / Math.sqrt(trials * p * (1 - p));
  };
  const sign = order === 'hot' ? 1 : -1;
  return counts
    .filter((c) => c.expected >= EXPECTED_COUNT_MIN && sign * (c.count - c.expected) > 0)
    .map((c) => ({ c, z: z(c) }))
    .sort((x, y) => sign * (y.z - x.z) || x.c.value - y.c.value)
    .slice(0, n)
    .map((x) => x.c);
}

/** Hot and cold over the last `window` rolls (oldest first in `rolls`). */
export function hotCold(rolls: readonly Dice3[], window: number, n = 3): HotCold {
  const recent = rolls.slice(Math.max(0, rolls.length - window));
  const faces = faceCounts(recent);
  const totals = totalCounts(recent);
  const dice = recent.length * DICE_PER_ROUND;
  return {
    rounds: recent.length,
    faces,
    totals,
    hotFaces: rank(faces, dice, n, 'hot'),
    coldFaces: rank(faces, dice, n, 'cold'),
    hotTotals: rank(totals, recent.length, n, 'hot'),
    coldTotals: rank(totals, recent.length, n, 'cold'),
    facesFromRounds: roundsToName(FACE_P, DICE_PER_ROUND),
    totalsFromRounds: roundsToName(Math.max(...TOTAL_WAYS) / OUTCOMES, 1),
  };
}
