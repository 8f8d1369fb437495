/**
 * A year's list of Macau public holidays, as data (Art. 8 counts "dias úteis").
 *
 * The lists change every year (the lunar holidays move, a holiday on a Sunday
 * gives a compensatory day) and are published by the government late in the
 * year before, so they are documents a supervisor loads, not code. This module
 * only validates: a malformed list is refused whole, with every problem named,
 * because one wrong date silently moves every Art. 8 deadline near it.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../rules/errors.js';
import { type IsoDate, isIsoDate, yearOf } from './iso-date.js';

export type HolidayKind = 'holiday' | 'compensatory';

export interface HolidayDay {
  readonly date: IsoDate;
  readonly name: string;
  /** A public holiday, or a compensatory day given to the public administration. */
  readonly kind: HolidayKind;
  /** Law 7/2008 art. 44: one of the obligatory holidays (informative; both kinds are days off). */
  readonly obligatory?: boolean;
}

export interface HolidayYear {
  readonly year: number;
  /** Where the list comes from (gazette, gov.mo page, "computed from the rules"). */
  readonly source: string;
  /** False for a list computed ahead of the government's publication. */
  readonly official: boolean;
  /** Sorted by date, no duplicates, all inside `year`. */
  readonly days: readonly HolidayDay[];
}

export const HOLIDAY_ISSUE_CODES = [
  'holiday_list_malformed',
  'holiday_date_invalid',
  'holiday_date_outside_year',
  'holiday_date_duplicate',
] as const;

export type HolidayIssueCode = (typeof HOLIDAY_ISSUE_CODES)[number];

export interface HolidayIssue {
  readonly code: HolidayIssueCode;
  /** Where in the document, e.g. "days.3.date". */
  readonly path: string;
  readonly message: string;
}

export interface HolidayListError {
  readonly code: 'holiday_list_invalid';
  readonly message: string;
  readonly article: '8';
  readonly issues: readonly HolidayIssue[];
}

/** A year has a few dozen holidays at most; the limit keeps a bad upload from being huge. */
export const HOLIDAY_DAYS_MAX = 100;
export const HOLIDAY_TEXT_LENGTH_MAX = 200;

const text = z.string().trim().min(1).max(HOLIDAY_TEXT_LENGTH_MAX);

const holidayDaySchema = z.strictObject({
  date: z.string(),
  name: text,
  kind: z.enum(['holiday', 'compensatory']),
  obligatory: z.boolean().exactOptional(),
});

export const holidayYearSchema = z.strictObject({
  year: z.number().int().min(1900).max(9999),
  source: text,
  official: z.boolean(),
  days: z.array(holidayDaySchema).min(1).max(HOLIDAY_DAYS_MAX),
});

type HolidayYearDoc = z.infer<typeof holidayYearSchema>;

function dateIssues(doc: HolidayYearDoc): HolidayIssue[] {
  const issues: HolidayIssue[] = [];
  const seen = new Map<string, number>();
  doc.days.forEach((day, i) => {
    const path = `days.${i}.date`;
    if (!isIsoDate(day.date)) {
      issues.push({
        code: 'holiday_date_invalid',
        path,
        message: `${JSON.stringify(day.date)} is not a YYYY-MM-DD date`,
      });
      return;
    }
    if (yearOf(day.date) !== doc.year) {
      issues.push({
        code: 'holiday_date_outside_year',
        path,
        message: `${day.date} is not in the list's year ${doc.year}`,
      });
    }
    const first = seen.get(day.date);
    if (first !== undefined) {
      issues.push({
        code: 'holiday_date_duplicate',
        path,
        message: `${day.date} is listed twice (days.${first} and days.${i})`,
      });
    } else seen.set(day.date, i);
  });
  return issues;
}

function refuse(issues: readonly HolidayIssue[]): Result<never, HolidayListError> {
  const first = issues[0]!;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return err({
    code: 'holiday_list_invalid',
    message: `holiday list refused: ${first.path}: ${first.message}${more}`,
    article: '8',
    issues,
  });
}

/**
 * Validates a year's holiday list (parsed JSON). Refuses malformed documents,
 * dates that do not exist, dates outside the declared year and duplicates.
 * Returns the days sorted by date.
 */
export function parseHolidayYear(doc: unknown): Result<HolidayYear, HolidayListError> {
  const parsed = holidayYearSchema.safeParse(doc);
  if (!parsed.success) {
    return refuse(
      parsed.error.issues.map((issue) => ({
        code: 'holiday_list_malformed',
        path: issue.path.map(String).join('.') || '(document)',
        message: issue.message,
      })),
    );
  }
  const issues = dateIssues(parsed.data);
  if (issues.length > 0) return refuse(issues);
  const days = parsed.data.days
    .map(({ obligatory, ...day }) => (obligatory === undefined ? day : { ...day, obligatory }))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
  return ok({ ...parsed.data, days });
}
