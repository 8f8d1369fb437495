import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { faceCounts, hotCold, rank, roundsToName, totalCounts } from './hot-cold.js';
import type { Dice3 } from './roadmap.js';

/** `n` rounds cycling through `rolls`. */
const repeat = (rolls: readonly Dice3[], n: number): Dice3[] =>
  Array.from({ length: n }, (_, i) => rolls[i % rolls.length]!);

const die = fc.integer({ min: 1, max: 6 });
const roll = fc.tuple(die, die, die);

describe('hot and cold numbers', () => {
  const rolls: Dice3[] = [
    [1, 1, 2],
    [1, 3, 5],
    [6, 6, 6],
    [2, 3, 4],
  ];

  it('counts every die a face shows on, against 1/6 of the dice thrown', () => {
    const faces = faceCounts(rolls);
    expect(faces.map((c) => c.count)).toEqual([3, 2, 2, 1, 1, 3]);
    expect(faces.every((c) => c.expected === 2)).toBe(true);
  });

  it('counts the totals one can bet on, 4 to 17 (Art. 5.6), against their ways in 216', () => {
    const totals = totalCounts(rolls);
    expect(totals.map((c) => c.value)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(totals.find((c) => c.value === 9)!.count).toBe(2);
    expect(totals.find((c) => c.value === 4)!.expected).toBeCloseTo((4 * 3) / 216, 12);
    expect(totals.find((c) => c.value === 10)!.expected).toBeCloseTo((4 * 27) / 216, 12);
  });

  it('names faces from 10 rounds and the likeliest totals from 40 (each expected 5 times)', () => {
    expect(roundsToName(1 / 6, 3)).toBe(10);
    expect(roundsToName(27 / 216, 1)).toBe(40);
    const hc = hotCold([], 100);
    expect([hc.facesFromRounds, hc.totalsFromRounds]).toEqual([10, 40]);
  });

  it('claims nothing hot or cold before there are enough rounds', () => {
    // Nine rounds of the same dice: far from fair, but too few to say so of any face.
    const nine = hotCold(repeat([[1, 2, 2]], 9), 100);
    expect([nine.hotFaces, nine.coldFaces, nine.hotTotals, nine.coldTotals]).toEqual([
      [],
      [],
      [],
      [],
    ]);
    // The tenth names the faces; the totals wait for their own expectation.
    const ten = hotCold(repeat([[1, 2, 2]], 10), 100);
    expect(ten.hotFaces.map((c) => c.value)).toEqual([2, 1]);
    expect(ten.coldFaces.map((c) => c.value)).toEqual([3, 4, 5]);
    expect(ten.coldTotals).toEqual([]);
  });

  it('never calls a rare total cold for being rare: 4 and 17 are never named over 100 rounds', () => {
    // Every round totals 10 or 11, so 4 and 17 never show; they are still not "cold".
    const hc = hotCold(
      repeat(
        [
          [2, 3, 5],
          [3, 3, 5],
        ],
        100,
      ),
      100,
    );
    const named = [...hc.hotTotals, ...hc.coldTotals].map((c) => c.value);
    expect(named).not.toContain(4);
    expect(named).not.toContain(17);
    expect(hc.hotTotals.map((c) => c.value)).toEqual([10, 11]);
    // Totals 7 to 14 are expected 5 times or more in 100 rounds: the cold ones are among them.
    expect(hc.coldTotals.every((c) => c.value >= 7 && c.value <= 14)).toBe(true);
    expect(hc.coldTotals).toHaveLength(3);
  });

  it('looks only at the last `window` rolls', () => {
    const old = repeat([[6, 6, 6]], 50);
    const recent = repeat([[1, 2, 4]], 20);
    const hc = hotCold([...old, ...recent], 20);
    expect(hc.rounds).toBe(20);
    expect(hc.faces.find((c) => c.value === 6)!.count).toBe(0);
    expect(hc.coldFaces.map((c) => c.value)).toContain(6);
  });

  it('ranks by distance from expectation, ties by the smaller value', () => {
    const counts = [
      { value: 1, count: 9, expected: 6 },
      { value: 2, count: 9, expected: 6 },
      { value: 3, count: 6, expected: 6 },
      { value: 4, count: 2, expected: 6 },
    ];
    expect(rank(counts, 36, 3, 'hot').map((c) => c.value)).toEqual([1, 2]);
    expect(rank(counts, 36, 3, 'cold').map((c) => c.value)).toEqual([4]);
  });

  it('never names a number both hot and cold, nor one expected under 5 times', () => {
    fc.assert(
      fc.property(fc.array(roll, { maxLength: 120 }), (rs) => {
        const hc = hotCold(rs, 100);
        for (const [hot, cold] of [
          [hc.hotFaces, hc.coldFaces],
          [hc.hotTotals, hc.coldTotals],
        ] as const) {
          const hotValues = new Set(hot.map((c) => c.value));
          expect(cold.some((c) => hotValues.has(c.value))).toBe(false);
          for (const c of hot) expect(c.count).toBeGreaterThan(c.expected);
          for (const c of cold) expect(c.count).toBeLessThan(c.expected);
          for (const c of [...hot, ...cold]) expect(c.expected).toBeGreaterThanOrEqual(5);
        }
      }),
    );
  });
});
