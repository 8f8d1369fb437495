/**
 * The holiday lists shipped with Cussec (src/compliance/holidays/*.json). They
 * are imported as JSON modules, so the build copies them next to this file and
 * nothing is read at run time; they still go through the same validation as a
 * list a supervisor uploads. A supervisor replaces or adds years with
 * `withHolidayYear` (e.g. the official 2027 list once it is published).
 */
import { createCalendar, type WorkingDayCalendar } from './calendar.js';
import { type HolidayYear, parseHolidayYear } from './holiday-list.js';
import holidays2026 from './holidays/2026.json' with { type: 'json' };
import holidays2027 from './holidays/2027.json' with { type: 'json' };

function mustParse(doc: unknown): HolidayYear {
  const parsed = parseHolidayYear(doc);
  // A shipped list that does not validate is a build defect, not an operating error.
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** 2026 (official) and 2027 (computed, `official: false`). */
export const BUNDLED_HOLIDAY_YEARS: readonly HolidayYear[] = [holidays2026, holidays2027].map(
  mustParse,
);

/** A calendar of the shipped lists. */
export function bundledCalendar(): WorkingDayCalendar {
  return createCalendar(BUNDLED_HOLIDAY_YEARS);
}
