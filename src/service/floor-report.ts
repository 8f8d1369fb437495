/**
 * The floor's report for one Macau day: every table's day (daily-report.ts)
 * side by side with the floor's totals, as JSON, CSV (one row per table, the
 * columns of a table's, `tableDaysCsv`) or a printable page linking each table's own.
 */
import type { IsoDate } from '../compliance/index.js';
import { escapeHtml, formatMinor, REGULATION_REFERENCE } from './daily-report-html.js';
import {
  type RenderedReport,
  type ReportFormat,
  type TableDay,
  tableDaysCsv,
} from './daily-report.js';

export interface FloorDay {
  readonly date: IsoDate;
  readonly currency: string;
  readonly tables: readonly TableDay[];
  readonly totals: {
    readonly rounds: number;
    readonly voidRolls: number;
    readonly bets: number;
    readonly handleMinor: number;
    readonly payoutsMinor: number;
    readonly holdMinor: number;
    /** hold ÷ handle in percent, as each table's; null when nothing was staked. */
    readonly holdPercentActual: number | null;
  };
}

/**
 * The floor's day from each table's (`tableDay`: the read workers' in the
 * server, so that the folds run off the event loop).
 */
export async function readFloorDay(
  source: {
    readonly currency: string;
    readonly tableIds: readonly string[];
    readonly tableDay: (tableId: string) => Promise<TableDay | undefined>;
  },
  date: IsoDate,
): Promise<FloorDay> {
  const tables: TableDay[] = [];
  for (const tableId of source.tableIds) {
    const day = await source.tableDay(tableId);
    if (day !== undefined) tables.push(day);
  }
  const sum = (pick: (d: TableDay) => number): number =>
    tables.reduce((total, d) => total + pick(d), 0);
  const handleMinor = sum((d) => d.report.handleMinor);
  const holdMinor = sum((d) => d.report.holdMinor);
  return {
    date,
    currency: source.currency,
    tables,
    totals: {
      rounds: sum((d) => d.report.rounds),
      voidRolls: sum((d) => d.report.voidRolls),
      bets: sum((d) => d.report.bets),
      handleMinor,
      payoutsMinor: sum((d) => d.report.payoutsMinor),
      holdMinor,
      holdPercentActual: handleMinor > 0 ? (100 * holdMinor) / handleMinor : null,
    },
  };
}

const percent = (value: number | null): string => (value === null ? '—' : `${value.toFixed(2)} %`);

/** The floor's day as JSON answers it: each table's figures, without its options in force. */
export function floorDayJson(floor: FloorDay) {
  const tables = floor.tables.map((d) => ({
    tableId: d.tableId,
    tableName: d.tableName,
    report: d.report,
  }));
  return { ...floor, tables };
}

export function renderFloorDay(floor: FloorDay, format: ReportFormat): RenderedReport {
  const fileName = `cussec-floor-${floor.date}.${format}`;
  if (format === 'json') {
    return {
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify(floorDayJson(floor), null, 2) + '\n',
      fileName,
    };
  }
  if (format === 'csv')
    return {
      contentType: 'text/csv; charset=utf-8',
      body: tableDaysCsv(floor.tables),
      fileName,
    };
  return { contentType: 'text/html; charset=utf-8', body: floorHtml(floor), fileName };
}

function floorHtml(floor: FloorDay): string {
  const money = (minor: number): string => `${formatMinor(minor)} ${floor.currency}`;
  const cells = (r: {
    rounds: number;
    voidRolls: number;
    handleMinor: number;
    payoutsMinor: number;
    holdMinor: number;
    holdPercentActual: number | null;
  }): string =>
    [r.rounds, r.voidRolls]
      .map((n) => `<td class="n">${n}</td>`)
      .concat(
        [money(r.handleMinor), money(r.payoutsMinor), money(r.holdMinor)].map(
          (m) => `<td class="n">${escapeHtml(m)}</td>`,
        ),
        `<td class="n">${percent(r.holdPercentActual)}</td>`,
      )
      .join('');
  const rows = floor.tables
    .map((d) => {
      const href = `/api/v1/tables/${encodeURIComponent(d.tableId)}/reports/daily?date=${d.date}&format=html`;
      return `<tr><td><a href="${escapeHtml(href)}">${escapeHtml(d.tableName)} (${escapeHtml(d.tableId)})</a></td>${cells(d.report)}</tr>`;
    })
    .join('\n');
  const title = `Daily report — the floor — ${floor.date}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#111}table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ccc;padding:4px 8px;text-align:left}.n{text-align:right;font-variant-numeric:tabular-nums}tfoot td{font-weight:700}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<table>
<thead><tr><th>Table</th><th class="n">Rounds</th><th class="n">Void rolls (Art. 3.3)</th><th class="n">Handle</th><th class="n">Payouts</th><th class="n">Hold</th><th class="n">Hold, actual</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><td>The floor</td>${cells(floor.totals)}</tr></tfoot>
</table>
<p>Each table's page has its theoretical hold, house options in force and figures by bet. ${escapeHtml(REGULATION_REFERENCE)}.</p>
</body>
</html>
`;
}
