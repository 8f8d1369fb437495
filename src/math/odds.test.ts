import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compilePaytable,
  DEFAULT_COMPILED,
  OUTCOMES,
  oddsOn,
  SPOTS,
  spotById,
  type Paytable,
} from '../rules/index.js';
import { fraction, oddsReport, spotOdds } from './odds.js';

const byId = (id: string) => spotOdds(DEFAULT_COMPILED, spotById(id)!);

describe('exact odds of the default paytable', () => {
  // Each row: ways out of 216 and the return to player as an exact fraction of 216.
  it.each([
    ['small', 105, 210],
    ['big', 105, 210],
    ['odd', 108, 216],
    ['even', 108, 216],
    ['single:4', 91, 75 * 2 + 15 * 3 + 1 * 4],
    ['double:2', 16, 16 * 9],
    ['triple:6', 1, 151],
    ['any-triple', 6, 6 * 25],
    ['total:4', 3, 3 * 51],
    ['total:5', 6, 6 * 19],
    ['total:6', 10, 10 * 15],
    ['total:7', 15, 15 * 13],
    ['total:8', 21, 21 * 9],
    ['total:9', 25, 25 * 7],
    ['total:10', 27, 27 * 7],
    ['total:15', 10, 10 * 15],
    ['total:17', 3, 3 * 51],
    ['two-dice:3-5', 30, 30 * 6],
    ['three-dice:1-4-6', 6, 6 * 31],
    ['double-single:6-1', 3, 3 * 51],
    ['four-numbers:2-3-4-6', 24, 24 * 8],
  ])('%s wins %i ways and returns %i/216', (id, ways, returnSum) => {
    const odds = byId(id);
    expect(odds.ways).toBe(ways);
    expect(odds.returnSum).toBe(returnSum);
    expect(odds.rtp).toBeCloseTo(returnSum / 216, 15);
    expect(odds.houseEdge).toBeCloseTo(1 - returnSum / 216, 15);
  });

  it('gives Odd and Even no house edge, because Art. 7 names only Small and Big', () => {
    expect(byId('odd').houseEdge).toBe(0);
    expect(byId('even').houseEdge).toBe(0);
    expect(byId('small').houseEdge).toBeCloseTo(1 / 36, 15);
  });

  it('computes the standard deviation of the net result per unit staked', () => {
    // Small: net +1 on 105 outcomes, −1 on 111. Var = 1 − (−6/216)².
    expect(byId('small').stdDev).toBeCloseTo(Math.sqrt(1 - (6 / 216) ** 2), 12);
    // Triple: net +150 once, −1 otherwise.
    const mean = (150 - 215) / 216;
    expect(byId('triple:1').stdDev).toBeCloseTo(Math.sqrt((150 ** 2 + 215) / 216 - mean ** 2), 12);
  });

  it('lists the pays of a single number as 1, 2 and 3 (Art. 6.3)', () => {
    expect(byId('single:1').pays).toEqual([1, 2, 3]);
    expect(byId('total:16').pays).toEqual([18]);
  });

  it('reports every offered spot in the layout order', () => {
    expect(oddsReport(DEFAULT_COMPILED).map((r) => r.spot.id)).toEqual(SPOTS.map((s) => s.id));
  });
});

const paytables = fc.record({
  spots: fc.subarray(
    SPOTS.map((s) => s.id),
    { minLength: 1 },
  ),
  totalOdds: fc.record({
    '5/16': fc.integer({ min: 18, max: 30 }),
    '6/15': fc.integer({ min: 14, max: 18 }),
  }),
}) as fc.Arbitrary<Paytable>;

describe('exact odds of any legal paytable', () => {
  it('equal the sums over the 216 outcomes computed directly from the rules', () => {
    fc.assert(
      fc.property(paytables, (paytable) => {
        const compiled = compilePaytable(paytable);
        for (const row of oddsReport(compiled)) {
          let returnSum = 0;
          let ways = 0;
          for (const dice of OUTCOMES) {
            const odds = oddsOn(row.spot, dice, paytable.totalOdds);
            if (odds > 0) {
              ways++;
              returnSum += odds + 1;
            }
          }
          expect(row.ways).toBe(ways);
          expect(row.returnSum).toBe(returnSum);
          expect(row.houseEdge).toBeCloseTo((216 - returnSum) / 216, 15);
        }
      }),
      { numRuns: 50 },
    );
  });
});

describe('fraction', () => {
  it.each([
    [210, 216, '35/36'],
    [216, 216, '1/1'],
    [0, 216, '0/1'],
  ])('reduces %i/%i to %s', (n, d, expected) => {
    expect(fraction(n, d)).toBe(expected);
  });
});
