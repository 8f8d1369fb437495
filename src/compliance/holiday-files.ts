/**
 * Reading holiday lists from a directory of `YYYY.json` files: the only I/O of
 * the compliance module, kept here so that the calendar itself stays pure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { err, ok, type Result } from '../rules/errors.js';
import { type HolidayListError, type HolidayYear, parseHolidayYear } from './holiday-list.js';

export interface HolidayFileError {
  readonly file: string;
  readonly error: HolidayListError;
}

const YEAR_FILE = /^\d{4}\.json$/;

/**
 * Parses every `YYYY.json` in `directory`. Refuses the whole directory when a
 * file is not JSON, does not validate, or declares another year than its name:
 * a half-loaded calendar would answer Art. 8 questions wrongly.
 */
export function readHolidayDirectory(directory: string): Result<HolidayYear[], HolidayFileError> {
  const files = readdirSync(directory)
    .filter((f) => YEAR_FILE.test(f))
    .sort();
  const years: HolidayYear[] = [];
  for (const file of files) {
    const json = readJson(join(directory, file));
    if (!json.ok) return err({ file, error: listError(`${file} is not JSON: ${json.error}`) });
    const parsed = parseHolidayYear(json.value);
    if (!parsed.ok) return err({ file, error: parsed.error });
    if (`${parsed.value.year}.json` !== file) {
      const message = `${file} declares the year ${parsed.value.year}`;
      return err({ file, error: listError(message) });
    }
    years.push(parsed.value);
  }
  return ok(years);
}

function readJson(path: string): Result<unknown, string> {
  const textContent = readFileSync(path, 'utf8');
  try {
    return ok(JSON.parse(textContent) as unknown);
  } catch (error) {
    return err(error instanceof Error ? error.message : String(error));
  }
}

function listError(message: string): HolidayListError {
  return {
    code: 'holiday_list_invalid',
    message,
    article: '8',
    issues: [{ code: 'holiday_list_malformed', path: '(document)', message }],
  };
}
