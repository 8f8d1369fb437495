/**
 * Hot and cold numbers for the display board: how often each face and each
 * total came up over the recent rounds. Fair dice (Art. 1.1) have no memory, so
 * this is information players expect on a Macau board, not a prediction.
 */
import type { Dice3 } from './roadmap.js';

export interface Count {
  readonly value: number;
  readonly count: number;
}

export interface HotCold {
  readonly rounds: number;
  /** Faces 1–6: how many dice showed each. */
  readonly faces: readonly Count[];
  /** Totals 3–18: rounds with that total. */
  readonly totals: readonly Count[];
  readonly hotFaces: readonly Count[];
  readonly coldFaces: readonly Count[];
  readonly hotTotals: readonly Count[];
  readonly coldTotals: readonly Count[];
}

/** Dice shown per face (a face shown on two dice counts twice, as a single-number bet sees it). */
export function faceCounts(rolls: readonly Dice3[]): Count[] {
  const counts = [0, 0, 0, 0, 0, 0];
  for (const dice of rolls) for (const f of dice) if (f >= 1 && f <= 6) counts[f - 1]!++;
  return counts.map((count, i) => ({ value: i + 1, count }));
}

export function totalCounts(rolls: readonly Dice3[]): Count[] {
  const counts = new Array<number>(16).fill(0);
  for (const [a, b, c] of rolls) {
    const total = a + b + c;
    if (total >= 3 && total <= 18) counts[total - 3]!++;
  }
  return counts.map((count, i) => ({ value: i + 3, count }));
}

/** The `n` most frequent (hot) or least frequent (cold); ties go to the smaller value. */
export function rank(counts: readonly Count[], n: number, order: 'hot' | 'cold'): Count[] {
  const sign = order === 'hot' ? -1 : 1;
  return [...counts].sort((x, y) => sign * (x.count - y.count) || x.value - y.value).slice(0, n);
}

/** Hot and cold over the last `window` rolls (oldest first in `rolls`). */
export function hotCold(rolls: readonly Dice3[], window: number, n = 3): HotCold {
  const recent = rolls.slice(Math.max(0, rolls.length - window));
  const faces = faceCounts(recent);
  // Totals 3 and 18 are triples only and cannot be bet on (Art. 5.6: 4 to 17); rank the bettable ones.
  const totals = totalCounts(recent);
  const bettable = totals.filter((c) => c.value >= 4 && c.value <= 17);
  const faceSplit = hotAndCold(faces, n);
  const totalSplit = hotAndCold(bettable, n);
  return {
    rounds: recent.length,
    faces,
    totals,
    hotFaces: faceSplit.hot,
    coldFaces: faceSplit.cold,
    hotTotals: totalSplit.hot,
    coldTotals: totalSplit.cold,
  };
}

/**
 * Hot: the most frequent among those that came up at all; cold: the least
 * frequent of the rest. Over a few rounds a number never seen is not "hot",
 * and no number is both.
 */
function hotAndCold(counts: readonly Count[], n: number): { hot: Count[]; cold: Count[] } {
  const hot = rank(
    counts.filter((c) => c.count > 0),
    n,
    'hot',
  );
  return {
    hot,
    cold: rank(
      counts.filter((c) => !hot.includes(c)),
      n,
      'cold',
    ),
  };
}
