/**
 * Face and total counts over a span of rolls, and their chi-square tests.
 *
 * The monitor adds and removes rolls one at a time (a sliding window), which
 * the FairnessAccumulator of src/math cannot do, so the counts live here; the
 * statistic is Pearson's, summed as `chiSquareStatistic` of src/math sums it,
 * and its p-value comes from src/math (`chiSquareSurvival`, `TOTAL_WAYS`), so
 * that the monitor and `cussec rng-test` compute them the same way.
 */
import { chiSquareCriticalValue, chiSquareSurvival, TOTAL_WAYS } from '../math/index.js';
import { OUTCOME_COUNT } from '../rules/index.js';

export type FairnessTest = 'faces' | 'totals';

export interface SpanTestResult {
  readonly test: FairnessTest;
  readonly statistic: number | null;
  readonly df: number;
  /** Null when the span is too short for the chi-square approximation. */
  readonly pValue: number | null;
  readonly note?: string;
}

/** Below this expected count per cell the chi-square p-value is not trusted (as in src/math). */
export const EXPECTED_COUNT_MIN = 5;

/** Rolls a test needs before it runs: faces 3N/6 ≥ 5, totals N·1/216 ≥ 5. */
export const ROLLS_MIN: Readonly<Record<FairnessTest, number>> = {
  faces: Math.ceil((EXPECTED_COUNT_MIN * 6) / 3),
  totals: Math.ceil((EXPECTED_COUNT_MIN * OUTCOME_COUNT) / Math.min(...TOTAL_WAYS)),
};

/** Local copies: read after every roll, and a module's bindings may be getters once bundled. */
const WAYS: readonly number[] = [...TOTAL_WAYS];
const OUTCOMES = OUTCOME_COUNT;

/** Die faces (0-based) of each outcome index, three per outcome; and the total − 3. */
const OUTCOME_FACES = new Uint8Array(OUTCOME_COUNT * 3);
const OUTCOME_TOTAL = new Uint8Array(OUTCOME_COUNT);
for (let o = 0; o < OUTCOME_COUNT; o++) {
  const [a, b, c] = [Math.floor(o / 36), Math.floor(o / 6) % 6, o % 6];
  OUTCOME_FACES.set([a, b, c], o * 3);
  OUTCOME_TOTAL[o] = a + b + c;
}

export class SpanCounts {
  readonly faces: number[] = [0, 0, 0, 0, 0, 0];
  readonly totals: number[] = new Array<number>(TOTAL_WAYS.length).fill(0);
  rolls = 0;

  /** Adds (sign +1) or removes (−1) one roll, given as its outcome index 0..215. */
  update(outcome: number, sign: 1 | -1): void {
    const i = outcome * 3;
    this.faces[OUTCOME_FACES[i]!]! += sign;
    this.faces[OUTCOME_FACES[i + 1]!]! += sign;
    this.faces[OUTCOME_FACES[i + 2]!]! += sign;
    this.totals[OUTCOME_TOTAL[outcome]!]! += sign;
    this.rolls += sign;
  }

  reset(): void {
    this.faces.fill(0);
    this.totals.fill(0);
    this.rolls = 0;
  }

  /** Restores counts saved with a snapshot, after checking they add up. */
  load(faces: readonly number[], totals: readonly number[], rolls: number): void {
    const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);
    const valid = (xs: readonly number[], n: number): boolean =>
      xs.length === n && xs.every((x) => Number.isSafeInteger(x) && x >= 0);
    if (
      !valid(faces, 6) ||
      !valid(totals, TOTAL_WAYS.length) ||
      sum(faces) !== 3 * rolls ||
      sum(totals) !== rolls
    ) {
      throw new RangeError('fairness monitor: saved counts do not add up');
    }
    this.faces.splice(0, 6, ...faces);
    this.totals.splice(0, this.totals.length, ...totals);
    this.rolls = rolls;
  }

  /** Null when the span is too short for the chi-square approximation. */
  statistic(test: FairnessTest): number | null {
    if (this.rolls < ROLLS_MIN[test]) return null;
    // Pearson's Σ (observed − expected)² / expected, as chiSquareStatistic of src/math sums it,
    // without building the expected counts: the monitor asks after every roll.
    let statistic = 0;
    if (test === 'faces') {
      const e = (3 * this.rolls) / 6;
      for (const o of this.faces) statistic += ((o - e) * (o - e)) / e;
    } else {
      for (let i = 0; i < WAYS.length; i++) {
        const e = (this.rolls * WAYS[i]!) / OUTCOMES;
        const d = this.totals[i]! - e;
        statistic += (d * d) / e;
      }
    }
    return statistic;
  }

  test(test: FairnessTest): SpanTestResult {
    const df = DEGREES_OF_FREEDOM[test];
    const statistic = this.statistic(test);
    if (statistic === null) {
      const note = `too few rolls: ${this.rolls} of the ${ROLLS_MIN[test]} needed`;
      return { test, statistic: null, df, pValue: null, note };
    }
    return { test, statistic, df, pValue: chiSquareSurvival(statistic, df) };
  }
}

export const DEGREES_OF_FREEDOM: Readonly<Record<FairnessTest, number>> = {
  faces: 5,
  totals: TOTAL_WAYS.length - 1,
};

/** Critical values by degrees of freedom, then level: computed once each. */
const criticalValues = new Map<number, Map<number, number>>();

function criticalValue(pValue: number, df: number): number {
  let byLevel = criticalValues.get(df);
  if (byLevel === undefined) criticalValues.set(df, (byLevel = new Map<number, number>()));
  let critical = byLevel.get(pValue);
  if (critical === undefined) byLevel.set(pValue, (critical = chiSquareCriticalValue(pValue, df)));
  return critical;
}

/**
 * Whether a test's statistic has a p-value under `pValue`. It is compared
 * with the test's critical value at that level (computed once): the tail
 * itself is computed only within a hair of it, so a check after every roll
 * costs a comparison. The hair (a millionth, far wider than the bisection's
 * 1e-12 in chiSquareCriticalValue) keeps the answer exactly that of
 * comparing the computed p-value.
 */
export function pValueIsUnder(statistic: number, test: FairnessTest, pValue: number): boolean {
  const df = DEGREES_OF_FREEDOM[test];
  const critical = criticalValue(pValue, df);
  if (statistic < critical * (1 - HAIR)) return false;
  if (statistic > critical * (1 + HAIR)) return true;
  return chiSquareSurvival(statistic, df) < pValue;
}

const HAIR = 1e-6;
