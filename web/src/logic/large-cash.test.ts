import { describe, expect, it } from 'vitest';
import { largeCashReason, largeCashThresholdMinor } from './large-cash.js';

// 2026-03-02 10:00 in Macau (UTC+8), and 23:30 and the next day's 00:30.
const MORNING = Date.UTC(2026, 2, 2, 2, 0);
const LATE = Date.UTC(2026, 2, 2, 15, 30);
const NEXT_DAY = Date.UTC(2026, 2, 2, 16, 30);

describe('large cash at the cage (Instrução 1/2016)', () => {
  it('is MOP 500,000 in avos and HKD 485,000 in cents, and unknown otherwise', () => {
    expect(largeCashThresholdMinor('MOP')).toBe(50_000_000);
    expect(largeCashThresholdMinor('HKD')).toBe(48_500_000);
    expect(largeCashThresholdMinor('')).toBeNull();
    expect(largeCashThresholdMinor('USD')).toBeNull();
  });

  it('takes the house’s own figure where the floor set one (never above the law’s)', () => {
    expect(largeCashThresholdMinor('MOP', 30_000_000)).toBe(30_000_000);
    expect(largeCashThresholdMinor('MOP', null)).toBe(50_000_000);
    const move = { atMs: MORNING, kind: 'deposit', amountMinor: 30_000_000 } as const;
    expect(largeCashReason(move, [], largeCashThresholdMinor('MOP', 30_000_000))).toBe('single');
    expect(largeCashReason(move, [], largeCashThresholdMinor('MOP'))).toBeNull();
  });

  it.each([
    ['MOP', 49_999_999, null],
    ['MOP', 50_000_000, 'single'],
    ['MOP', 60_000_000, 'single'],
    ['HKD', 48_499_999, null],
    ['HKD', 48_500_000, 'single'],
    ['', 90_000_000, null],
  ] as const)('in %s, %i minor units alone is %s', (currency, amountMinor, reason) => {
    const threshold = largeCashThresholdMinor(currency);
    expect(largeCashReason({ atMs: MORNING, kind: 'deposit', amountMinor }, [], threshold)).toBe(
      reason,
    );
  });

  it('links the moves of one Macau day, deposits and withdrawals alike, not of the day before', () => {
    const earlier = [
      { atMs: MORNING, kind: 'deposit', amountMinor: 30_000_000 },
      { atMs: MORNING, kind: 'withdrawal', amountMinor: 15_000_000 },
    ] as const;
    const move = (atMs: number, amountMinor: number) =>
      largeCashReason({ atMs, kind: 'withdrawal', amountMinor }, earlier, 50_000_000);
    expect(move(LATE, 4_999_999)).toBeNull();
    expect(move(LATE, 5_000_000)).toBe('linked');
    // Half past midnight in Macau is the next gaming day: the morning's moves no longer count.
    expect(move(NEXT_DAY, 5_000_000)).toBeNull();
  });
});
