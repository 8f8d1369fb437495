import { describe, expect, it } from 'vitest';
import { parseCroupierEntry } from './croupier-entry.js';

describe('parseCroupierEntry (lever tables: the croupier reads the physical dice)', () => {
  it.each([
    ['2,2,5', [2, 2, 5]],
    ['6 1 3', [6, 1, 3]],
    ['444', [4, 4, 4]],
    [
      [1, 2, 3],
      [1, 2, 3],
    ],
  ])('accepts %j', (input, dice) => {
    expect(parseCroupierEntry(input, 'c-17')).toEqual({
      ok: true,
      value: { source: 'croupier', dice, croupierId: 'c-17' },
    });
  });

  it.each([
    ['2,2'],
    ['1,2,7'],
    ['0,1,2'],
    ['1,2,3,4'],
    [[1, 2]],
    [[1, 2, 3.5]],
    [['1', '2', '3']],
    [null],
    [{}],
    [123],
  ])('refuses %j with Art. 1.1', (input) => {
    const result = parseCroupierEntry(input, 'c-17');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('dice_malformed');
      expect(result.error.article).toBe('1.1');
    }
  });

  it('refuses an entry without a croupier', () => {
    const result = parseCroupierEntry('1,2,3', ' ');
    expect(!result.ok && result.error.code).toBe('croupier_missing');
  });

  it('copies the dice, so a later change to the input cannot alter the record', () => {
    const input = [1, 2, 3];
    const result = parseCroupierEntry(input, 'c-17');
    input[0] = 6;
    expect(result.ok && result.value.dice).toEqual([1, 2, 3]);
  });
});
