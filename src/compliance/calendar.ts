/**
 * Working days ("dias úteis") for Art. 8, and the Art. 8 deadline.
 *
 * Art. 8: the house's options need the DICJ's prior authorization, "a qual deve
 * ser solicitada com uma antecedência de três dias úteis, relativamente à data
 * prevista para a sua adopção". A working day is Monday to Friday, not a public
 * holiday and not a compensatory day; half days (the afternoons of Lunar New
 * Year's Eve and of 31 December) are working days.
 *
 * Counting rule (see docs/compliance.md): the working days strictly after the
 * request date and strictly before the adoption date are counted; the request
 * is timely iff there are at least three. Neither the day of the request nor
 * the day of adoption counts, so the DICJ always has three whole working days.
 *
 * A date in a year without a holiday list is refused, never guessed: every
 * year from the first date involved to the last must have a list.
 */
import { err, ok, type Result } from '../rules/errors.js';
import type { HolidayDay, HolidayYear } from './holiday-list.js';
import { addDays, type IsoDate, isIsoDate, isWeekend, yearOf } from './iso-date.js';

/** Art. 8: "três dias úteis". */
export const ART8_WORKING_DAYS = 3;

export interface WorkingDayCalendar {
  /** The lists loaded, by year. */
  readonly years: ReadonlyMap<number, HolidayYear>;
  /** Every listed day off, by date. */
  readonly daysOff: ReadonlyMap<IsoDate, HolidayDay>;
}

export type CalendarError =
  | {
      readonly code: 'calendar_year_missing';
      readonly year: number;
      readonly message: string;
      readonly article: '8';
    }
  | {
      readonly code: 'date_invalid';
      readonly date: string;
      readonly message: string;
      readonly article: '8';
    };

export type CalendarResult<T> = Result<T, CalendarError>;

/** A calendar from year lists (from `parseHolidayYear`); a later list of the same year replaces an earlier one. */
export function createCalendar(years: readonly HolidayYear[]): WorkingDayCalendar {
  const byYear = new Map<number, HolidayYear>();
  for (const list of years) byYear.set(list.year, list);
  const daysOff = new Map<IsoDate, HolidayDay>();
  for (const list of byYear.values()) for (const day of list.days) daysOff.set(day.date, day);
  return { years: byYear, daysOff };
}

/** The calendar with `list` added, or replacing the list of its year (e.g. the official 2027 list). */
export function withHolidayYear(
  calendar: WorkingDayCalendar,
  list: HolidayYear,
): WorkingDayCalendar {
  return createCalendar([...calendar.years.values(), list]);
}

function missingYear(year: number): CalendarResult<never> {
  return err({
    code: 'calendar_year_missing',
    year,
    message: `no public-holiday list for ${year}: load it before counting working days in ${year} (Art. 8)`,
    article: '8',
  });
}

function invalidDate(date: string): CalendarResult<never> {
  return err({
    code: 'date_invalid',
    date,
    message: `${JSON.stringify(date)} is not a YYYY-MM-DD date`,
    article: '8',
  });
}

/** Checks that `date` is valid and that its year has a list. */
function checkDate(calendar: WorkingDayCalendar, date: string): CalendarResult<IsoDate> {
  if (!isIsoDate(date)) return invalidDate(date);
  return calendar.years.has(yearOf(date)) ? ok(date) : missingYear(yearOf(date));
}

export type DayKind = 'working' | 'weekend' | 'holiday' | 'compensatory';

/** What kind of day `date` is. A listed holiday on a weekend is reported as the holiday. */
export function dayKind(calendar: WorkingDayCalendar, date: string): CalendarResult<DayKind> {
  const checked = checkDate(calendar, date);
  if (!checked.ok) return checked;
  const off = calendar.daysOff.get(date);
  if (off !== undefined) return ok(off.kind);
  return ok(isWeekend(date) ? 'weekend' : 'working');
}

export function isWorkingDay(calendar: WorkingDayCalendar, date: string): CalendarResult<boolean> {
  const kind = dayKind(calendar, date);
  return kind.ok ? ok(kind.value === 'working') : kind;
}

/** Working days strictly after `from` and strictly before `to`; 0 when `to` is not after `from`. */
export function workingDaysBetween(
  calendar: WorkingDayCalendar,
  from: string,
  to: string,
): CalendarResult<number> {
  const start = checkDate(calendar, from);
  if (!start.ok) return start;
  const end = checkDate(calendar, to);
  if (!end.ok) return end;
  let count = 0;
  for (let day = addDays(from, 1); day < to; day = addDays(day, 1)) {
    const working = isWorkingDay(calendar, day);
    if (!working.ok) return working;
    if (working.value) count++;
  }
  return ok(count);
}

/**
 * The `n`-th working day counted from `date` (exclusive) in direction `step`
 * (+1 forward, −1 back). Every day examined must be in a listed year.
 */
function nthWorkingDay(
  calendar: WorkingDayCalendar,
  date: IsoDate,
  n: number,
  step: 1 | -1,
): CalendarResult<IsoDate> {
  let found = 0;
  let day = date;
  while (found < n) {
    day = addDays(day, step);
    const working = isWorkingDay(calendar, day);
    if (!working.ok) return working;
    if (working.value) found++;
  }
  return ok(day);
}

/**
 * Art. 8: the first date on which options requested on `requestDate` may be
 * adopted: the day after the third working day after the request.
 */
export function earliestAdoptionDate(
  calendar: WorkingDayCalendar,
  requestDate: string,
): CalendarResult<IsoDate> {
  const start = checkDate(calendar, requestDate);
  if (!start.ok) return start;
  const third = nthWorkingDay(calendar, requestDate, ART8_WORKING_DAYS, 1);
  if (!third.ok) return third;
  const earliest = addDays(third.value, 1);
  // The adoption date itself must be in a listed year too, so that this agrees with isTimelyRequest.
  const end = checkDate(calendar, earliest);
  return end.ok ? ok(earliest) : end;
}

/**
 * Art. 8: the last date on which options to be adopted on `adoptionDate` may be
 * requested: the day before the third working day before adoption.
 */
export function latestRequestDate(
  calendar: WorkingDayCalendar,
  adoptionDate: string,
): CalendarResult<IsoDate> {
  const end = checkDate(calendar, adoptionDate);
  if (!end.ok) return end;
  const third = nthWorkingDay(calendar, adoptionDate, ART8_WORKING_DAYS, -1);
  if (!third.ok) return third;
  const latest = addDays(third.value, -1);
  const start = checkDate(calendar, latest);
  return start.ok ? ok(latest) : start;
}

export interface Timeliness {
  readonly timely: boolean;
  /** Working days strictly between the request and the adoption date. */
  readonly workingDays: number;
  readonly required: typeof ART8_WORKING_DAYS;
}

/** Art. 8: is a request made on `requestDate` timely for adoption on `adoptionDate`? */
export function checkTimeliness(
  calendar: WorkingDayCalendar,
  requestDate: string,
  adoptionDate: string,
): CalendarResult<Timeliness> {
  const count = workingDaysBetween(calendar, requestDate, adoptionDate);
  if (!count.ok) return count;
  return ok({
    timely: count.value >= ART8_WORKING_DAYS,
    workingDays: count.value,
    required: ART8_WORKING_DAYS,
  });
}

/** {@link checkTimeliness} reduced to yes or no. */
export function isTimelyRequest(
  calendar: WorkingDayCalendar,
  requestDate: string,
  adoptionDate: string,
): CalendarResult<boolean> {
  const verdict = checkTimeliness(calendar, requestDate, adoptionDate);
  return verdict.ok ? ok(verdict.value.timely) : verdict;
}
