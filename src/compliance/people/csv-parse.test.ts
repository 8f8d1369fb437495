import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../csv.js';
import { parseCsv } from './csv-parse.js';

function records(text: string): string[][] {
  const parsed = parseCsv(text, 1000);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

describe('parseCsv', () => {
  it.each([
    [
      'CRLF line ends',
      'a,b\r\n1,2\r\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'LF line ends',
      'a,b\n1,2\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'no line end after the last record',
      'a,b\n1,2',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    ['empty fields', ',a,\n', [['', 'a', '']]],
    ['a quoted comma', '"a,b",c\n', [['a,b', 'c']]],
    ['doubled quotes', '"say ""hi""",x\n', [['say "hi"', 'x']]],
    ['a quoted line break', '"line 1\r\nline 2",x\n', [['line 1\r\nline 2', 'x']]],
    ['an empty quoted field', '"",x\n', [['', 'x']]],
    ['a blank line', 'a\n\nb\n', [['a'], [''], ['b']]],
    ['a byte-order mark', '\uFEFFa,b\n', [['a', 'b']]],
    ['nothing', '', []],
  ])('reads %s', (_, text, expected) => {
    expect(records(text)).toEqual(expected);
  });

  it.each([
    ['an unterminated quote', 'a,"b\n', 1],
    ['a quote inside an unquoted field', 'a,b"c\n', 1],
    ['text after a closing quote', 'a\n"b"c,d\n', 2],
    ['a carriage return alone', 'a\rb\n', 1],
  ])('refuses %s, naming the record', (_, text, record) => {
    const parsed = parseCsv(text, 1000);
    expect(parsed.ok ? null : [parsed.error.code, parsed.error.record]).toEqual([
      'csv_malformed',
      record,
    ]);
  });

  it('stops after the maximum number of records', () => {
    const parsed = parseCsv('a\nb\nc\n', 2);
    expect(parsed.ok ? null : parsed.error.code).toBe('csv_too_many_records');
    expect(parseCsv('a\nb\n', 2).ok).toBe(true);
  });

  it('reads back what toCsv writes', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'Z', ',', '"', '\r', '\n', ' ', 'é') });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.array(cell), { maxLength: 5 }),
        (width, raw) => {
          const header = Array.from({ length: width }, (_, i) => `c${i}`);
          // A record of a single empty field is written as a blank line; pad rows to the width.
          const rows = raw.map((row) => header.map((_, i) => row[i] ?? 'x'));
          const usable = rows.filter((row) => !(width === 1 && row[0] === ''));
          expect(records(toCsv(header, usable))).toEqual([header, ...usable]);
        },
      ),
    );
  });
});
