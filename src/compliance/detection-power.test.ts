import { describe, expect, it } from 'vitest';
import { rollsToDetectLoadedFace } from '../math/index.js';
import {
  detectionPower,
  detectionPowerTable,
  smallestDetectableExcess,
} from './detection-power.js';

describe('detectionPower', () => {
  it('is rollsToDetectLoadedFace from src/math, with its defaults (1%, 90%)', () => {
    const figure = detectionPower({ probability: 1 / 6 + 0.02, loadedDice: 3 });
    const expected = rollsToDetectLoadedFace(6, 1 / 6 + 0.02, { loadedDice: 3 });
    expect(figure).toMatchObject({
      rolls: expected.rolls,
      significance: 0.01,
      power: 0.9,
      face: 6,
    });
    expect(figure.excess).toBeCloseTo(0.02, 12);
  });

  it('gives the table of docs/compliance.md', () => {
    const rows = detectionPowerTable().map((f) => [
      Number(f.excess.toFixed(2)),
      f.loadedDice,
      f.rolls,
    ]);
    expect(rows).toEqual([
      [0.05, 1, 3672],
      [0.05, 3, 408],
      [0.02, 1, 22946],
      [0.02, 3, 2550],
      [0.01, 1, 91782],
      [0.01, 3, 10198],
    ]);
  });

  it('a loaded die needs more rolls for a smaller bias, and fewer when all three are loaded', () => {
    const rolls = (excess: number, loadedDice: 1 | 3) =>
      detectionPower({ probability: 1 / 6 + excess, loadedDice }).rolls;
    expect(rolls(0.01, 1)).toBeGreaterThan(rolls(0.02, 1));
    expect(rolls(0.05, 1)).toBeGreaterThan(rolls(0.05, 3));
  });

  it('says fair dice are never "detected"', () => {
    expect(detectionPower({ probability: 1 / 6, loadedDice: 3 }).rolls).toBe(Infinity);
  });
});

describe('smallestDetectableExcess', () => {
  it('inverts detectionPower', () => {
    const options = { loadedDice: 1, significance: 0.001, power: 0.9 } as const;
    const excess = smallestDetectableExcess(10_000, options);
    expect(excess).toBeCloseTo(0.0349, 3);
    expect(detectionPower({ ...options, probability: 1 / 6 + excess }).rolls).toBeLessThanOrEqual(
      10_000,
    );
    expect(
      detectionPower({ ...options, probability: 1 / 6 + excess - 0.001 }).rolls,
    ).toBeGreaterThan(10_000);
  });

  it('refuses a non-positive number of rolls', () => {
    expect(() => smallestDetectableExcess(0, { loadedDice: 1 })).toThrow(RangeError);
  });
});
