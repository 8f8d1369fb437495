/**
 * Daily reports as CSV (RFC 4180): money in integer minor units, percentages
 * with four decimals, an empty field where a figure does not exist (no stake,
 * no win). One file for the day's totals, one for the figures per spot.
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
] as const;

export function dailyReportsCsv(reports: readonly DailyReport[]): string {
  return toCsv(
    DAILY_REPORT_CSV_HEADER,
    reports.map((r) => [
      ...[r.tableId, r.macauDay, r.currency, r.rounds, r.voidRolls, r.bets],
      ...[r.handleMinor, r.payoutsMinor, r.holdMinor],
      ...[percent(r.holdPercentActual), percent(r.holdPercentTheoretical)],
      r.biggestWin?.winMinor ?? null,
      r.biggestWin?.roundId ?? null,
      r.biggestWin?.betId ?? null,
      r.biggestWin?.spot ?? null,
    ]),
  );
}

export const SPOT_REPORT_CSV_HEADER = [
  'table_id',
  'macau_day',
  'currency',
  'spot',
  'bets',
  'handle_minor',
  'payouts_minor',
  'hold_minor',
  'hold_pct_actual',
  'hold_pct_theoretical',
] as const;

export function spotReportsCsv(reports: readonly DailyReport[]): string {
  return toCsv(
    SPOT_REPORT_CSV_HEADER,
    reports.flatMap((r) =>
      r.bySpot.map((s) => [
        ...[r.tableId, r.macauDay, r.currency, s.spot, s.bets],
        ...[s.handleMinor, s.payoutsMinor, s.holdMinor],
        ...[percent(s.holdPercentActual), percent(s.holdPercentTheoretical)],
      ]),
    ),
  );
}
