import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, PHASES } from '../../../src/table/types.js';
import { FAILURE_CODES } from '../../../verifier/cussec-verify.mjs';
import { DICT } from './dict.js';
import { fill, initialLang, LANGS, translate } from './i18n.js';
import {
  CODES_WITH_AMOUNTS,
  CODES_WITH_DATE,
  errorSentence,
  PLAYER_ERROR_CODES,
} from './errors.js';

const placeholders = (text: string): string[] =>
  [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();

describe('the dictionary', () => {
  it('has every key in Traditional Chinese, Portuguese and English, none empty', () => {
    for (const [key, entry] of Object.entries(DICT)) {
      for (const lang of LANGS) expect(entry[lang].trim(), `${key} ${lang}`).not.toBe('');
    }
  });

  it('uses the same {placeholders} in every language', () => {
    for (const [key, entry] of Object.entries(DICT)) {
      expect(placeholders(entry.pt), key).toEqual(placeholders(entry.en));
      expect(placeholders(entry['zh-Hant']), key).toEqual(placeholders(entry.en));
    }
  });

  it('names every phase of the round machine', () => {
    for (const phase of PHASES) expect(DICT).toHaveProperty(`phase.${phase}`);
  });

  it('names every round event', () => {
    for (const type of EVENT_TYPES) expect(DICT).toHaveProperty(`event.${type}`);
  });
});

describe("the export verifier's reasons", () => {
  it('has a sentence for every code the verifier fails with', () => {
    for (const code of FAILURE_CODES) expect(DICT, code).toHaveProperty(`verifier.${code}`);
    const sentences = Object.keys(DICT).filter((k) => k.startsWith('verifier.'));
    expect(sentences.map((k) => k.slice('verifier.'.length)).sort()).toEqual(
      [...FAILURE_CODES].sort(),
    );
  });
});

describe('the error sentences', () => {
  it('has a sentence in all three languages for every code a player can meet', () => {
    for (const code of PLAYER_ERROR_CODES) {
      expect(DICT, code).toHaveProperty(`err.${code}`);
      for (const lang of LANGS) expect(errorSentence(lang, code)).not.toMatch(/\(\w+_\w+\)/);
    }
  });

  it('names amounts in the table’s currency only where the limits are the reason', () => {
    const amounts = { min: 'MOP 10.00', max: 'MOP 10,000.00' };
    for (const [key, entry] of Object.entries(DICT).filter(([k]) => k.startsWith('err.'))) {
      const code = key.slice(4);
      const named = placeholders(entry.en);
      if (CODES_WITH_AMOUNTS.includes(code)) expect(named.length, key).toBeGreaterThan(0);
      else if (CODES_WITH_DATE.includes(code)) expect(named, key).toEqual(['date']);
      else expect(named, key).toEqual([]);
    }
    expect(errorSentence('zh-Hant', 'stake_above_max', amounts)).toBe(
      '此位置的注碼合共不可超過 MOP 10,000.00。',
    );
    expect(errorSentence('pt', 'stake_below_min', amounts)).toContain('MOP 10.00');
    expect(errorSentence('en', 'no_such_code')).toBe(
      'The server refused the request (no_such_code).',
    );
  });
});

describe('translate', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(fill('{a} and {b}', { a: 1 })).toBe('1 and {b}');
    expect(translate('pt', 'player.countdown', { s: 7 })).toBe('Faltam 7 s');
    expect(translate('zh-Hant', 'app.article', { a: '3.4' })).toBe('第3.4條');
  });
});

describe('initialLang', () => {
  it('prefers the stored choice, then the browser, then English', () => {
    expect(initialLang('pt', ['zh-TW'])).toBe('pt');
    expect(initialLang(null, ['zh-HK', 'en'])).toBe('zh-Hant');
    expect(initialLang('xx', ['pt-PT'])).toBe('pt');
    expect(initialLang(null, ['fr'])).toBe('en');
  });
});
