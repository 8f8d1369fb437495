import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLED_HOLIDAY_YEARS } from './bundled-holidays.js';
import { readHolidayDirectory } from './holiday-files.js';
import { type HolidayIssueCode, parseHolidayYear } from './holiday-list.js';
import { weekday } from './iso-date.js';

const valid = () => ({
  year: 2030,
  source: 'test',
  official: false,
  days: [
    { date: '2030-10-01', name: 'National Day', kind: 'holiday', obligatory: true },
    { date: '2030-01-01', name: "New Year's Day", kind: 'holiday' },
  ],
});

function issueCodes(doc: unknown): HolidayIssueCode[] {
  const parsed = parseHolidayYear(doc);
  if (parsed.ok) throw new Error('expected a refusal');
  expect(parsed.error.code).toBe('holiday_list_invalid');
  expect(parsed.error.article).toBe('8');
  return parsed.error.issues.map((i) => i.code);
}

describe('parseHolidayYear', () => {
  it('accepts a valid list and sorts it by date', () => {
    const parsed = parseHolidayYear(valid());
    expect(parsed.ok && parsed.value.days.map((d) => d.date)).toEqual(['2030-01-01', '2030-10-01']);
  });

  it.each([
    ['a date that does not exist', '2030-02-30', 'holiday_date_invalid'],
    ['a date not written YYYY-MM-DD', '2030-2-3', 'holiday_date_invalid'],
    ['a date outside the declared year', '2031-01-01', 'holiday_date_outside_year'],
    ['a duplicate date', '2030-01-01', 'holiday_date_duplicate'],
  ])('refuses %s', (_, date, code) => {
    const doc = valid();
    doc.days.push({ date, name: 'x', kind: 'holiday' });
    expect(issueCodes(doc)).toEqual([code]);
  });

  it.each([
    ['not an object', 'holidays'],
    ['an unknown field', { ...valid(), extra: 1 }],
    ['a fractional year', { ...valid(), year: 2030.5 }],
    ['no days', { ...valid(), days: [] }],
    [
      'an unknown kind',
      { ...valid(), days: [{ date: '2030-01-01', name: 'x', kind: 'half-day' }] },
    ],
    ['a blank name', { ...valid(), days: [{ date: '2030-01-01', name: ' ', kind: 'holiday' }] }],
    ['no "official" flag', { year: 2030, source: 's', days: valid().days }],
  ])('refuses a malformed document: %s', (_, doc) => {
    expect(issueCodes(doc)[0]).toBe('holiday_list_malformed');
  });

  it('lists every problem, not just the first', () => {
    const doc = valid();
    doc.days.push({ date: '2031-05-01', name: 'x', kind: 'holiday' });
    doc.days.push({ date: '2030-10-01', name: 'y', kind: 'holiday' });
    expect(issueCodes(doc)).toEqual(['holiday_date_outside_year', 'holiday_date_duplicate']);
  });
});

describe('the shipped lists', () => {
  const [y2026, y2027] = BUNDLED_HOLIDAY_YEARS;

  it('are 2026 (official) and 2027 (computed, not official), 26 days each', () => {
    expect([y2026?.year, y2026?.official, y2026?.days.length]).toEqual([2026, true, 26]);
    expect([y2027?.year, y2027?.official, y2027?.days.length]).toEqual([2027, false, 26]);
  });

  it('transcribe macau-holidays.md (spot checks)', () => {
    const find = (date: string) =>
      [...(y2026?.days ?? []), ...(y2027?.days ?? [])].find((d) => d.date === date);
    expect(find('2026-02-17')).toEqual({
      date: '2026-02-17',
      name: 'Lunar New Year, day 1',
      kind: 'holiday',
      obligatory: true,
    });
    expect(find('2026-04-06')).toEqual({
      date: '2026-04-06',
      name: 'compensatory day',
      kind: 'compensatory',
    });
    expect(find('2027-02-10')?.kind).toBe('compensatory');
    expect(find('2027-12-27')?.kind).toBe('compensatory');
    expect(find('2026-02-16')).toBeUndefined(); // Lunar New Year's Eve: a half day, not listed
    expect(find('2026-12-31')).toBeUndefined();
  });

  it('agree with their own weekday notes, and compensatory days fall on weekdays', () => {
    const names = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
    for (const day of [...(y2026?.days ?? []), ...(y2027?.days ?? [])]) {
      const note = /\((\w+day)\)$/.exec(day.name)?.[1];
      if (note !== undefined)
        expect(`${day.date} ${names[weekday(day.date)]}`).toBe(`${day.date} ${note}`);
      if (day.kind === 'compensatory') expect([1, 2, 3, 4, 5]).toContain(weekday(day.date));
    }
  });
});

describe('readHolidayDirectory', () => {
  it('reads the shipped directory to the same lists', () => {
    const dir = fileURLToPath(new URL('./holidays/', import.meta.url));
    const read = readHolidayDirectory(dir);
    expect(read.ok && read.value).toEqual(BUNDLED_HOLIDAY_YEARS);
  });

  it('refuses a directory with a file that is not JSON or names the wrong year', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cussec-holidays-'));
    writeFileSync(join(dir, '2031.json'), JSON.stringify(valid()));
    const wrongYear = readHolidayDirectory(dir);
    expect(!wrongYear.ok && wrongYear.error.file).toBe('2031.json');
    writeFileSync(join(dir, '2031.json'), '{ not json');
    const notJson = readHolidayDirectory(dir);
    expect(!notJson.ok && notJson.error.error.message).toMatch(/not JSON/);
  });
});
