/**
 * Calendar dates as ISO `YYYY-MM-DD` strings, in Macau local time.
 *
 * Art. 8 counts "dias úteis", days of the Macau calendar, so every date here is
 * a Macau date. Macau is UTC+8 all year (no daylight saving), which makes the
 * conversion from an instant a fixed shift. Dates are plain strings so that
 * they store as JSON and compare in calendar order as text.
 */

/** A calendar date, `YYYY-MM-DD`, four-digit year. */
export type IsoDate = string;

/** Macau's offset from UTC: eight hours, all year. */
export const MACAU_UTC_OFFSET_MS = 8 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const ISO_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a valid date, or null for anything else (2026-02-30, "2026-2-3"). */
export function dayNumber(date: string): number | null {
  const match = ISO_DATE_PATTERN.exec(date);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  // Date.UTC maps years 0..99 to 1900..1999; the round trip below catches that too.
  const days = ms / DAY_MS;
  return dateOfDayNumber(days) === date ? days : null;
}

/** The date `days` after 1970-01-01; the inverse of {@link dayNumber}. */
export function dateOfDayNumber(days: number): IsoDate {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

export function isIsoDate(value: unknown): value is IsoDate {
  return typeof value === 'string' && dayNumber(value) !== null;
}

function mustDayNumber(date: IsoDate): number {
  const days = dayNumber(date);
  if (days === null) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return days;
}

/** The date `days` later (or earlier, when negative). Throws on an invalid date: a programming error. */
export function addDays(date: IsoDate, days: number): IsoDate {
  return dateOfDayNumber(mustDayNumber(date) + days);
}

/** 0 = Sunday … 6 = Saturday. 1970-01-01 was a Thursday. */
export function weekday(date: IsoDate): number {
  return (((mustDayNumber(date) + 4) % 7) + 7) % 7;
}

export function isWeekend(date: IsoDate): boolean {
  const day = weekday(date);
  return day === 0 || day === 6;
}

export function yearOf(date: IsoDate): number {
  return Number(date.slice(0, 4));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return mustDayNumber(to) - mustDayNumber(from);
}

/**
 * The Macau calendar date of an instant (milliseconds since the Unix epoch).
 * 2026-02-16T16:00:00Z is already 2026-02-17 in Macau.
 */
export function macauDate(epochMs: number): IsoDate {
  if (!Number.isFinite(epochMs)) throw new RangeError(`not an instant: ${epochMs}`);
  const date = new Date(epochMs + MACAU_UTC_OFFSET_MS).toISOString().slice(0, 10);
  if (!ISO_DATE_PATTERN.test(date)) throw new RangeError(`instant out of range: ${epochMs}`);
  return date;
}
