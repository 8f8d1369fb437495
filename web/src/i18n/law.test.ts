import { describe, expect, it } from 'vitest';
import { citation } from '../../../src/service/people.js';
import { lawCitation } from './law.js';

describe('a cited law in the user’s language', () => {
  it('reads the regulation’s bare articles as before', () => {
    expect(lawCitation('zh-Hant', '3.4')).toBe('第3.4條');
    expect(lawCitation('pt', '8')).toBe('Art. 8');
  });

  it.each([
    [
      'Lei 10/2012, art. 2',
      '第10/2012號法律第2條',
      'Lei n.º 10/2012, art. 2.º',
      'Law 10/2012, art. 2',
    ],
    [
      'Lei 10/2012, art. 6',
      '第10/2012號法律第6條',
      'Lei n.º 10/2012, art. 6.º',
      'Law 10/2012, art. 6',
    ],
    [
      'Instrução 1/2016',
      '博彩監察協調局第1/2016號指引',
      'Instrução n.º 1/2016 da DICJ',
      'DICJ Instruction 1/2016',
    ],
  ])('reads %s', (cited, zh, pt, en) => {
    expect(lawCitation('zh-Hant', cited)).toBe(zh);
    expect(lawCitation('pt', cited)).toBe(pt);
    expect(lawCitation('en', cited)).toBe(en);
  });

  it('reads the citations the server makes of eligibility refusals', () => {
    expect(lawCitation('en', citation({ law: 'Lei 10/2012', article: '2' }))).toBe(
      'Law 10/2012, art. 2',
    );
    expect(lawCitation('en', citation({ law: 'Instrução 1/2016', article: '' }))).toBe(
      'DICJ Instruction 1/2016',
    );
  });

  it('shows a citation of another shape as it came', () => {
    expect(lawCitation('zh-Hant', 'Lei 8/2005, arts. 5 e 6')).toBe('Lei 8/2005, arts. 5 e 6');
  });
});
