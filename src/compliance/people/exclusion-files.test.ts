import { describe, expect, it } from 'vitest';
import { toCsv } from '../csv.js';
import {
  EXCLUSION_FILE_COLUMNS,
  EXCLUSION_FILE_ROWS_MAX,
  parseExclusionFile,
} from './exclusion-files.js';

const good = (id: string, change: Record<string, unknown> = {}) => ({
  id,
  kind: 'self',
  dicjReference: `DICJ/${id}`,
  documentType: 'hk-id',
  documentNumber: 'A123456(3)',
  fullName: 'Chan Tai Man',
  dateOfBirth: '1980-04-02',
  from: '2026-01-10',
  to: '2027-01-09',
  revocationRequestedOn: null,
  ...change,
});

const header = [...EXCLUSION_FILE_COLUMNS];
/** The order's cells in `columns` order; every value of a test order is a string or null. */
const csvRow = (order: Record<string, unknown>, columns: readonly string[] = header) =>
  columns.map((name) => (order[name] ?? null) as string | null);

/** One CSV record, without its line end. */
const line = (order: Record<string, unknown>) => toCsv(header, [csvRow(order)]).split('\r\n')[1]!;

function summary(text: string, format: 'json' | 'csv') {
  const file = parseExclusionFile(text, format);
  return {
    ids: file.orders.map((o) => o.id),
    bad: file.bad.map(({ row, issues }) => ({
      row,
      issues: issues.map((i) => `${i.path}:${i.code}`),
    })),
  };
}

describe('parseExclusionFile, JSON', () => {
  it('reads an array of orders, or an object with an orders array', () => {
    const orders = [good('A'), good('B')];
    expect(summary(JSON.stringify(orders), 'json')).toEqual({ ids: ['A', 'B'], bad: [] });
    const wrapped = { source: 'DICJ', orders };
    expect(summary(JSON.stringify(wrapped), 'json')).toEqual({ ids: ['A', 'B'], bad: [] });
  });

  it('keeps the good rows and names the bad ones by row and field', () => {
    const orders = [
      good('A'),
      good('B', { to: '2028-01-10' }),
      'junk',
      good('D', { documentNumber: 'A123456(4)' }),
    ];
    expect(summary(JSON.stringify(orders), 'json')).toEqual({
      ids: ['A'],
      bad: [
        { row: 2, issues: ['to:period_too_long'] },
        { row: 3, issues: ['(record):field_type'] },
        { row: 4, issues: ['documentNumber:document_check_digit'] },
      ],
    });
  });

  it('refuses a repeated id; the first row stands', () => {
    const orders = [good('A'), good('B'), good('A', { to: '2026-06-30' })];
    expect(summary(JSON.stringify(orders), 'json')).toEqual({
      ids: ['A', 'B'],
      bad: [{ row: 3, issues: ['id:id_duplicate'] }],
    });
  });

  it.each([
    ['not JSON', '{"orders": ['],
    ['neither an array nor an orders object', '{"list": []}'],
    ['a number', '42'],
  ])('refuses a file that is %s, as one error', (_, text) => {
    expect(summary(text, 'json')).toEqual({
      ids: [],
      bad: [{ row: 0, issues: ['(file):exclusion_file_malformed'] }],
    });
  });

  it(`refuses more than ${EXCLUSION_FILE_ROWS_MAX} orders`, () => {
    const text = `[${Array.from({ length: EXCLUSION_FILE_ROWS_MAX + 1 }, () => '{}').join(',')}]`;
    expect(summary(text, 'json').bad).toEqual([
      { row: 0, issues: ['(file):exclusion_file_too_large'] },
    ]);
  });
});

describe('parseExclusionFile, CSV', () => {
  it('reads the rows, with empty cells as null and normalized numbers', () => {
    const text = toCsv(header, [
      csvRow(good('A', { documentNumber: 'a 1234563' })),
      csvRow(good('B', { fullName: null, dateOfBirth: null })),
    ]);
    const file = parseExclusionFile(text, 'csv');
    expect(file.bad).toEqual([]);
    expect(
      file.orders.map((o) => [o.id, o.documentNumber, o.fullName, o.revocationRequestedOn]),
    ).toEqual([
      ['A', 'A123456(3)', 'Chan Tai Man', null],
      ['B', 'A123456(3)', null, null],
    ]);
  });

  it('accepts the columns in any order, LF line ends and quoted fields', () => {
    const reversed = [...header].reverse();
    const row = good('A', { fullName: 'Chan, "Tai" Man' });
    const text = toCsv(reversed, [csvRow(row, reversed)]).replace(/\r\n/g, '\n');
    const file = parseExclusionFile(text, 'csv');
    expect(file.orders.map((o) => o.fullName)).toEqual(['Chan, "Tai" Man']);
  });

  it('numbers data rows from 1, counting blank lines, and names fields', () => {
    const lines = [
      header.join(','),
      line(good('A')),
      '',
      line(good('C', { kind: 'court', revocationRequestedOn: '2026-02-01' })),
      'D,self',
      line(good('E', { dicjReference: null })),
    ];
    const text = `${lines.join('\r\n')}\r\n`;
    expect(summary(text, 'csv')).toEqual({
      ids: ['A'],
      bad: [
        { row: 3, issues: ['revocationRequestedOn:revocation_not_allowed'] },
        { row: 4, issues: ['(record):row_fields'] },
        { row: 5, issues: ['dicjReference:field_missing'] },
      ],
    });
  });

  it.each([
    ['empty', ''],
    ['a header missing a column', 'id,kind\r\n'],
    ['a header with an unknown column', `${header.join(',')},note\r\n`],
    ['a header naming a column twice', `${header.join(',')},id\r\n`],
    ['not CSV', `${header.join(',')}\r\n"A,self\r\n`],
  ])('refuses a file that is %s, as one error', (_, text) => {
    expect(summary(text, 'csv')).toEqual({
      ids: [],
      bad: [{ row: 0, issues: ['(file):exclusion_file_malformed'] }],
    });
  });

  it(`refuses more than ${EXCLUSION_FILE_ROWS_MAX} rows`, () => {
    const text = `${header.join(',')}\n${'x\n'.repeat(EXCLUSION_FILE_ROWS_MAX + 1)}`;
    expect(summary(text, 'csv').bad).toEqual([
      { row: 0, issues: ['(file):exclusion_file_too_large'] },
    ]);
  });
});
