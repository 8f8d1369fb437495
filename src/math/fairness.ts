/**
 * Fairness statistics over recorded or simulated rolls.
 *
 * Art. 1.1 asks for dice "with the same weight and perfectly balanced": every
 * face equally likely and, for three dice, every one of the 216 ordered
 * outcomes equally likely and independent of the roll before. These tests are
 * how a shaker (or a set of physical dice) is checked against that promise:
 *
 * - chi-square goodness of fit on the faces (6 cells, uniform), on the totals
 *   (16 cells, 3..18, expected ways/216) and on the 216 ordered outcomes;
 * - a Wald–Wolfowitz runs test on the totals above/below 10.5, the median of
 *   the fair total (no total equals it, so there are no ties to drop);
 * - the lag-1 serial correlation of the successive faces d1, d2, d3, d1', …,
 *   which sees dependence both within a roll and from one roll to the next.
 *
 * Each reports its statistic, degrees of freedom (chi-square only), p-value and
 * PASS when p >= 0.01 (the 99% level). With five tests a perfectly fair source
 * fails at least one about 4.9% of the time (1 − 0.99^5); a single failure is a
 * reason to test again on fresh rolls, not a verdict.
 *
 * Everything works from counts and running sums, so ten million rolls cost a
 * few kilobytes of state. Pure: no I/O, no clock, no randomness.
 */
import { type Dice, type Face, isDice, isFace, OUTCOME_COUNT, outcomeDice } from '../rules/dice.js';
import {
  chiSquareCriticalValue,
  chiSquareSurvival,
  erfc,
  noncentralChiSquareSurvival,
} from './special-functions.js';

/** A test passes when its p-value is at least this (the 99% level). */
export const SIGNIFICANCE = 0.01;

/** Ordered outcomes (of 216) giving each total 3..18; index = total − 3. */
export const TOTAL_WAYS: readonly number[] = [
  1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1,
];

// The median of the fair total is 10.5: totals 3..10 are "low", 11..18 "high", 108 ways each.
const HIGH_TOTAL_MIN = 11;
/**
 * Below this expected count per cell the chi-square approximation is not to be
 * trusted (Cochran's rule); the display board uses the same figure before it
 * calls a number hot or cold (web/src/logic/hot-cold.ts).
 */
export const EXPECTED_COUNT_MIN = 5;
// Below these the normal approximations of the runs and correlation tests are rough.
const NORMAL_SIDE_MIN = 10;
const NORMAL_VALUES_MIN = 60;
const FEW_FOR_NORMAL = 'too few rolls: the normal approximation is rough';

export type FairnessTestName =
  | 'faces chi-square'
  | 'totals chi-square'
  | 'outcomes chi-square'
  | 'runs above/below median total'
  | 'lag-1 serial correlation of faces';

export interface FairnessTestResult {
  readonly name: FairnessTestName;
  /** Chi-square value, or the standard normal z for the runs and correlation tests. */
  readonly statistic: number;
  /** Degrees of freedom of a chi-square test; null for the normal (z) tests. */
  readonly df: number | null;
  /** NaN when the test cannot be computed on so few rolls (and then it fails). */
  readonly pValue: number;
  readonly pass: boolean;
  /** Why the result deserves care (too few rolls), when it does. */
  readonly note?: string;
}

export interface FairnessReport {
  readonly rolls: number;
  readonly tests: readonly FairnessTestResult[];
  /** True when every test passes at the 99% level. */
  readonly pass: boolean;
}

/** Faces 1–6 laid out flat, three per roll (die one, two, three). */
export type FaceArray = Uint8Array | Int8Array;

/**
 * Running counts for the fairness tests. Feed it rolls one at a time with
 * {@link add} or in bulk with {@link addFaces}; read the tests with {@link report}.
 */
export class FairnessAccumulator {
  /** Rolls seen per ordered outcome, by outcomeIndex. Float64 so counts stay exact past 2^32. */
  private readonly outcomeCounts = new Float64Array(OUTCOME_COUNT);
  private rollCount = 0;
  // Runs test state: the side of 10.5 of the previous total (−1 before the first roll).
  private runCount = 0;
  private highCount = 0;
  private lastSide = -1;
  // Serial correlation over y = 2·face − 7 (odd, −5..5, mean 0 when fair): exact integer sums.
  private sumY = 0;
  private sumYSquared = 0;
  private sumYLagged = 0;
  private firstY = 0;
  private lastY = 0;
  private readonly scratch = new Uint8Array(3);

  get rolls(): number {
    return this.rollCount;
  }

  /** Adds one roll. Throws on anything but three faces 1–6 (Art. 1.1). */
  add(dice: Dice): void {
    if (!isDice(dice)) throw new RangeError(`not three faces 1–6: ${JSON.stringify(dice)}`);
    this.scratch[0] = dice[0];
    this.scratch[1] = dice[1];
    this.scratch[2] = dice[2];
    this.addFaces(this.scratch);
  }

  /**
   * Adds the rolls in `faces[start..end)`, three faces per roll. The hot loop of
   * a ten-million-roll test: plain arithmetic on locals, one typed-array write.
   */
  addFaces(faces: FaceArray, start = 0, end = faces.length): void {
    checkFaces(faces, start, end);
    const counts = this.outcomeCounts;
    let { runCount, highCount, lastSide, sumY, sumYSquared, sumYLagged, lastY } = this;
    if (this.rollCount === 0 && end > start) this.firstY = 2 * faces[start]! - 7;
    for (let i = start; i < end; i += 3) {
      const a = faces[i]!;
      const b = faces[i + 1]!;
      const c = faces[i + 2]!;
      counts[a * 36 + b * 6 + c - 43]! += 1;
      const side = a + b + c >= HIGH_TOTAL_MIN ? 1 : 0;
      if (side !== lastSide) runCount++;
      lastSide = side;
      highCount += side;
      const ya = 2 * a - 7;
      const yb = 2 * b - 7;
      const yc = 2 * c - 7;
      sumY += ya + yb + yc;
      sumYSquared += ya * ya + yb * yb + yc * yc;
      sumYLagged += lastY * ya + ya * yb + yb * yc;
      lastY = yc;
    }
    this.runCount = runCount;
    this.highCount = highCount;
    this.lastSide = lastSide;
    this.sumY = sumY;
    this.sumYSquared = sumYSquared;
    this.sumYLagged = sumYLagged;
    this.lastY = lastY;
    this.rollCount += (end - start) / 3;
  }

  /** A copy of the counts per ordered outcome (index = outcomeIndex). */
  outcomes(): Float64Array {
    return this.outcomeCounts.slice();
  }

  /** Runs every test on what has been added so far. */
  report(): FairnessReport {
    const tests = [
      facesChiSquare(this.outcomeCounts),
      totalsChiSquare(this.outcomeCounts),
      outcomesChiSquare(this.outcomeCounts),
      runsTest(this.runCount, this.highCount, this.rollCount - this.highCount),
      serialCorrelationTest(this.serialSums()),
    ];
    return { rolls: this.rollCount, tests, pass: tests.every((t) => t.pass) };
  }

  private serialSums(): SerialSums {
    return {
      count: 3 * this.rollCount,
      sum: this.sumY,
      sumSquared: this.sumYSquared,
      sumLagged: this.sumYLagged,
      first: this.firstY,
      last: this.lastY,
    };
  }
}

/** Checks a whole batch before counting any of it, so a bad face never leaves half-counted state. */
function checkFaces(faces: FaceArray, start: number, end: number): void {
  if (!(
    Number.isInteger(start) &&
    Number.isInteger(end) &&
    0 <= start &&
    start <= end &&
    end <= faces.length
  )) {
    throw new RangeError(`bad range ${start}..${end} of ${faces.length} faces`);
  }
  if ((end - start) % 3 !== 0)
    throw new RangeError('faces must come in threes (one roll = three dice)');
  for (let i = start; i < end; i++) {
    const face = faces[i]!;
    if (face < 1 || face > 6)
      throw new RangeError(`face ${face} at index ${i} is not 1–6 (Art. 1.1)`);
  }
}

/** Runs every test over a sequence of rolls, or over faces laid out flat (three per roll). */
export function fairnessReport(rolls: Iterable<Dice> | FaceArray): FairnessReport {
  const accumulator = new FairnessAccumulator();
  if (rolls instanceof Uint8Array || rolls instanceof Int8Array) accumulator.addFaces(rolls);
  else for (const dice of rolls) accumulator.add(dice);
  return accumulator.report();
}

/** Pearson's statistic Σ (observed − expected)² / expected. */
export function chiSquareStatistic(
  observed: ArrayLike<number>,
  expected: ArrayLike<number>,
): number {
  let statistic = 0;
  for (let i = 0; i < observed.length; i++) {
    const e = expected[i]!;
    const d = observed[i]! - e;
    statistic += (d * d) / e;
  }
  return statistic;
}

function verdict(pValue: number): boolean {
  return pValue >= SIGNIFICANCE;
}

function chiSquareResult(
  name: FairnessTestName,
  observed: ArrayLike<number>,
  expected: ArrayLike<number>,
): FairnessTestResult {
  const df = observed.length - 1;
  const total = Array.from(observed).reduce((s, x) => s + x, 0);
  if (total === 0) {
    return { name, statistic: Number.NaN, df, pValue: Number.NaN, pass: false, note: 'no rolls' };
  }
  const statistic = chiSquareStatistic(observed, expected);
  const pValue = chiSquareSurvival(statistic, df);
  const result = { name, statistic, df, pValue, pass: verdict(pValue) };
  return Math.min(...Array.from(expected)) < EXPECTED_COUNT_MIN
    ? { ...result, note: `too few rolls: expected count per cell below ${EXPECTED_COUNT_MIN}` }
    : result;
}

function facesChiSquare(outcomeCounts: Float64Array): FairnessTestResult {
  const observed = new Float64Array(6);
  let rolls = 0;
  outcomeCounts.forEach((count, index) => {
    for (const face of outcomeDice(index)) observed[face - 1]! += count;
    rolls += count;
  });
  return chiSquareResult('faces chi-square', observed, new Float64Array(6).fill((3 * rolls) / 6));
}

function totalsChiSquare(outcomeCounts: Float64Array): FairnessTestResult {
  const observed = new Float64Array(TOTAL_WAYS.length);
  let rolls = 0;
  outcomeCounts.forEach((count, index) => {
    const [a, b, c] = outcomeDice(index);
    observed[a + b + c - 3]! += count;
    rolls += count;
  });
  const expected = TOTAL_WAYS.map((ways) => (rolls * ways) / OUTCOME_COUNT);
  return chiSquareResult('totals chi-square', observed, expected);
}

function outcomesChiSquare(outcomeCounts: Float64Array): FairnessTestResult {
  const rolls = outcomeCounts.reduce((s, x) => s + x, 0);
  const expected = new Float64Array(OUTCOME_COUNT).fill(rolls / OUTCOME_COUNT);
  return chiSquareResult('outcomes chi-square', outcomeCounts, expected);
}

function twoSidedNormalP(z: number): number {
  return erfc(Math.abs(z) / Math.SQRT2);
}

function notEnoughData(name: FairnessTestName, why: string): FairnessTestResult {
  return { name, statistic: Number.NaN, df: null, pValue: Number.NaN, pass: false, note: why };
}

/**
 * Wald–Wolfowitz runs test, conditional on how many totals fell on each side:
 * too few runs means sticky sequences, too many means alternation.
 */
export function runsTest(runs: number, high: number, low: number): FairnessTestResult {
  const name = 'runs above/below median total';
  const n = high + low;
  if (high === 0 || low === 0 || n < 2) {
    return notEnoughData(name, 'needs totals on both sides of 10.5');
  }
  const product = 2 * high * low;
  const mean = product / n + 1;
  const variance = (product * (product - n)) / (n * n * (n - 1));
  if (!(variance > 0)) return notEnoughData(name, 'too few rolls for the runs test');
  const statistic = (runs - mean) / Math.sqrt(variance);
  const pValue = twoSidedNormalP(statistic);
  const result: FairnessTestResult = { name, statistic, df: null, pValue, pass: verdict(pValue) };
  return Math.min(high, low) < NORMAL_SIDE_MIN ? { ...result, note: FEW_FOR_NORMAL } : result;
}

/** Running sums over a sequence y₁..y_count for the lag-1 autocorrelation. */
export interface SerialSums {
  readonly count: number;
  readonly sum: number;
  readonly sumSquared: number;
  /** Σ y_k·y_{k+1} over adjacent pairs. */
  readonly sumLagged: number;
  readonly first: number;
  readonly last: number;
}

/**
 * Lag-1 autocorrelation r = Σ(y_k − ȳ)(y_{k+1} − ȳ) / Σ(y_k − ȳ)², expanded so
 * it needs only running sums. For independent values r is about normal with
 * mean −1/m and variance 1/m (m values), so z = (r + 1/m)·√m.
 */
export function serialCorrelationTest(s: SerialSums): FairnessTestResult {
  const name = 'lag-1 serial correlation of faces';
  const m = s.count;
  if (m < 3) return notEnoughData(name, 'too few rolls for the correlation test');
  const mean = s.sum / m;
  const numerator = s.sumLagged - mean * (2 * s.sum - s.first - s.last) + (m - 1) * mean * mean;
  const denominator = s.sumSquared - (s.sum * s.sum) / m;
  if (!(denominator > 0))
    return notEnoughData(name, 'every face is the same: no variation to correlate');
  const r = numerator / denominator;
  const statistic = (r + 1 / m) * Math.sqrt(m);
  const pValue = twoSidedNormalP(statistic);
  const result: FairnessTestResult = { name, statistic, df: null, pValue, pass: verdict(pValue) };
  return m < NORMAL_VALUES_MIN ? { ...result, note: FEW_FOR_NORMAL } : result;
}

export interface BiasDetectionOptions {
  /** Significance of the faces chi-square test; default 0.01 (the 99% level used here). */
  readonly significance?: number;
  /** Probability of detecting the bias when it is there; default 0.9. */
  readonly power?: number;
  /** How many of the three dice carry the bias; default 3. */
  readonly loadedDice?: 1 | 2 | 3;
}

export interface BiasDetectionEstimate {
  /** Rolls (of three dice) needed; Infinity when the distribution is fair. */
  readonly rolls: number;
  /** Cohen's w² = Σ (q − 1/6)² / (1/6) for the pooled face distribution q. */
  readonly effectSizeSquared: number;
  /** Noncentrality λ at which the test reaches the requested power. */
  readonly noncentrality: number;
  /** Critical value of χ²(5) at the requested significance. */
  readonly criticalValue: number;
}

function checkProbabilities(p: readonly number[]): void {
  const sum = p.reduce((s, x) => s + x, 0);
  if (p.length !== 6 || p.some((x) => !(x >= 0 && x <= 1)) || Math.abs(sum - 1) > 1e-9) {
    throw new RangeError('face probabilities must be six numbers in [0, 1] summing to 1');
  }
}

/** The λ at which P(χ'²(df, λ) > critical) reaches `power`, by bisection (the tail grows with λ). */
function noncentralityForPower(critical: number, df: number, power: number): number {
  let low = 0;
  let high = 1;
  while (noncentralChiSquareSurvival(critical, df, high) < power) high *= 2;
  for (let i = 0; i < 100 && high - low > 1e-9 * high; i++) {
    const mid = (low + high) / 2;
    if (noncentralChiSquareSurvival(critical, df, mid) < power) low = mid;
    else high = mid;
  }
  return high;
}

/**
 * How many rolls the faces chi-square test needs to detect dice whose faces
 * follow `faceProbabilities` (die faces 1..6) instead of 1/6 each, at the given
 * significance and power. Uses the noncentral chi-square: with N faces counted,
 * the statistic is approximately χ'²(5, λ = N·w²). A roll counts three faces;
 * with only some dice loaded the pooled distribution is the mixture. Treating
 * the pooled faces as multinomial slightly overstates their variance, so the
 * estimate errs on the side of more rolls.
 */
export function rollsToDetectBias(
  faceProbabilities: readonly number[],
  options: BiasDetectionOptions = {},
): BiasDetectionEstimate {
  checkProbabilities(faceProbabilities);
  const { significance = SIGNIFICANCE, power = 0.9, loadedDice = 3 } = options;
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1), got ${power}`);
  const criticalValue = chiSquareCriticalValue(significance, 5);
  const pooled = faceProbabilities.map((p) => (loadedDice * p + (3 - loadedDice) / 6) / 3);
  const effectSizeSquared = pooled.reduce((s, q) => s + 6 * (q - 1 / 6) ** 2, 0);
  if (effectSizeSquared < 1e-15) {
    return { rolls: Infinity, effectSizeSquared, noncentrality: Infinity, criticalValue };
  }
  const noncentrality = noncentralityForPower(criticalValue, 5, power);
  const rolls = Math.ceil(noncentrality / (3 * effectSizeSquared));
  return { rolls, effectSizeSquared, noncentrality, criticalValue };
}

/** {@link rollsToDetectBias} for one face with probability `probability`, the other five sharing the rest. */
export function rollsToDetectLoadedFace(
  face: Face,
  probability: number,
  options: BiasDetectionOptions = {},
): BiasDetectionEstimate {
  if (!isFace(face)) throw new RangeError(`face must be 1–6, got ${String(face)}`);
  if (!(probability >= 0 && probability <= 1))
    throw new RangeError(`probability must be in [0, 1]`);
  const others = (1 - probability) / 5;
  const p = [1, 2, 3, 4, 5, 6].map((f) => (f === face ? probability : others));
  return rollsToDetectBias(p, options);
}
