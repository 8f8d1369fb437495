import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateOfDayNumber, dayNumber, isIsoDate } from '../iso-date.js';
import { addYears, ageOn, isOfLegalAge, LEGAL_AGE_YEARS, reachesAgeOn } from './age.js';

describe('ageOn', () => {
  it.each([
    // The day before the 21st birthday, and the birthday itself.
    ['2005-06-10', '2026-06-09', 20],
    ['2005-06-10', '2026-06-10', 21],
    ['2005-06-10', '2027-06-09', 21],
    // Born on 29 February: 1 March in a year without it, never 28 February.
    ['2004-02-29', '2025-02-28', 20],
    ['2004-02-29', '2025-03-01', 21],
    ['2008-02-29', '2029-02-28', 20],
    ['2008-02-29', '2029-03-01', 21],
    ['2000-02-29', '2021-02-28', 20],
    ['2000-02-29', '2021-03-01', 21],
    // In a leap year the birthday is 29 February itself.
    ['2004-02-29', '2028-02-28', 23],
    ['2004-02-29', '2028-02-29', 24],
    // Born on 28 February or 1 March: no special rule.
    ['2005-02-28', '2026-02-28', 21],
    ['2005-03-01', '2026-02-28', 20],
    // The day of birth, and a date before it (the caller refuses it).
    ['2000-01-01', '2000-01-01', 0],
    ['2000-01-01', '1999-12-31', -1],
  ])('born %s, on %s: %i', (born, on, age) => {
    expect(ageOn(born, on)).toBe(age);
  });

  it('is 21 at the earliest on reachesAgeOn(…, 21)', () => {
    expect(reachesAgeOn('2004-02-29', LEGAL_AGE_YEARS)).toBe('2025-03-01');
    expect(reachesAgeOn('2008-02-29', LEGAL_AGE_YEARS)).toBe('2029-03-01');
    expect(reachesAgeOn('2000-02-29', LEGAL_AGE_YEARS)).toBe('2021-03-01');
    expect(reachesAgeOn('2012-02-29', LEGAL_AGE_YEARS)).toBe('2033-03-01');
    expect(reachesAgeOn('2016-02-29', LEGAL_AGE_YEARS)).toBe('2037-03-01');
    expect(isOfLegalAge('2005-06-10', '2026-06-09')).toBe(false);
    expect(isOfLegalAge('2005-06-10', '2026-06-10')).toBe(true);
  });

  it('refuses a date that does not exist', () => {
    expect(() => ageOn('2001-02-29', '2026-01-01')).toThrow(RangeError);
    expect(() => ageOn('2000-01-01', '2026-02-30')).toThrow(RangeError);
  });
});

describe('addYears', () => {
  it.each([
    ['2026-01-10', 2, '2028-01-10'],
    ['2024-02-29', 4, '2028-02-29'],
    ['2024-02-29', 1, '2025-03-01'],
    ['2024-02-29', -1, '2023-03-01'],
    ['2026-12-31', 1, '2027-12-31'],
    ['2026-03-01', 0, '2026-03-01'],
  ])('%s + %i years = %s', (date, years, expected) => {
    expect(addYears(date, years)).toBe(expected);
  });
});

const day1900 = dayNumber('1900-01-01')!;
const day2030 = dayNumber('2030-12-31')!;
const day2200 = dayNumber('2200-12-31')!;
// Many leap-day births, since that is where the rule bites.
const birth = fc.oneof(
  fc.integer({ min: day1900, max: day2030 }).map(dateOfDayNumber),
  fc
    .integer({ min: 475, max: 507 })
    .map((leap) => `${leap * 4}-02-29`)
    .filter(isIsoDate), // 1900 was not a leap year
);

describe('ageOn agrees with reachesAgeOn', () => {
  it('ageOn(b, d) >= n iff d >= reachesAgeOn(b, n)', () => {
    fc.assert(
      fc.property(
        birth,
        fc.integer({ min: day1900, max: day2200 }).map(dateOfDayNumber),
        fc.integer({ min: 0, max: 150 }),
        (born, on, n) => {
          expect(ageOn(born, on) >= n).toBe(on >= reachesAgeOn(born, n));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('the age rises by one exactly on each reachesAgeOn date', () => {
    fc.assert(
      fc.property(birth, fc.integer({ min: 1, max: 120 }), (born, n) => {
        const first = reachesAgeOn(born, n);
        expect(ageOn(born, first)).toBe(n);
        expect(ageOn(born, dateOfDayNumber(dayNumber(first)! - 1))).toBe(n - 1);
      }),
    );
  });
});
