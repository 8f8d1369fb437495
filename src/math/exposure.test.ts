import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Bet, DEFAULT_COMPILED, OUTCOMES, settle, SPOTS } from '../rules/index.js';
import { exposure } from './exposure.js';

describe('exposure of a set of bets', () => {
  it('finds the triple as the worst case of a bet on triple 1', () => {
    const e = exposure(DEFAULT_COMPILED, [{ spot: 'triple:1', stakeMinor: 100 }]);
    expect(e.worst.dice).toEqual([1, 1, 1]);
    expect(e.worst.returnedMinor).toBe(15_100);
    expect(e.worst.houseLossMinor).toBe(15_000);
    expect(e.expectedReturnedMinor).toBeCloseTo(15_100 / 216, 9);
  });

  it('shows Small and Big hedged: the worst case is a triple-free win of one side', () => {
    const e = exposure(DEFAULT_COMPILED, [
      { spot: 'small', stakeMinor: 100 },
      { spot: 'big', stakeMinor: 100 },
    ]);
    expect(e.stakedMinor).toBe(200);
    expect(e.worst.houseLossMinor).toBe(0);
    // On a triple both lose (Art. 7): the house keeps both stakes.
    expect(e.returnedByOutcomeMinor[0]).toBe(0);
  });

  const bets = fc.array(
    fc.record({
      spot: fc.constantFrom(...SPOTS.map((s) => s.id)),
      stakeMinor: fc.integer({ min: 1, max: 1_000_000 }),
    }),
    { minLength: 1, maxLength: 30 },
  ) as fc.Arbitrary<Bet[]>;

  it('returns, under each outcome, exactly what settle() pays', () => {
    fc.assert(
      fc.property(bets, (placed) => {
        const e = exposure(DEFAULT_COMPILED, placed);
        OUTCOMES.forEach((dice, o) => {
          const paid = settle(DEFAULT_COMPILED, dice, placed).reduce(
            (s, b) => s + b.returnedMinor,
            0,
          );
          expect(e.returnedByOutcomeMinor[o]).toBe(paid);
        });
        const max = Math.max(...e.returnedByOutcomeMinor);
        expect(e.worst.returnedMinor).toBe(max);
        expect(e.worst.houseLossMinor).toBe(max - e.stakedMinor);
      }),
      { numRuns: 40 },
    );
  });
});
