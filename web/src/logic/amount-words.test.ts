import { describe, expect, it } from 'vitest';
import { amountInWords, chineseNumber, englishNumber, portugueseNumber } from './amount-words.js';

describe('an amount in words on a cage receipt', () => {
  it.each([
    [1_000_000, 'zh-Hant', '澳門幣壹萬元正'],
    [1_200_000, 'zh-Hant', '澳門幣壹萬貳仟元正'],
    [1_000_550, 'zh-Hant', '澳門幣壹萬零伍元伍角正'],
    [12_345, 'zh-Hant', '澳門幣壹佰貳拾參元肆角伍分'],
    [1_000_000, 'pt', 'dez mil patacas'],
    [150_000, 'pt', 'mil e quinhentas patacas'],
    [123_450, 'pt', 'mil duzentas e trinta e quatro patacas e cinquenta avos'],
    [100, 'pt', 'uma pataca'],
    [2_100, 'pt', 'vinte e uma patacas'],
    [1_000_000, 'en', 'ten thousand patacas'],
    [1_234_501, 'en', 'twelve thousand three hundred and forty-five patacas and one avo'],
    [100, 'en', 'one pataca'],
  ] as const)('%i avos in %s: %s', (minor, lang, words) => {
    expect(amountInWords(minor, 'MOP', lang)).toBe(words);
  });

  it('names Hong Kong dollars and cents for an HKD house', () => {
    expect(amountInWords(1_000_025, 'HKD', 'zh-Hant')).toBe('港幣壹萬元貳角伍分');
    expect(amountInWords(1_000_005, 'HKD', 'zh-Hant')).toBe('港幣壹萬元零伍分');
    expect(amountInWords(1_000_025, 'HKD', 'pt')).toBe(
      'dez mil dólares de Hong Kong e vinte e cinco cêntimos',
    );
    expect(amountInWords(1_000_025, 'HKD', 'en')).toBe(
      'ten thousand Hong Kong dollars and twenty-five cents',
    );
  });

  it('reads the zeros of Chinese numerals as a cage writes them', () => {
    expect(chineseNumber(10)).toBe('壹拾');
    expect(chineseNumber(1_005)).toBe('壹仟零伍');
    expect(chineseNumber(100_000)).toBe('壹拾萬');
    expect(chineseNumber(1_000_050)).toBe('壹佰萬零伍拾');
    expect(chineseNumber(100_010_000)).toBe('壹億零壹萬');
    expect(chineseNumber(0)).toBe('零');
  });

  it('counts in Portuguese with the feminine of pataca and "e" where it is said', () => {
    expect(portugueseNumber(200_000, true)).toBe('duzentas mil');
    expect(portugueseNumber(101)).toBe('cento e um');
    expect(portugueseNumber(100)).toBe('cem');
    expect(portugueseNumber(2_000_000)).toBe('dois milhões');
    expect(amountInWords(100_000_000, 'MOP', 'pt')).toBe('um milhão de patacas');
  });

  it('counts in English with "and" before the tens', () => {
    expect(englishNumber(1_005)).toBe('one thousand and five');
    expect(englishNumber(2_000_300)).toBe('two million three hundred');
    expect(englishNumber(110)).toBe('one hundred and ten');
  });

  it('refuses what is not an amount or a currency it can name', () => {
    expect(() => amountInWords(-1, 'MOP', 'en')).toThrow(RangeError);
    expect(() => amountInWords(1.5, 'MOP', 'en')).toThrow(RangeError);
    expect(() => amountInWords(100, 'EUR', 'en')).toThrow(RangeError);
  });
});
