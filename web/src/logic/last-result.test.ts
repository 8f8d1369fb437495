import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYTABLE } from '../../../src/rules/index.js';
import { lastResult, winningSpotsOf } from './last-result.js';

describe('the result shown between rounds', () => {
  it('lights what src/rules says wins (Art. 3.2)', () => {
    const spots = winningSpotsOf([2, 2, 5], DEFAULT_PAYTABLE);
    expect(spots).toEqual(
      expect.arrayContaining([
        'small',
        'odd',
        'single:2',
        'single:5',
        'double:2',
        'total:9',
        'two-dice:2-5',
        'double-single:2-5',
      ]),
    );
    expect(spots).not.toContain('big');
    expect(spots).toHaveLength(8);
  });

  it('lights neither Small nor Big on a triple (Art. 7)', () => {
    const spots = winningSpotsOf([3, 3, 3], DEFAULT_PAYTABLE);
    expect(spots).not.toContain('small');
    expect(spots).toContain('any-triple');
    expect(spots).toContain('odd');
  });

  it('prefers the view’s lastRound, else the newest history entry', () => {
    const history = [{ roundNo: 4, dice: [1, 2, 3] as const, total: 6 }];
    expect(lastResult(null, history, DEFAULT_PAYTABLE)?.roundNo).toBe(4);
    const lastRound = { roundNo: 5, dice: [6, 6, 6] as const, winningSpots: ['triple:6'] };
    expect(lastResult(lastRound, history, DEFAULT_PAYTABLE)).toBe(lastRound);
    expect(lastResult(null, [], DEFAULT_PAYTABLE)).toBeNull();
  });
});
