import { describe, expect, it } from 'vitest';
import { FaceSampler } from '../dice/face-sampler.js';
import { seededDiceSource } from '../dice/dice-source.js';
import { Xoshiro128StarStar } from '../dice/random-source.js';
import { type Dice, OUTCOMES } from '../rules/dice.js';
import {
  FairnessAccumulator,
  fairnessReport,
  type FairnessReport,
  rollsToDetectBias,
  rollsToDetectLoadedFace,
  runsTest,
  TOTAL_WAYS,
} from './fairness.js';
import {
  chiSquareCriticalValue,
  chiSquareSurvival,
  erfc,
  gammaP,
  gammaQ,
  logGamma,
  noncentralChiSquareSurvival,
  normalSurvival,
} from './special-functions.js';

function expectRelative(actual: number, expected: number, tolerance = 1e-10): void {
  expect(Math.abs(actual - expected) / Math.abs(expected)).toBeLessThan(tolerance);
}

describe('special functions', () => {
  // Reference values from mpmath at 40 digits (gammainc, erfc) and scipy (chi2.isf, ncx2.sf).
  it.each([
    [5, 15.086, 0.010001124762185856],
    [15, 30.578, 0.009999737558159147],
    [215, 265.0, 0.011370994111899655],
    [215, 215.0, 0.4871735475385162],
    [215, 300.0, 0.00011290102831939216],
    [215, 150.0, 0.9997570330248439],
    [5, 1.0, 0.9625657732472964],
    [15, 5.0, 0.992126411344519],
    [1, 0.001, 0.9747728793699604],
    [100, 300, 7.412100857322876e-22],
    [215, 500, 9.384575976649714e-25],
  ])('chi-square(df=%d) upper tail at %d', (df, x, p) => {
    expectRelative(chiSquareSurvival(x, df), p);
  });

  it.each([
    [5, 15.086272469388991],
    [15, 30.577914166892494],
    [215, 266.1592458797955],
  ])('critical value of chi-square(df=%d) at 1%% is %d', (df, critical) => {
    expectRelative(chiSquareCriticalValue(0.01, df), critical, 1e-9);
    expectRelative(chiSquareSurvival(critical, df), 0.01);
  });

  it('agrees with the closed form for even degrees of freedom', () => {
    for (let k = 1; k <= 40; k++) {
      for (const x of [0.1, 1, 5, 20, 60, 150, 300]) {
        let term = 1;
        let sum = 0;
        for (let j = 0; j < k; j++) {
          sum += term;
          term *= x / 2 / (j + 1);
        }
        expectRelative(chiSquareSurvival(x, 2 * k), Math.exp(-x / 2) * sum, 1e-11);
      }
    }
  });

  it.each([
    [0.5, 0.4795001221869535],
    [1, 0.15729920705028513],
    [2, 0.004677734981047266],
    [3, 2.209049699858544e-5],
    [5, 1.537459794428035e-12],
    [8, 1.1224297172982926e-29],
  ])('erfc(%d)', (x, value) => {
    expectRelative(erfc(x), value);
    expectRelative(erfc(-x), 2 - value, 1e-14);
  });

  it('has P + Q = 1, Γ(n) = (n−1)!, and the normal tail at 1.96', () => {
    for (const [a, x] of [
      [0.5, 0.2],
      [3, 2],
      [50, 60],
      [107.5, 100],
    ] as const) {
      expect(gammaP(a, x) + gammaQ(a, x)).toBeCloseTo(1, 14);
    }
    expectRelative(Math.exp(logGamma(10)), 362880, 1e-13);
    expectRelative(Math.exp(logGamma(0.5)), Math.sqrt(Math.PI), 1e-13);
    expectRelative(normalSurvival(1.959963984540054), 0.025, 1e-12);
  });

  it.each([
    [15.086272469388991, 5, 20, 0.858210714741655],
    [30, 15, 12.5, 0.35606074904799734],
    [266.16, 215, 80, 0.8549376138389805],
    [1100, 3, 1000, 0.06519176736085718],
  ])('noncentral chi-square tail at %d (df=%d, λ=%d)', (x, df, lambda, p) => {
    expectRelative(noncentralChiSquareSurvival(x, df, lambda), p, 1e-9);
  });

  it('noncentral chi-square with one df is a shifted normal squared', () => {
    const c = Math.sqrt(3.841458820694124);
    for (const lambda of [0.5, 4, 7.849, 30]) {
      const expected =
        normalSurvival(c - Math.sqrt(lambda)) + normalSurvival(c + Math.sqrt(lambda));
      expectRelative(noncentralChiSquareSurvival(c * c, 1, lambda), expected, 1e-10);
    }
  });
});

/** Faces from a seeded sampler, with face 5 forced on a quarter of the draws: P(5) = 0.375. */
function loadedFaces(seed: string, rolls: number): Uint8Array {
  const random = new Xoshiro128StarStar(seed);
  const sampler = new FaceSampler(random);
  const coin = new Uint8Array(1);
  const faces = new Uint8Array(3 * rolls);
  for (let i = 0; i < faces.length; i++) {
    random.fill(coin);
    faces[i] = coin[0]! < 64 ? 5 : sampler.next();
  }
  return faces;
}

function seededFaces(seed: string, rolls: number): Uint8Array {
  const faces = new Uint8Array(3 * rolls);
  seededDiceSource(seed).fillFaces(faces);
  return faces;
}

function byName(report: FairnessReport, name: string): boolean {
  const test = report.tests.find((t) => t.name === name);
  if (test === undefined) throw new Error(`no test ${name}`);
  return test.pass;
}

describe('fairness tests', () => {
  it('know the totals: 216 ways from 3 to 18', () => {
    expect(TOTAL_WAYS.reduce((s, w) => s + w, 0)).toBe(216);
    expect(TOTAL_WAYS).toHaveLength(16);
  });

  it('give statistic 0 and p = 1 when every outcome shows exactly once', () => {
    const report = fairnessReport(OUTCOMES);
    for (const name of ['faces chi-square', 'totals chi-square', 'outcomes chi-square']) {
      const test = report.tests.find((t) => t.name === name)!;
      expect(test.statistic).toBeCloseTo(0, 12);
      expect(test.pValue).toBe(1);
    }
    expect(report.tests.map((t) => t.df)).toEqual([5, 15, 215, null, null]);
  });

  it('pass on a fair seeded source (60,000 rolls)', () => {
    const report = fairnessReport(seededFaces('fairness-fixture', 60_000));
    expect(report.rolls).toBe(60_000);
    expect(report.tests.map((t) => [t.name, t.pass])).toEqual(
      report.tests.map((t) => [t.name, true]),
    );
    expect(report.pass).toBe(true);
  });

  it('fail on dice loaded towards 5 (60,000 rolls)', () => {
    const report = fairnessReport(loadedFaces('loaded-fixture', 60_000));
    expect(report.pass).toBe(false);
    for (const name of ['faces chi-square', 'totals chi-square', 'outcomes chi-square']) {
      expect(byName(report, name)).toBe(false);
    }
  });

  it('see a shaker that shows each roll twice in the runs test', () => {
    const once = seededFaces('sticky', 30_000);
    const twice = new Uint8Array(2 * once.length);
    for (let r = 0; r < 30_000; r++) {
      twice.set(once.subarray(3 * r, 3 * r + 3), 6 * r);
      twice.set(once.subarray(3 * r, 3 * r + 3), 6 * r + 3);
    }
    const report = fairnessReport(twice);
    expect(byName(report, 'runs above/below median total')).toBe(false);
    const runs = report.tests.find((t) => t.name === 'runs above/below median total')!;
    expect(runs.statistic).toBeLessThan(-10); // far too few runs
  });

  it('see faces that repeat the previous face in the serial correlation', () => {
    const faces = seededFaces('echo', 60_000);
    const coin = new Uint8Array(faces.length);
    new Xoshiro128StarStar('echo-coin').fill(coin);
    for (let i = 1; i < faces.length; i++) if (coin[i]! < 26) faces[i] = faces[i - 1]!;
    const report = fairnessReport(faces);
    expect(byName(report, 'lag-1 serial correlation of faces')).toBe(false);
    const correlation = report.tests.find((t) => t.name === 'lag-1 serial correlation of faces')!;
    expect(correlation.statistic).toBeGreaterThan(5);
  });

  it('give the same report one roll at a time as in bulk', () => {
    const faces = seededFaces('same', 5_000);
    const single = new FairnessAccumulator();
    for (let i = 0; i < faces.length; i += 3)
      single.add([faces[i], faces[i + 1], faces[i + 2]] as unknown as Dice);
    const bulk = new FairnessAccumulator();
    bulk.addFaces(faces, 0, 3000);
    bulk.addFaces(faces, 3000);
    expect(bulk.report()).toEqual(single.report());
    expect(bulk.outcomes().reduce((s, x) => s + x, 0)).toBe(5_000);
  });

  it('refuse faces outside 1–6 and incomplete rolls', () => {
    const accumulator = new FairnessAccumulator();
    expect(() => accumulator.addFaces(new Uint8Array([1, 2, 7]))).toThrow(RangeError);
    expect(() => accumulator.addFaces(new Uint8Array([1, 2]))).toThrow(RangeError);
    expect(() => accumulator.add([1, 2, 0] as unknown as Dice)).toThrow(RangeError);
    expect(() => accumulator.addFaces(new Uint8Array([1, 2, 3]), 0, 6)).toThrow(RangeError);
    // A refused batch counts nothing, not even its valid first roll.
    expect(() => accumulator.addFaces(new Uint8Array([1, 2, 3, 4, 5, 9]))).toThrow(RangeError);
    expect(accumulator.rolls).toBe(0);
    expect(accumulator.outcomes().every((c) => c === 0)).toBe(true);
  });

  it('fail, with a note, rather than pass on too few rolls', () => {
    const report = fairnessReport([[1, 2, 3]]);
    expect(report.pass).toBe(false);
    expect(report.tests.every((t) => t.note !== undefined)).toBe(true);
  });

  it('count runs as Wald and Wolfowitz do', () => {
    // 10 low and 10 high totals: mean runs 11, variance 90·80/(400·19).
    const result = runsTest(11, 10, 10);
    expect(result.statistic).toBeCloseTo(0, 12);
    expect(runsTest(2, 10, 10).pass).toBe(false);
  });
});

describe('rolls needed to detect a bias', () => {
  it('matches the noncentral chi-square solution computed with scipy', () => {
    // scipy: λ = 22.0275 for χ'²(5) at 1% with power 0.9; w² = 0.05 for face 5 at 1/4.
    const estimate = rollsToDetectLoadedFace(5, 0.25);
    expectRelative(estimate.noncentrality, 22.027505645467606, 1e-6);
    expectRelative(estimate.effectSizeSquared, 0.05, 1e-12);
    expect(estimate.rolls).toBe(147);
    expect(rollsToDetectLoadedFace(5, 0.25, { loadedDice: 1 }).rolls).toBe(1322);
  });

  it('needs more rolls for subtler bias, more power or a stricter level', () => {
    const base = rollsToDetectLoadedFace(6, 0.18).rolls;
    expect(rollsToDetectLoadedFace(6, 0.17).rolls).toBeGreaterThan(base);
    expect(rollsToDetectLoadedFace(6, 0.18, { power: 0.99 }).rolls).toBeGreaterThan(base);
    expect(rollsToDetectLoadedFace(6, 0.18, { significance: 0.001 }).rolls).toBeGreaterThan(base);
  });

  it('answers Infinity for fair dice and refuses nonsense', () => {
    expect(rollsToDetectBias([1, 1, 1, 1, 1, 1].map((x) => x / 6)).rolls).toBe(Infinity);
    expect(() => rollsToDetectBias([0.5, 0.5])).toThrow(RangeError);
    expect(() => rollsToDetectLoadedFace(5, 1.5)).toThrow(RangeError);
  });
});
