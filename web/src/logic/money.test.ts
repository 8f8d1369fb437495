import { describe, expect, it } from 'vitest';
import { chipsFor } from './chips.js';
import { chipLabel, formatAmount, formatMoney, parseAmount } from './money.js';

describe('money in minor units', () => {
  it('prints whole amounts without decimals and groups thousands', () => {
    expect(formatAmount(123456700)).toBe('1,234,567');
    expect(formatAmount(1050)).toBe('10.50');
    expect(formatAmount(-230)).toBe('-2.30');
    expect(formatMoney(5000, 'MOP')).toBe('MOP 50');
  });

  it('labels chips in major units, thousands as K', () => {
    expect(chipLabel(1000)).toBe('10');
    expect(chipLabel(100000)).toBe('1K');
    expect(chipLabel(250000)).toBe('2.5K');
  });

  it('reads typed amounts exactly, refusing anything but a positive amount with at most two decimals', () => {
    expect(parseAmount('12')).toBe(1200);
    expect(parseAmount('1,000.5')).toBe(100050);
    expect(parseAmount('0.01')).toBe(1);
    for (const bad of ['', '0', '-5', '1.234', 'abc', '1e3'])
      expect(parseAmount(bad), bad).toBeNull();
  });
});

describe('chips', () => {
  it('offers the standard chips inside the table limits, at most six', () => {
    expect(chipsFor(1000, 1_000_000)).toEqual([1000, 2000, 5000, 10000, 50000, 100000]);
    expect(chipsFor(5000, 10000)).toEqual([5000, 10000]);
  });

  it('adds a chip worth exactly the minimum when no standard chip is', () => {
    expect(chipsFor(3000, 10000)).toEqual([3000, 5000, 10000]);
  });
});
