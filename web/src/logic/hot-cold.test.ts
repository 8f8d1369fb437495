import { describe, expect, it } from 'vitest';
import { faceCounts, hotCold, rank, totalCounts } from './hot-cold.js';
import type { Dice3 } from './roadmap.js';

describe('hot and cold numbers', () => {
  const rolls: Dice3[] = [
    [1, 1, 2],
    [1, 3, 5],
    [6, 6, 6],
    [2, 3, 4],
  ];

  it('counts every die a face shows on', () => {
    expect(faceCounts(rolls).map((c) => c.count)).toEqual([3, 2, 2, 1, 1, 3]);
  });

  it('counts totals 3 to 18', () => {
    const totals = totalCounts(rolls);
    expect(totals).toHaveLength(16);
    expect(totals.find((c) => c.value === 9)!.count).toBe(2);
    expect(totals.find((c) => c.value === 18)!.count).toBe(1);
  });

  it('ranks ties by the smaller value', () => {
    const counts = faceCounts(rolls);
    expect(rank(counts, 2, 'hot').map((c) => c.value)).toEqual([1, 6]);
    expect(rank(counts, 2, 'cold').map((c) => c.value)).toEqual([4, 5]);
  });

  it('looks only at the last `window` rolls and ranks only totals one can bet on (Art. 5.6)', () => {
    const hc = hotCold(rolls, 2, 1);
    expect(hc.rounds).toBe(2);
    expect(hc.hotFaces[0]!.value).toBe(6);
    expect(hc.hotTotals[0]!.value).toBe(9);
    expect(hc.hotTotals.every((c) => c.value >= 4 && c.value <= 17)).toBe(true);
  });

  it('handles an empty history', () => {
    const hc = hotCold([], 50);
    expect(hc.rounds).toBe(0);
    expect(hc.faces.every((c) => c.count === 0)).toBe(true);
    expect(hc.hotFaces).toEqual([]);
    expect(hc.hotTotals).toEqual([]);
    expect(hc.coldTotals.map((c) => c.value)).toEqual([4, 5, 6]);
  });

  it('calls hot only what came up, and nothing both hot and cold', () => {
    const hc = hotCold(
      [
        [1, 2, 2],
        [6, 6, 3],
      ],
      50,
    );
    expect(hc.hotTotals.map((c) => c.value)).toEqual([5, 15]);
    expect(hc.coldTotals.map((c) => c.value)).toEqual([4, 6, 7]);
    expect(hc.hotFaces.map((c) => c.value)).toEqual([2, 6, 1]);
    expect(hc.coldFaces.map((c) => c.value)).toEqual([4, 5, 3]);
  });
});
