/**
 * A person's age on a date, for the casino's age limit.
 *
 * Lei 10/2012, art. 2: persons under 21 may not enter a casino, so may not
 * play. Ages are counted on Macau calendar dates, passed in by the caller
 * (this module reads no clock). A year of life is completed on the birthday
 * itself: a person born on 2005-06-10 is 21 from 2026-06-10.
 *
 * The 29 February rule: a person born on 29 February completes a year, in a
 * year that has no 29 February, on 1 March — never on 28 February, because on
 * 28 February they have not yet lived the whole year. This follows the Macau
 * Civil Code, art. 272 c): a period in years whose last month has no
 * corresponding day ends on that month's last day, at 24:00; the person
 * completes the years at the end of 28 February, so is of age from 1 March.
 * {@link addYears} applies the same rule to every period counted in years (the
 * two-year limit of an exclusion order, Lei 10/2012, art. 6).
 */
import { type IsoDate, isIsoDate, yearOf } from '../iso-date.js';

/** Lei 10/2012, art. 2: no entry under 21. */
export const LEGAL_AGE_YEARS = 21;

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/**
 * The same month and day `years` later (earlier when negative); 29 February
 * becomes 1 March in a year without it (Civil Code, art. 272 c), see above).
 * Throws a RangeError for an invalid date or a year outside 100..9999.
 */
export function addYears(date: IsoDate, years: number): IsoDate {
  if (!isIsoDate(date) || !Number.isInteger(years)) {
    throw new RangeError(`addYears: ${JSON.stringify(date)} + ${years} years`);
  }
  const year = yearOf(date) + years;
  const monthDay = date.slice(5);
  const same = `${pad(year, 4)}-${monthDay}`;
  if (isIsoDate(same)) return same;
  const marchFirst = `${pad(year, 4)}-03-01`;
  if (monthDay === '02-29' && isIsoDate(marchFirst)) return marchFirst;
  throw new RangeError(`addYears: year ${year} is out of range`);
}

/** The first date on which a person born on `dateOfBirth` is `years` old. */
export function reachesAgeOn(dateOfBirth: IsoDate, years: number): IsoDate {
  return addYears(dateOfBirth, years);
}

/**
 * Whole years completed on `on`: the greatest n with `on >= reachesAgeOn(dateOfBirth, n)`.
 * Negative when `on` is before the birth, which the caller treats as a wrong date of birth.
 */
export function ageOn(dateOfBirth: IsoDate, on: IsoDate): number {
  if (!isIsoDate(on)) throw new RangeError(`ageOn: not a YYYY-MM-DD date: ${JSON.stringify(on)}`);
  const years = yearOf(on) - yearOf(dateOfBirth);
  // This year's anniversary falls in the year of `on` (1 March at the latest), so
  // the age is `years` once it has come and one less before.
  return on >= reachesAgeOn(dateOfBirth, years) ? years : years - 1;
}

/** Lei 10/2012, art. 2: whether the person is 21 or older on `on`. */
export function isOfLegalAge(dateOfBirth: IsoDate, on: IsoDate): boolean {
  return ageOn(dateOfBirth, on) >= LEGAL_AGE_YEARS;
}
