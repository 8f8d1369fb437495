import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CashMove,
  classifyCash,
  DEFAULT_LARGE_CASH_THRESHOLD_MINOR,
  gamingDay,
  LARGE_CASH_THRESHOLD_MOP_MINOR,
} from './large-cash.js';

const T = LARGE_CASH_THRESHOLD_MOP_MINOR;
// 2026-05-01 in Macau runs from 2026-04-30T16:00Z to 2026-05-01T16:00Z.
const dayStartMs = Date.parse('2026-04-30T16:00:00Z');
const at = (hours: number) => dayStartMs + hours * 3_600_000;
const deposit = (atMs: number, amountMinor: number): CashMove => ({
  atMs,
  kind: 'deposit',
  amountMinor,
});
const withdrawal = (atMs: number, amountMinor: number): CashMove => ({
  atMs,
  kind: 'withdrawal',
  amountMinor,
});

describe('thresholds', () => {
  it('are MOP 500,000 and HKD 485,000, in minor units', () => {
    expect(LARGE_CASH_THRESHOLD_MOP_MINOR).toBe(500_000 * 100);
    expect(DEFAULT_LARGE_CASH_THRESHOLD_MINOR).toEqual({ MOP: 50_000_000, HKD: 48_500_000 });
    // At HKD 1 = MOP 1.03 the HKD figure is worth at most the law's MOP 500,000.
    expect(DEFAULT_LARGE_CASH_THRESHOLD_MINOR.HKD * 103).toBeLessThanOrEqual(T * 100);
  });

  it('counts the gaming day in Macau time', () => {
    expect(gamingDay(dayStartMs - 1)).toBe('2026-04-30');
    expect(gamingDay(dayStartMs)).toBe('2026-05-01');
  });
});

describe('classifyCash', () => {
  it.each<[string, CashMove, CashMove[], boolean, 'single' | 'linked' | null, number]>([
    ['one below the threshold', deposit(at(1), T - 1), [], false, null, T - 1],
    ['one at the threshold', deposit(at(1), T), [], true, 'single', T],
    ['a withdrawal at the threshold', withdrawal(at(1), T), [], true, 'single', T],
    [
      'two that reach it together',
      deposit(at(2), T / 2),
      [deposit(at(1), T / 2)],
      true,
      'linked',
      T,
    ],
    [
      'two that miss it by one',
      deposit(at(2), T / 2 - 1),
      [deposit(at(1), T / 2)],
      false,
      null,
      T - 1,
    ],
    // Deposits and withdrawals are summed, not netted.
    [
      'a deposit and a withdrawal',
      withdrawal(at(2), T / 2),
      [deposit(at(1), T / 2)],
      true,
      'linked',
      T,
    ],
    // Once the day has reached the threshold, every further move is large.
    [
      'a small move after the day reached it',
      deposit(at(3), 100),
      [deposit(at(1), T)],
      true,
      'linked',
      T + 100,
    ],
    // Moves of another gaming day do not count.
    [
      'a move of the day before',
      deposit(at(1), T / 2),
      [deposit(dayStartMs - 1, T / 2)],
      false,
      null,
      T / 2,
    ],
    [
      'a move of the next day',
      deposit(at(23), T / 2),
      [deposit(at(24), T / 2)],
      false,
      null,
      T / 2,
    ],
  ])('%s', (_, move, earlier, large, reason, dayTotalMinor) => {
    expect(classifyCash(move, earlier, T)).toEqual({ large, reason, dayTotalMinor });
  });

  it('refuses amounts that are not positive integers (a programming error)', () => {
    expect(() => classifyCash(deposit(at(1), 0), [], T)).toThrow(RangeError);
    expect(() => classifyCash(deposit(at(1), 1.5), [], T)).toThrow(RangeError);
    expect(() => classifyCash(deposit(at(1), 1), [], 0)).toThrow(RangeError);
  });

  it("does not depend on the order of the day's moves once the total reaches the threshold", () => {
    const move = fc.record({
      atMs: fc.integer({ min: dayStartMs, max: dayStartMs + 86_399_999 }),
      kind: fc.constantFrom('deposit' as const, 'withdrawal' as const),
      amountMinor: fc.integer({ min: 1, max: T }),
    });
    fc.assert(
      fc.property(
        fc
          .array(move, { minLength: 1, maxLength: 12 })
          .chain((moves) =>
            fc.tuple(fc.constant(moves), fc.shuffledSubarray(moves, { minLength: moves.length })),
          ),
        ([moves, shuffled]) => {
          const last = (list: CashMove[]) => classifyCash(list.at(-1)!, list.slice(0, -1), T);
          const total = moves.reduce((sum, m) => sum + m.amountMinor, 0);
          expect(last(moves).large).toBe(total >= T);
          expect(last(shuffled).large).toBe(last(moves).large);
          expect(last(shuffled).dayTotalMinor).toBe(total);
        },
      ),
    );
  });
});
