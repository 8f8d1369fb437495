import { describe, expect, it } from 'vitest';
import { HOLIDAY_ISSUE_CODES, REJECTION_CODES } from '../../../src/compliance/index.js';
import {
  CREATE_USER_ERROR_CODES,
  RETRYABLE_ERROR_CODES,
  TRANSFER_ERROR_CODES,
} from '../../../src/ledger/index.js';
import { RULE_VIOLATION_CODES } from '../../../src/rules/index.js';
import { HTTP_ERROR_CODES } from '../../../src/server/http-error.js';
import { PEOPLE_ERROR_CODES } from '../../../src/service/people.js';
import { SERVICE_ERROR_CODES } from '../../../src/service/refusal.js';
import { REJECTION_CODES as TABLE_REJECTION_CODES } from '../../../src/table/index.js';
import { DICT } from './dict.js';
import { errorSentence, holidayIssueSentence, PAGE_ERROR_CODES } from './errors.js';
import { LANGS } from './i18n.js';

/** Every code an answer of the API can carry (the lists behind ApiErrorCode), and a holiday list's issues. */
const API_CODES = [
  ...REJECTION_CODES,
  ...TABLE_REJECTION_CODES,
  ...RULE_VIOLATION_CODES,
  ...TRANSFER_ERROR_CODES,
  ...RETRYABLE_ERROR_CODES,
  ...CREATE_USER_ERROR_CODES,
  ...SERVICE_ERROR_CODES,
  ...PEOPLE_ERROR_CODES,
  ...HTTP_ERROR_CODES,
  ...HOLIDAY_ISSUE_CODES,
];

describe('every error in the user’s language', () => {
  it.each([...new Set(API_CODES)])('has a sentence for %s in zh-Hant, pt and en', (code) => {
    expect(`err.${code}` in DICT, code).toBe(true);
    for (const lang of LANGS) {
      const sentence = errorSentence(lang, code, { min: 'MOP 10', max: 'MOP 200', date: 'X' });
      expect(sentence).not.toMatch(/[{}]/);
      expect(sentence).not.toContain(code);
    }
  });

  it('translates only codes the server really uses, and the pages’ own', () => {
    const known = new Set<string>([...API_CODES, ...PAGE_ERROR_CODES]);
    for (const key of Object.keys(DICT).filter((k) => k.startsWith('err.')))
      expect(known.has(key.slice(4)), key).toBe(true);
  });

  it('names the bad date of a holiday list, read from the uploaded file at the issue’s path', () => {
    const doc = { year: 2027, days: [{ date: '2027-01-01' }, { date: '2027-02-30' }] };
    const issues = [{ code: 'holiday_date_invalid', path: 'days.1.date', message: 'x' }];
    expect(holidayIssueSentence('en', issues, doc)).toBe(
      'In the holiday list, "2027-02-30" is not a valid YYYY-MM-DD date.',
    );
    expect(holidayIssueSentence('zh-Hant', issues, doc)).toContain('2027-02-30');
    expect(holidayIssueSentence('pt', issues, doc)).toContain('«2027-02-30»');
    const twice = [{ code: 'holiday_date_duplicate', path: 'days.0.date', message: 'x' }];
    expect(holidayIssueSentence('pt', twice, doc)).toBe(
      'Na lista de feriados, 2027-01-01 aparece duas vezes.',
    );
    expect(holidayIssueSentence('en', [{ code: 'holiday_list_malformed', path: '' }], doc)).toBe(
      DICT['err.holiday_list_malformed'].en,
    );
    expect(holidayIssueSentence('en', [], doc)).toBeUndefined();
  });

  it('says what a refusal of standing bets means (Art. 3.4)', () => {
    expect(errorSentence('en', 'bet_stands_after_void')).toBe(
      'Only standing bets are left; they stay until the round ends.',
    );
  });
});
