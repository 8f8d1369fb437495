/** Small helpers for output a person reads: aligned columns and percentages. */

const percentFormat = new Intl.NumberFormat('en', {
  style: 'percent',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** 0.027777 → "2.78%". */
export function percent(value: number): string {
  return percentFormat.format(value);
}

export function decimal(value: number, digits: number): string {
  return value.toLocaleString('en', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  });
}

/** Thousands grouped: 1234567 → "1,234,567". */
export function grouped(value: number): string {
  return value.toLocaleString('en', { maximumFractionDigits: 0 });
}

export type Align = 'left' | 'right';

/**
 * Lays out rows under a header, each column as wide as its widest cell. Width is
 * counted in code points, with CJK characters counted twice as on a terminal.
 */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[],
): string {
  const widths = header.map((h, c) =>
    Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[c] ?? ''))),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, c) => {
        const pad = ' '.repeat(widths[c]! - displayWidth(cell));
        return align[c] === 'right' ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text)
    width +=
      /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(
        ch,
      )
        ? 2
        : 1;
  return width;
}

// C0 and C1 control characters, and DEL.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text read from a file or a register, as a terminal may show it: control
 * characters (line breaks, escape sequences) written as `\u001b`, so that a
 * value can neither break a line of the output nor move the cursor.
 */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
