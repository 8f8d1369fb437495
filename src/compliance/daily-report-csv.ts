/**
 * Daily reports as CSV (RFC 4180): money in integer minor units, percentages
 * with four decimals, an empty field where a figure does not exist (no stake,
 * no win): a row per table and day. The figures per spot are in the JSON and
 * on the printable page.
 *
 * The day's totals carry the house options in force (Art. 8): the odds of 5/16
 * and 6/15 (Art. 6.6), the shaker and the authorization, each field the value
 * at the day's start then each change during the day, as
 * `30 from 00:00:00; 24 from 14:05:00` (Macau time, UTC+8). The service
 * writes those fields (src/service/daily-report.ts, `tableDaysCsv`), as the
 * printable page writes them.
 */
import { type CsvField, toCsv } from './csv.js';
import type { DailyReport } from './daily-report-tally.js';

const percent = (value: number | null): CsvField => (value === null ? null : value.toFixed(4));

export const DAILY_REPORT_CSV_HEADER = [
  'table_id',
  'macau_day',
  'currency',
  'rounds',
  'void_rolls',
  'bets',
  'handle_minor',
  'payouts_minor',
  'hold_minor',
  'hold_pct_actual',
  'hold_pct_theoretical',
  'biggest_win_minor',
  'biggest_win_round_id',
  'biggest_win_bet_id',
  'biggest_win_spot',
  'odds_5_16_in_force',
  'odds_6_15_in_force',
  'shaker_in_force',
  'authorization_in_force',
] as const;

/**
 * A day's house options in force, each field already written: the value at
 * the day's start, then each change during the day (`VALUE from HH:MM:SS`,
 * Macau time, joined by `; `); null when the table did not exist that day.
 */
export interface OptionsInForceFields {
  readonly odds516: string | null;
  readonly odds615: string | null;
  readonly shaker: string | null;
  readonly authorization: string | null;
}

export interface DailyReportCsvRow {
  readonly report: DailyReport;
  readonly optionsInForce: OptionsInForceFields;
}

export function dailyReportsCsv(rows: readonly DailyReportCsvRow[]): string {
  return toCsv(
    DAILY_REPORT_CSV_HEADER,
    rows.map(({ report: r, optionsInForce: o }) => [
      ...[r.tableId, r.macauDay, r.currency, r.rounds, r.voidRolls, r.bets],
      ...[r.handleMinor, r.payoutsMinor, r.holdMinor],
      ...[percent(r.holdPercentActual), percent(r.holdPercentTheoretical)],
      r.biggestWin?.winMinor ?? null,
      r.biggestWin?.roundId ?? null,
      r.biggestWin?.betId ?? null,
      r.biggestWin?.spot ?? null,
      ...[o.odds516, o.odds615, o.shaker, o.authorization],
    ]),
  );
}
