/**
 * Loading exclusion orders in bulk, as the DICJ would send them (Lei 10/2012,
 * arts. 2 and 6).
 *
 * ## Format
 *
 * A file is JSON or CSV, in UTF-8, of at most {@link EXCLUSION_FILE_ROWS_MAX}
 * orders. Each order has these fields:
 *
 * | field                   | value                                                          |
 * | ----------------------- | -------------------------------------------------------------- |
 * | `id`                    | the order's identifier, 1..100 characters, unique in the file   |
 * | `kind`                  | `self`, `third-party` (art. 6), `court`, `administrative` (art. 2) |
 * | `dicjReference`         | the DICJ's reference, 1..100 characters                         |
 * | `documentType`          | `macau-id`, `hk-id`, `mainland-permit`, `passport`, `other`     |
 * | `documentNumber`        | the document's number; spaces and case do not matter            |
 * | `fullName`              | the name, 1..200 characters, or null                            |
 * | `dateOfBirth`           | `YYYY-MM-DD`, or null                                           |
 * | `from`                  | `YYYY-MM-DD`, the first day barred                              |
 * | `to`                    | `YYYY-MM-DD`, the last day barred (inclusive)                   |
 * | `revocationRequestedOn` | `YYYY-MM-DD`, the day the person asked to revoke it, or null    |
 *
 * An art. 6 order (self, third-party) lasts at most two years: from 2026-01-10
 * the last day barred may be 2028-01-09. Only art. 6 orders may carry a
 * revocation request; it takes effect 30 days after the request.
 *
 * - **JSON**: an array of order objects, or an object whose `orders` field is
 *   that array (its other fields are ignored, for the sender's metadata). A
 *   nullable field may be null or left out; unknown fields are refused.
 * - **CSV** (RFC 4180): a header row naming the ten fields above, in any order,
 *   then one order a row; quoted fields, doubled quotes, CRLF or LF line ends.
 *   An empty cell is null. Blank lines are skipped but counted.
 *
 * ## Result
 *
 * Good rows are kept and bad rows are reported, each by its data row number
 * (1-based: the first order is row 1, the CSV header is not counted) with every
 * problem named by field and code. A row whose id an earlier row already used
 * is bad (`id_duplicate`): the first stands. A file that cannot be read at all
 * (not JSON, not CSV, no header, wrong columns) is one problem on row 0,
 * `exclusion_file_malformed`; a file with too many rows is refused whole on
 * row 0, `exclusion_file_too_large`.
 */
import { parseCsv } from './csv-parse.js';
import { type ExclusionOrder, parseExclusionOrder } from './exclusions.js';
import { type Issue, RECORD_PATH } from './issue.js';

/** A bound on one upload; the DICJ's whole list is far below it. */
export const EXCLUSION_FILE_ROWS_MAX = 100_000;

export const EXCLUSION_FILE_COLUMNS = [
  'id',
  'kind',
  'dicjReference',
  'documentType',
  'documentNumber',
  'fullName',
  'dateOfBirth',
  'from',
  'to',
  'revocationRequestedOn',
] as const;

export interface ExclusionFileBadRow {
  /** 1-based data row; 0 for the file as a whole. */
  readonly row: number;
  readonly issues: Issue[];
}

export interface ExclusionFileContents {
  orders: ExclusionOrder[];
  bad: ExclusionFileBadRow[];
}

const FILE_PATH = '(file)';

function wholeFile(code: string, message: string): ExclusionFileContents {
  return { orders: [], bad: [{ row: 0, issues: [{ path: FILE_PATH, code, message }] }] };
}

/** One data row: a record to validate, a CSV row of the wrong width, or a blank CSV line. */
type Row =
  | { readonly kind: 'record'; readonly value: unknown }
  | { readonly kind: 'wrong-width'; readonly message: string }
  | { readonly kind: 'blank' };

/** The rows of the file, or the reason it cannot be read. */
type Rows = { readonly rows: readonly Row[] } | { readonly failure: ExclusionFileContents };

function tooLarge(): { failure: ExclusionFileContents } {
  const message = `more than ${EXCLUSION_FILE_ROWS_MAX} orders: split the file`;
  return { failure: wholeFile('exclusion_file_too_large', message) };
}

function jsonRows(text: string): Rows {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { failure: wholeFile('exclusion_file_malformed', `not JSON: ${reason}`) };
  }
  const orders =
    typeof doc === 'object' && doc !== null && !Array.isArray(doc)
      ? (doc as Record<string, unknown>).orders
      : doc;
  if (!Array.isArray(orders)) {
    const message = 'expected an array of orders or an object with an "orders" array';
    return { failure: wholeFile('exclusion_file_malformed', message) };
  }
  if (orders.length > EXCLUSION_FILE_ROWS_MAX) return tooLarge();
  return { rows: orders.map((value: unknown): Row => ({ kind: 'record', value })) };
}

function headerProblem(header: readonly string[]): string | null {
  const expected: readonly string[] = EXCLUSION_FILE_COLUMNS;
  const unknown = header.filter((name) => !expected.includes(name));
  const missing = expected.filter((name) => !header.includes(name));
  if (unknown.length === 0 && missing.length === 0 && header.length === expected.length) {
    return null;
  }
  const parts = [
    missing.length > 0 ? `missing ${missing.join(', ')}` : '',
    unknown.length > 0 ? `unknown ${unknown.join(', ')}` : '',
    header.length !== new Set(header).size ? 'a column named twice' : '',
  ].filter((part) => part !== '');
  return `the header must name ${expected.join(',')}: ${parts.join('; ')}`;
}

function csvRows(text: string): Rows {
  const parsed = parseCsv(text, EXCLUSION_FILE_ROWS_MAX + 1);
  if (!parsed.ok) {
    if (parsed.error.code === 'csv_too_many_records') return tooLarge();
    return { failure: wholeFile('exclusion_file_malformed', `not CSV: ${parsed.error.message}`) };
  }
  const [header, ...records] = parsed.value;
  if (header === undefined) return { failure: wholeFile('exclusion_file_malformed', 'no header') };
  const names = header.map((name) => name.trim());
  const problem = headerProblem(names);
  if (problem !== null) return { failure: wholeFile('exclusion_file_malformed', problem) };
  return { rows: records.map((fields) => csvRow(names, fields)) };
}

/** A CSV record as an order object, empty cells null. */
function csvRow(names: readonly string[], fields: readonly string[]): Row {
  if (fields.length === 1 && fields[0] === '') return { kind: 'blank' };
  if (fields.length !== names.length) {
    const message = `${fields.length} fields where the header has ${names.length}`;
    return { kind: 'wrong-width', message };
  }
  const value = Object.fromEntries(names.map((name, i) => [name, fields[i] || null]));
  return { kind: 'record', value };
}

function rowIssues(row: Row): { order?: ExclusionOrder; issues: Issue[] } {
  if (row.kind === 'wrong-width') {
    return { issues: [{ path: RECORD_PATH, code: 'row_fields', message: row.message }] };
  }
  const parsed = parseExclusionOrder(row.kind === 'record' ? row.value : null);
  return parsed.ok ? { order: parsed.value, issues: [] } : { issues: parsed.error.issues };
}

function rawId(row: Row): string | null {
  if (row.kind !== 'record' || typeof row.value !== 'object' || row.value === null) return null;
  const id = (row.value as Record<string, unknown>).id;
  return typeof id === 'string' && id.trim() !== '' ? id.trim() : null;
}

/**
 * Parses an exclusion file (format above): the good orders, and the bad rows
 * with their problems. Pure: the caller reads the file and stores the orders.
 */
export function parseExclusionFile(text: string, format: 'json' | 'csv'): ExclusionFileContents {
  const read = format === 'json' ? jsonRows(text) : csvRows(text);
  if ('failure' in read) return read.failure;
  const result: ExclusionFileContents = { orders: [], bad: [] };
  const firstRowOfId = new Map<string, number>();
  read.rows.forEach((row, index) => {
    if (row.kind === 'blank') return;
    const rowNumber = index + 1;
    const { order, issues } = rowIssues(row);
    const id = rawId(row);
    const first = id === null ? undefined : firstRowOfId.get(id);
    if (first !== undefined) {
      issues.push({
        path: 'id',
        code: 'id_duplicate',
        message: `id ${id} is already on row ${first}`,
      });
    } else if (id !== null) firstRowOfId.set(id, rowNumber);
    if (issues.length > 0) result.bad.push({ row: rowNumber, issues });
    else if (order !== undefined) result.orders.push(order);
  });
  return result;
}
