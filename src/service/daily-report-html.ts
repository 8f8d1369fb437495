/**
 * The daily report as a printable page: one self-contained HTML document (its
 * CSS inline, nothing fetched), laid out for A4 paper, every text escaped.
 * Money is shown in major units with two decimals (100 avos to the pataca,
 * 100 cents to the dollar); the CSV keeps the exact minor units.
 */
import type { OptionsPeriod } from './daily-report.js';
import type { DailyReport, SpotFigures } from '../compliance/index.js';
import { MACAU_UTC_OFFSET_MS } from '../compliance/index.js';
import { spotById } from '../rules/index.js';
import { authorizationText } from './table-settings.js';

export const REGULATION_REFERENCE =
  'Despacho Regulamentar Externo n.º 57/2004 (Macau), «Cussec» — Arts. 3.3 (void rolls), 6 (odds), 8 (house options)';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** 123456 minor units → "1,234.56"; exact, from the integer. */
export function formatMinor(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const major = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}${major}.${String(abs % 100).padStart(2, '0')}`;
}

const percent = (value: number | null): string => (value === null ? '—' : `${value.toFixed(2)} %`);

/** An instant as Macau local time: 2026-03-06 14:05:09 (UTC+8). */
export function macauDateTime(epochMs: number): string {
  const iso = new Date(epochMs + MACAU_UTC_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} (UTC+8)`;
}

/** An instant's Macau time of day: 14:05:09 (UTC+8). */
export function macauTimeOfDay(epochMs: number): string {
  return new Date(epochMs + MACAU_UTC_OFFSET_MS).toISOString().slice(11, 19);
}

const spotName = (spot: string): string => {
  const found = spotById(spot);
  return found === undefined ? spot : `${found.names.en} · ${found.names.pt}`;
};

const STYLE = `
  @page { size: A4; margin: 16mm; }
  * { box-sizing: border-box; }
  body { font: 11pt/1.4 "Helvetica Neue", Arial, sans-serif; color: #000; background: #fff; margin: 0 auto; max-width: 180mm; padding: 8mm 0; }
  h1 { font-size: 16pt; margin: 0 0 2mm; }
  h2 { font-size: 12pt; margin: 6mm 0 2mm; border-bottom: 1px solid #000; }
  .meta { margin: 0 0 4mm; color: #333; }
  table { width: 100%; border-collapse: collapse; page-break-inside: auto; }
  tr { page-break-inside: avoid; }
  th, td { padding: 1mm 2mm; border-bottom: 0.3mm solid #999; text-align: left; vertical-align: top; }
  td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  thead th { border-bottom: 0.5mm solid #000; }
  .key th { width: 45%; font-weight: normal; }
  footer { margin-top: 8mm; font-size: 9pt; color: #333; border-top: 1px solid #000; padding-top: 2mm; }
  @media print { body { padding: 0; } a { color: #000; text-decoration: none; } }
`;

function row(label: string, value: string): string {
  return `<tr><th scope="row">${escapeHtml(label)}</th><td class="n">${escapeHtml(value)}</td></tr>`;
}

function spotRows(spots: readonly SpotFigures[]): string {
  if (spots.length === 0) return '<tr><td colspan="7">No bets.</td></tr>';
  return spots
    .map(
      (s) =>
        `<tr><td>${escapeHtml(spotName(s.spot))} <small>(${escapeHtml(s.spot)})</small></td>` +
        [
          String(s.bets),
          formatMinor(s.handleMinor),
          formatMinor(s.payoutsMinor),
          formatMinor(s.holdMinor),
          percent(s.holdPercentActual),
          percent(s.holdPercentTheoretical),
        ]
          .map((v) => `<td class="n">${escapeHtml(v)}</td>`)
          .join('') +
        '</tr>',
    )
    .join('\n');
}

function biggestWin(r: DailyReport): string {
  const w = r.biggestWin;
  if (w === null) return '<p>No bet won this day.</p>';
  return `<table class="key"><tbody>
${row('Won (on top of the stake)', `${formatMinor(w.winMinor)} ${r.currency}`)}
${row('Stake', `${formatMinor(w.stakeMinor)} ${r.currency}`)}
${row('Returned', `${formatMinor(w.returnedMinor)} ${r.currency}`)}
${row('Bet', `${spotName(w.spot)} (${w.spot})`)}
${row('Round', w.roundId)}
${row('Bet id', w.betId ?? '—')}
${row('Settled at', macauDateTime(w.settledAtMs))}
</tbody></table>`;
}

export interface HtmlOptions {
  readonly tableName: string;
  readonly generatedAtMs: number;
  /** The options in force at the day's start and each change during it (Art. 8). */
  readonly optionsInForce: readonly OptionsPeriod[];
}

function optionsRows(periods: readonly OptionsPeriod[]): string {
  return periods
    .map(
      (p) =>
        `<tr><td>${escapeHtml(macauDateTime(p.fromMs))}</td><td class="n">${p.totalOdds['5/16']}</td><td class="n">${p.totalOdds['6/15']}</td><td>${escapeHtml(p.shaker)}</td><td>${escapeHtml(authorizationText(p.authorization))}</td></tr>`,
    )
    .join('\n');
}

/** The printable page of one table's day. */
export function renderDailyReportHtml(r: DailyReport, options: HtmlOptions): string {
  const title = `Daily report — ${options.tableName} (${r.tableId}) — ${r.macauDay}`;
  const money = (minor: number) => `${formatMinor(minor)} ${r.currency}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<p class="meta">Table <strong>${escapeHtml(options.tableName)}</strong> (${escapeHtml(r.tableId)}) · Macau day <strong>${escapeHtml(r.macauDay)}</strong> · currency ${escapeHtml(r.currency)}</p>
</header>
<h2>The day's figures</h2>
<table class="key"><tbody>
${row('Rounds settled', String(r.rounds))}
${row('Void rolls (Art. 3.3)', String(r.voidRolls))}
${row('Bets', String(r.bets))}
${row('Handle (stakes)', money(r.handleMinor))}
${row('Payouts (returned to players, stakes of winning bets included)', money(r.payoutsMinor))}
${row('Hold (handle − payouts)', money(r.holdMinor))}
${row('Hold, actual', percent(r.holdPercentActual))}
${row('Hold, theoretical (exact house edge of each bet, Art. 6 odds in force)', percent(r.holdPercentTheoretical))}
</tbody></table>
<h2>House options in force (Arts. 6.6 and 8)</h2>
<table>
<thead><tr><th>From</th><th class="n">5/16 pays</th><th class="n">6/15 pays</th><th>Shaker</th><th>Authorization</th></tr></thead>
<tbody>
${optionsRows(options.optionsInForce)}
</tbody>
</table>
<h2>Biggest win</h2>
${biggestWin(r)}
<h2>By bet</h2>
<table>
<thead><tr><th>Bet</th><th class="n">Bets</th><th class="n">Handle</th><th class="n">Payouts</th><th class="n">Hold</th><th class="n">Hold, actual</th><th class="n">Hold, theoretical</th></tr></thead>
<tbody>
${spotRows(r.bySpot)}
</tbody>
</table>
<footer>
<p>Amounts in ${escapeHtml(r.currency)}. Generated ${escapeHtml(macauDateTime(options.generatedAtMs))} by Cussec from the table's journal.</p>
<p>${escapeHtml(REGULATION_REFERENCE)}.</p>
</footer>
</body>
</html>
`;
}
