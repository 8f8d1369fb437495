import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUNDLED_HOLIDAY_YEARS, bundledCalendar } from './bundled-holidays.js';
import {
  createCalendar,
  dayKind,
  earliestAdoptionDate,
  isTimelyRequest,
  latestRequestDate,
  withHolidayYear,
  workingDaysBetween,
} from './calendar.js';
import { parseHolidayYear } from './holiday-list.js';
import { addDays, dateOfDayNumber, dayNumber } from './iso-date.js';

const calendar = bundledCalendar();
const only2026 = createCalendar(BUNDLED_HOLIDAY_YEARS.filter((y) => y.year === 2026));

function value<T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!result.ok) throw new Error(`unexpected error: ${JSON.stringify(result.error)}`);
  return result.value;
}

describe('working days', () => {
  it.each([
    ['2026-03-06', 'working'], // Friday
    ['2026-03-07', 'weekend'],
    ['2026-03-08', 'weekend'],
    ['2026-02-16', 'working'], // Lunar New Year's Eve: a half day counts as a working day
    ['2026-02-17', 'holiday'],
    ['2026-04-04', 'holiday'], // a listed Saturday is reported as the holiday
    ['2026-04-06', 'compensatory'],
    ['2026-12-31', 'working'], // afternoon off only
    ['2027-02-05', 'working'], // Lunar New Year's Eve 2027
    ['2027-02-10', 'compensatory'],
  ])('%s is a %s day', (date, kind) => {
    expect(value(dayKind(calendar, date))).toBe(kind);
  });

  it('counts strictly between the two dates', () => {
    expect(value(workingDaysBetween(calendar, '2026-03-02', '2026-03-06'))).toBe(3); // Tue–Thu
    expect(value(workingDaysBetween(calendar, '2026-03-02', '2026-03-03'))).toBe(0);
    expect(value(workingDaysBetween(calendar, '2026-03-06', '2026-03-02'))).toBe(0);
    expect(value(workingDaysBetween(calendar, '2026-02-13', '2026-02-24'))).toBe(3); // 16, 20, 23
  });
});

describe('Art. 8: three working days of notice', () => {
  it.each([
    // request,     earliest adoption, why
    ['2026-03-02', '2026-03-06', 'Mon: Tue, Wed, Thu count; Friday is the first day'],
    ['2026-03-05', '2026-03-11', 'Thu: Fri, Mon, Tue'],
    ['2026-03-07', '2026-03-12', 'Sat: Mon, Tue, Wed'],
    ['2026-02-13', '2026-02-24', 'Lunar New Year 2026: Mon 16 (half day), Fri 20, Mon 23'],
    ['2026-02-16', '2026-02-25', 'Lunar New Year 2026: Fri 20, Mon 23, Tue 24'],
    ['2026-04-01', '2026-04-10', 'Easter and Ching Ming: Thu 2, then Wed 8 and Thu 9'],
    ['2026-12-18', '2026-12-30', 'December 2026: Wed 23, Mon 28, Tue 29'],
    ['2026-12-29', '2027-01-05', 'year end: Wed 30, Thu 31 (half day), Mon 4 Jan'],
    ['2027-02-04', '2027-02-13', 'Lunar New Year 2027: Fri 5, Thu 11, Fri 12 — a Saturday'],
  ])('requested %s: earliest adoption %s (%s)', (request, earliest) => {
    expect(value(earliestAdoptionDate(calendar, request))).toBe(earliest);
    expect(value(isTimelyRequest(calendar, request, earliest))).toBe(true);
    expect(value(isTimelyRequest(calendar, request, addDays(earliest, -1)))).toBe(false);
    expect(value(latestRequestDate(calendar, earliest)) >= request).toBe(true);
  });

  it.each([
    ['2026-03-09', '2026-03-03'],
    ['2027-02-13', '2027-02-04'],
    ['2027-01-05', '2026-12-29'],
    ['2026-04-08', '2026-03-30'], // after Easter: Thu 2 Apr, Wed 1, Tue 31 Mar count
  ])('adopting on %s: request by %s at the latest', (adoption, latest) => {
    expect(value(latestRequestDate(calendar, adoption))).toBe(latest);
    expect(value(isTimelyRequest(calendar, latest, adoption))).toBe(true);
    expect(value(isTimelyRequest(calendar, addDays(latest, 1), adoption))).toBe(false);
  });

  it('an adoption date on or before the request is never timely', () => {
    expect(value(isTimelyRequest(calendar, '2026-03-02', '2026-03-02'))).toBe(false);
    expect(value(isTimelyRequest(calendar, '2026-03-20', '2026-03-02'))).toBe(false);
  });
});

describe('a year with no list is refused, never guessed', () => {
  const missing = (result: { ok: boolean; error?: unknown }) =>
    result.ok ? null : (result.error as { code: string; year: number });

  it('refuses a date in an unlisted year', () => {
    expect(missing(dayKind(calendar, '2028-03-01'))).toMatchObject({
      code: 'calendar_year_missing',
      year: 2028,
    });
    expect(missing(dayKind(calendar, '2025-12-31'))).toMatchObject({ year: 2025 });
  });

  it('needs both lists when counting crosses the year end', () => {
    expect(missing(isTimelyRequest(only2026, '2026-12-29', '2027-01-05'))).toMatchObject({
      year: 2027,
    });
    expect(missing(earliestAdoptionDate(only2026, '2026-12-29'))).toMatchObject({ year: 2027 });
    expect(missing(latestRequestDate(only2026, '2027-01-05'))).toMatchObject({ year: 2027 });
    // Even when three working days are found before the year ends, the adoption date's year must be listed.
    expect(missing(isTimelyRequest(only2026, '2026-12-22', '2027-01-04'))).toMatchObject({
      year: 2027,
    });
  });

  it('names the year whose list is missing at the far end too', () => {
    expect(missing(earliestAdoptionDate(calendar, '2027-12-28'))).toMatchObject({ year: 2028 });
  });

  it('refuses a malformed date', () => {
    expect(missing(isWorkingDayLike('2026-02-30'))).toMatchObject({ code: 'date_invalid' });
  });

  it('works once the missing year is loaded', () => {
    const parsed = value(
      parseHolidayYear({
        year: 2028,
        source: 't',
        official: false,
        days: [{ date: '2028-01-01', name: "New Year's Day", kind: 'holiday' }],
      }),
    );
    const extended = withHolidayYear(calendar, parsed);
    expect(value(earliestAdoptionDate(extended, '2027-12-28'))).toBe('2028-01-01');
  });
});

function isWorkingDayLike(date: string) {
  return dayKind(calendar, date);
}

describe('properties over 2026–2027', () => {
  const first = dayNumber('2026-01-01')!;
  const last = dayNumber('2027-12-15')!; // leaves room for the earliest adoption date inside 2027
  const date = fc.integer({ min: first, max: last }).map(dateOfDayNumber);

  it('the earliest adoption date is timely and the day before it is not', () => {
    fc.assert(
      fc.property(date, (request) => {
        const earliest = value(earliestAdoptionDate(calendar, request));
        expect(value(isTimelyRequest(calendar, request, earliest))).toBe(true);
        expect(value(isTimelyRequest(calendar, request, addDays(earliest, -1)))).toBe(false);
      }),
    );
  });

  it('timely exactly from the earliest adoption date on (monotone in the adoption date)', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: 0, max: 30 }), (request, offset) => {
        const adoption = addDays(request, offset);
        fc.pre(adoption <= '2027-12-31');
        const earliest = value(earliestAdoptionDate(calendar, request));
        expect(value(isTimelyRequest(calendar, request, adoption))).toBe(adoption >= earliest);
      }),
    );
  });

  it('a later request never gives an earlier adoption date', () => {
    fc.assert(
      fc.property(date, date, (a, b) => {
        const [r1, r2] = a <= b ? [a, b] : [b, a];
        expect(
          value(earliestAdoptionDate(calendar, r1)) <= value(earliestAdoptionDate(calendar, r2)),
        ).toBe(true);
      }),
    );
  });

  it('timely iff requested no later than the latest request date', () => {
    const adoptionDate = fc.integer({ min: first + 20, max: last }).map(dateOfDayNumber);
    fc.assert(
      fc.property(adoptionDate, fc.integer({ min: 0, max: 19 }), (adoption, back) => {
        const request = addDays(adoption, -back);
        const latest = value(latestRequestDate(calendar, adoption));
        expect(value(isTimelyRequest(calendar, request, adoption))).toBe(request <= latest);
      }),
    );
  });

  it('counts the same as a brute-force count straight from the JSON lists', () => {
    const off = new Set(BUNDLED_HOLIDAY_YEARS.flatMap((y) => y.days.map((d) => d.date)));
    const working = (d: string) =>
      ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()) && !off.has(d);
    fc.assert(
      fc.property(date, fc.integer({ min: 0, max: 40 }), (from, span) => {
        const to = addDays(from, span);
        fc.pre(to <= '2027-12-31');
        let expected = 0;
        for (let d = addDays(from, 1); d < to; d = addDays(d, 1)) if (working(d)) expected++;
        expect(value(workingDaysBetween(calendar, from, to))).toBe(expected);
      }),
    );
  });
});
