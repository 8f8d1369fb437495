/**
 * Reading CSV as RFC 4180 describes it, the counterpart of `toCsv` (../csv.ts).
 *
 * Records end with CRLF or LF (a file from Excel or from a Unix tool reads the
 * same); a line break after the last record is optional. A field in double
 * quotes may hold commas, line breaks and doubled quotes. A quote inside an
 * unquoted field, text after a closing quote, an unterminated quoted field
 * and a carriage return not followed by a line feed outside quotes are
 * refused: each means the file was not written as CSV, and guessing could
 * shift a value into the next column. A UTF-8 byte-order mark is dropped.
 */
import { err, ok, type Result } from '../../rules/errors.js';

export interface CsvParseError {
  readonly code: 'csv_malformed' | 'csv_too_many_records';
  /** 1-based record (the header is record 1) where the problem was found. */
  readonly record: number;
  readonly message: string;
}

interface Cursor {
  readonly text: string;
  i: number;
  record: number;
}

function malformed(cursor: Cursor, message: string): Result<never, CsvParseError> {
  return err({
    code: 'csv_malformed',
    record: cursor.record,
    message: `record ${cursor.record}: ${message}`,
  });
}

/** A quoted field from the opening quote at `cursor.i`; leaves the cursor after the closing quote. */
function quotedField(cursor: Cursor): Result<string, CsvParseError> {
  const { text } = cursor;
  let value = '';
  let i = cursor.i + 1;
  for (;;) {
    const close = text.indexOf('"', i);
    if (close === -1) return malformed(cursor, 'a quoted field is not closed');
    value += text.slice(i, close);
    if (text[close + 1] !== '"') {
      cursor.i = close + 1;
      return ok(value);
    }
    value += '"';
    i = close + 2;
  }
}

/** An unquoted field from `cursor.i` up to the next comma or line end. */
function plainField(cursor: Cursor): Result<string, CsvParseError> {
  const { text } = cursor;
  const start = cursor.i;
  let i = start;
  while (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') {
    if (text[i] === '"') return malformed(cursor, 'a quote inside an unquoted field');
    i++;
  }
  cursor.i = i;
  return ok(text.slice(start, i));
}

/** One record from `cursor.i`; leaves the cursor at the start of the next one. */
function record(cursor: Cursor): Result<string[], CsvParseError> {
  const fields: string[] = [];
  for (;;) {
    const field = cursor.text[cursor.i] === '"' ? quotedField(cursor) : plainField(cursor);
    if (!field.ok) return field;
    fields.push(field.value);
    const next = cursor.text[cursor.i];
    if (next === ',') {
      cursor.i++;
      continue;
    }
    if (next === undefined) return ok(fields);
    if (next === '\n') {
      cursor.i++;
      return ok(fields);
    }
    if (next === '\r' && cursor.text[cursor.i + 1] === '\n') {
      cursor.i += 2;
      return ok(fields);
    }
    if (next === '\r') return malformed(cursor, 'a carriage return without a line feed');
    return malformed(cursor, 'text after a closing quote');
  }
}

/**
 * The records of `text`, each an array of fields (strings, quotes removed).
 * Stops with `csv_too_many_records` when there are more than `recordsMax`.
 */
export function parseCsv(text: string, recordsMax: number): Result<string[][], CsvParseError> {
  const cursor: Cursor = {
    text: text.startsWith('\uFEFF') ? text.slice(1) : text,
    i: 0,
    record: 1,
  };
  const records: string[][] = [];
  while (cursor.i < cursor.text.length) {
    if (records.length === recordsMax) {
      return err({
        code: 'csv_too_many_records',
        record: cursor.record,
        message: `more than ${recordsMax} records`,
      });
    }
    const next = record(cursor);
    if (!next.ok) return next;
    records.push(next.value);
    cursor.record++;
  }
  return ok(records);
}
