import { describe, expect, it } from 'vitest';
import { addDays, dayNumber, daysBetween, isIsoDate, macauDate, weekday } from './iso-date.js';

describe('ISO dates', () => {
  it('accepts real dates only', () => {
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2028-02-29')).toBe(true);
    for (const bad of [
      '2026-02-29',
      '2026-02-30',
      '2026-13-01',
      '2026-2-3',
      '26-02-03',
      '2026-02-03T00:00',
      '',
      20260203,
    ]) {
      expect(isIsoDate(bad)).toBe(false);
    }
  });

  it('does day arithmetic across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
    expect(daysBetween('2026-01-01', '2027-01-01')).toBe(365);
    expect(dayNumber('1970-01-01')).toBe(0);
  });

  it('knows the weekday (0 = Sunday)', () => {
    expect(weekday('2026-01-01')).toBe(4); // Thursday
    expect(weekday('2026-02-17')).toBe(2); // Tuesday, Lunar New Year
    expect(weekday('2027-02-06')).toBe(6); // Saturday
  });
});

describe('macauDate', () => {
  it('is UTC+8 with no daylight saving', () => {
    expect(macauDate(Date.parse('2026-02-16T15:59:59.999Z'))).toBe('2026-02-16');
    expect(macauDate(Date.parse('2026-02-16T16:00:00.000Z'))).toBe('2026-02-17');
    // July: no summer time, still +8.
    expect(macauDate(Date.parse('2026-07-01T15:59:59Z'))).toBe('2026-07-01');
    expect(macauDate(Date.parse('2026-12-31T16:00:00Z'))).toBe('2027-01-01');
  });

  it('refuses what is not an instant', () => {
    expect(() => macauDate(Number.NaN)).toThrow(RangeError);
    expect(() => macauDate(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
