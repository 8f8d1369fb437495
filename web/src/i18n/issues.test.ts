import { describe, expect, it } from 'vitest';
import { FIELD_ISSUE_CODES } from '../../../src/compliance/people/index.js';
import { DOCUMENT_TYPES } from '../logic/people.js';
import { DICT } from './dict.js';
import { LANGS } from './i18n.js';
import { ISSUE_CODES, issueSentence } from './issues.js';

describe('a field’s problem in the user’s language', () => {
  it('has a sentence for every issue code, the schema’s and the checks’', () => {
    for (const code of FIELD_ISSUE_CODES) expect(ISSUE_CODES).toContain(code);
    for (const code of ISSUE_CODES) expect(DICT, code).toHaveProperty(`issue.${code}`);
  });

  it('tells a wrong document number the shape of its document, in every language', () => {
    const issue = { path: 'documentNumber', code: 'document_format', message: 'x' };
    for (const type of DOCUMENT_TYPES)
      for (const lang of LANGS)
        expect(issueSentence(lang, issue, type)).toBe(DICT[`issue.document_format.${type}`][lang]);
    expect(issueSentence('en', issue, 'hk-id')).toContain('A123456(3)');
    expect(issueSentence('en', issue)).toBe(DICT['issue.document_format'].en);
  });

  it('says a wrong check digit, and something for a code it does not know', () => {
    const digit = { path: 'documentNumber', code: 'document_check_digit', message: 'x' };
    expect(issueSentence('zh-Hant', digit)).toBe('核對碼與字母及數字不符：請再核對證件。');
    expect(issueSentence('pt', { ...digit, code: 'new_code' })).toBe('Não aceite.');
  });
});
