/**
 * CSV as RFC 4180 describes it: CRLF line ends, a header row, and a field in
 * double quotes (inner quotes doubled) when it holds a comma, a quote, CR or LF.
 */

export type CsvField = string | number | null;

function field(value: CsvField): string {
  if (value === null) return '';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`CSV: not a finite number: ${value}`);
    return String(value);
  }
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The header and rows as CSV text, every record (the last too) ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvField[])[]): string {
  const lines = [header, ...rows].map((row, i) => {
    if (row.length !== header.length) {
      throw new RangeError(`CSV: row ${i} has ${row.length} fields, the header ${header.length}`);
    }
    return row.map(field).join(',');
  });
  return lines.map((line) => `${line}\r\n`).join('');
}
