import { describe, expect, it } from 'vitest';
import { type Move, SUSPICION_RULES, SUSPICION_WINDOW_MS, suspicionsOf } from './suspicion.js';

const T = 50_000_000; // MOP 500,000
const HOUR_MS = 3_600_000;
const t0 = Date.parse('2026-05-01T02:00:00Z');
const move = (kind: Move['kind'], amountMinor: number, atMs: number): Move => ({
  kind,
  amountMinor,
  atMs,
});

const rulesOf = (m: Move, history: Move[]) => suspicionsOf(m, history, T).map((s) => s.rule);

describe('SUSPICION_RULES', () => {
  it('states its figures', () => {
    expect(SUSPICION_RULES.structuring).toEqual({
      windowMs: 86_400_000,
      depositsMin: 2,
      depositPercentOfThresholdMin: 80,
    });
    expect(SUSPICION_RULES['cash-in-out-little-play']).toEqual({
      windowMs: 86_400_000,
      withdrawalPercentOfDepositsMin: 50,
      stakePercentOfDepositsBelow: 20,
      depositsPercentOfThresholdMin: 10,
    });
  });
});

describe('structuring: two deposits in 24 hours, each in [80% of the threshold, threshold)', () => {
  const first = move('deposit', 40_000_000, t0);

  it.each<[string, Move, Move[], boolean]>([
    ['two at exactly 80%', move('deposit', 40_000_000, t0 + HOUR_MS), [first], true],
    [
      'two just below the threshold',
      move('deposit', T - 1, t0 + HOUR_MS),
      [move('deposit', T - 1, t0)],
      true,
    ],
    ['the second at 80% less one avo', move('deposit', 39_999_999, t0 + HOUR_MS), [first], false],
    [
      'the first at 80% less one avo',
      move('deposit', 40_000_000, t0 + HOUR_MS),
      [move('deposit', 39_999_999, t0)],
      false,
    ],
    [
      'the second at the threshold (large, not structured)',
      move('deposit', T, t0 + HOUR_MS),
      [first],
      false,
    ],
    [
      'exactly 24 hours apart',
      move('deposit', 40_000_000, t0 + SUSPICION_WINDOW_MS),
      [first],
      true,
    ],
    [
      '24 hours and 1 ms apart',
      move('deposit', 40_000_000, t0 + SUSPICION_WINDOW_MS + 1),
      [first],
      false,
    ],
    ['a single deposit', first, [], false],
    [
      'a withdrawal after a near-threshold deposit',
      move('withdrawal', 40_000_000, t0 + HOUR_MS),
      [first],
      false,
    ],
    [
      'the earlier one a withdrawal',
      move('deposit', 40_000_000, t0 + HOUR_MS),
      [move('withdrawal', 40_000_000, t0)],
      false,
    ],
    [
      'a history move after this one',
      move('deposit', 40_000_000, t0),
      [move('deposit', 40_000_000, t0 + 1)],
      false,
    ],
  ])('%s: flagged %s', (_, m, history, flagged) => {
    expect(rulesOf(m, history).includes('structuring')).toBe(flagged);
  });

  it('flags each later deposit while the pattern goes on, with the figures', () => {
    const history = [first, move('deposit', 45_000_000, t0 + HOUR_MS)];
    const [flag] = suspicionsOf(move('deposit', 49_000_000, t0 + 2 * HOUR_MS), history, T);
    expect(flag?.details).toEqual({ deposits: 3, totalMinor: 134_000_000, thresholdMinor: T });
    expect(flag?.message).toContain('GIF');
  });
});

describe('cash-in-out-little-play', () => {
  // Deposits of 10% of the threshold; withdrawal 50% of them; stakes below 20% of them.
  const deposits = [move('deposit', 5_000_000, t0)];
  const withdrawal = (amountMinor: number, atMs = t0 + 2 * HOUR_MS) =>
    move('withdrawal', amountMinor, atMs);
  const staked = (amountMinor: number, atMs = t0 + HOUR_MS) => move('stake', amountMinor, atMs);

  it.each<[string, Move, Move[], boolean]>([
    ['at every figure', withdrawal(2_500_000), [...deposits, staked(999_999)], true],
    ['nothing staked', withdrawal(5_000_000), deposits, true],
    ['stakes of exactly 20%', withdrawal(2_500_000), [...deposits, staked(1_000_000)], false],
    ['a withdrawal under 50%', withdrawal(2_499_999), [...deposits, staked(999_999)], false],
    [
      'deposits under 10% of the threshold',
      withdrawal(4_999_999),
      [move('deposit', 4_999_999, t0)],
      false,
    ],
    [
      'deposits of two moves adding to 10%',
      withdrawal(2_500_000),
      [move('deposit', 2_500_000, t0), move('deposit', 2_500_000, t0 + 1)],
      true,
    ],
    [
      'stakes before the first deposit (not counted)',
      withdrawal(2_500_000),
      [staked(4_000_000, t0 - 1), ...deposits],
      true,
    ],
    [
      'a deposit more than 24 hours before',
      withdrawal(2_500_000, t0 + SUSPICION_WINDOW_MS + 1),
      deposits,
      false,
    ],
    [
      'a deposit exactly 24 hours before',
      withdrawal(2_500_000, t0 + SUSPICION_WINDOW_MS),
      deposits,
      true,
    ],
    ['no deposits at all', withdrawal(T), [staked(10)], false],
    ['a deposit, not a withdrawal', move('deposit', 5_000_000, t0 + HOUR_MS), deposits, false],
  ])('%s: flagged %s', (_, m, history, flagged) => {
    expect(rulesOf(m, history).includes('cash-in-out-little-play')).toBe(flagged);
  });

  it('gives the figures it judged', () => {
    const [flag] = suspicionsOf(withdrawal(3_000_000), [...deposits, staked(500_000)], T);
    expect(flag).toMatchObject({
      rule: 'cash-in-out-little-play',
      details: {
        withdrawalMinor: 3_000_000,
        depositsMinor: 5_000_000,
        stakedMinor: 500_000,
        thresholdMinor: T,
      },
    });
  });

  it('refuses a threshold that is not a positive integer', () => {
    expect(() => suspicionsOf(withdrawal(1), [], 0)).toThrow(RangeError);
  });
});
