/**
 * A table's report for one Macau day, from the journal alone: the rounds
 * settled that day (`round-settled`, with every bet's return, aligned with
 * the round's `bet-placed` and `bet-withdrawn` entries), the
 * void rolls of those rounds (`roll-voided`, Art. 3.3) and the Art. 6.6 odds in
 * force for each (`table-created`, `table-settings-changed`), turned into the
 * plain input of `dailyReports` (src/compliance) and rendered as JSON, CSV or
 * a printable page.
 *
 * The journal has no index by time, so the table's entries are read from its
 * first (the odds in force may have been set long before) up to shortly after
 * the day's end.
 */
import {
  addDays,
  type DailyReport,
  type DailyReportInput,
  dailyReports,
  dailyReportsCsv,
  dayNumber,
  type IsoDate,
  isIsoDate,
  MACAU_UTC_OFFSET_MS,
  macauDate,
  type SettledRound,
} from '../compliance/index.js';
import type { Store } from '../ledger/index.js';
import type { TotalOdds } from '../rules/index.js';
import { type BetResult, betResults, type RoundEvent } from '../table/index.js';
import { renderDailyReportHtml } from './daily-report-html.js';
import { readTableJournal, StandingBets } from './round-snapshot.js';
import type { OptionsAuthorization, TableSettings } from './table-settings.js';

export type ReportFormat = 'json' | 'csv' | 'html';
export const REPORT_FORMATS: readonly ReportFormat[] = ['json', 'csv', 'html'];

/** Entries this long after the day's end are no longer read: a transaction's clock can lag its seq. */
const READ_PAST_DAY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The report's ids are at most 64 characters; a longer bet id is left out of it. */
const REPORT_ID_LENGTH_MAX = 64;

/**
 * House options in force from an instant (Art. 8): the odds of 5/16 and 6/15
 * (Art. 6.6), the shaker, and the authorization they carry, with its mark
 * (`dicj`, or `demonstration` / `simulation`, which are not the DICJ's).
 */
export interface OptionsPeriod {
  /** From the day's start, or the change's instant during the day. */
  readonly fromMs: number;
  readonly totalOdds: TotalOdds;
  readonly shaker: TableSettings['shaker'];
  readonly authorization: OptionsAuthorization | null;
}

export interface TableDay {
  readonly tableId: string;
  readonly tableName: string;
  readonly date: IsoDate;
  readonly report: DailyReport;
  /** The options in force at the day's start, then each change of them during the day. */
  readonly optionsInForce: readonly OptionsPeriod[];
  /** What `dailyReports` was given: the day's settled rounds as plain data. */
  readonly input: DailyReportInput;
}

type Settled = Extract<RoundEvent, { type: 'round-settled' }>;

/** The instant a Macau day starts. */
export function macauDayStartMs(date: IsoDate): number {
  const days = dayNumber(date);
  if (days === null) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return days * DAY_MS - MACAU_UTC_OFFSET_MS;
}

/** The table's day, read from its journal; undefined when there is no such table. */
export async function readTableDay(
  store: Store,
  tableId: string,
  date: IsoDate,
): Promise<TableDay | undefined> {
  if (!isIsoDate(date)) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  const dayStartMs = macauDayStartMs(date);
  const dayEndMs = macauDayStartMs(addDays(date, 1));
  const readUntilMs = dayEndMs + READ_PAST_DAY_MS;
  let settings: TableSettings | undefined;
  let optionsInForce: OptionsPeriod[] = [];
  let voidRolls = 0;
  const rounds: SettledRound[] = [];
  const bets = new StandingBets();
  for await (const entry of readTableJournal(store, tableId, 1)) {
    // Past the day, once the table's settings are known: the rest is later play.
    if (entry.atMs > readUntilMs && settings !== undefined) break;
    const payload = entry.payload as { settings?: TableSettings } & Partial<RoundEvent>;
    bets.apply(payload as RoundEvent);
    if (entry.type === 'table-created' || entry.type === 'table-settings-changed') {
      settings = payload.settings;
      if (settings !== undefined && entry.atMs < dayEndMs) {
        const period = optionsPeriod(settings, Math.max(entry.atMs, dayStartMs));
        if (entry.atMs < dayStartMs) optionsInForce = [period];
        else if (!sameOptions(optionsInForce.at(-1), period)) optionsInForce.push(period);
      }
    } else if (
      entry.type === 'dome-covered' &&
      payload.type === 'dome-covered' &&
      payload.newRound
    ) {
      voidRolls = 0;
    } else if (entry.type === 'roll-voided') {
      voidRolls++;
    } else if (entry.type === 'round-settled') {
      const settled = payload as Settled;
      if (macauDate(settled.atMs) === date && settings !== undefined) {
        const results = betResults(bets.list, settled);
        rounds.push(settledRound(settled, results, voidRolls, settings.paytable.totalOdds));
      }
    }
  }
  if (settings === undefined) return undefined;
  const record = await store.getTable(tableId);
  const tableName = (record?.config as TableSettings | undefined)?.name ?? settings.name;
  const totalOdds = rounds[0]?.totalOdds ?? settings.paytable.totalOdds;
  const input: DailyReportInput = {
    tableId,
    currency: store.currency,
    totalOdds,
    // Each round names its odds only where they differ from the day's first (Art. 6.6).
    rounds: rounds.map(({ totalOdds: odds, ...round }) =>
      odds === undefined || sameOdds(odds, totalOdds) ? round : { ...round, totalOdds: odds },
    ),
  };
  const reports = dailyReports(input);
  // The input is built from the journal: a refusal here is a bug, not an operating error.
  if (!reports.ok) throw new Error(`daily report of ${tableId} ${date}: ${reports.error.message}`);
  const report = reports.value[0] ?? emptyReport(tableId, store.currency, date);
  return { tableId, tableName, date, report, input, optionsInForce };
}

function optionsPeriod(settings: TableSettings, fromMs: number): OptionsPeriod {
  const odds = settings.paytable.totalOdds;
  return {
    fromMs,
    totalOdds: { '5/16': odds['5/16'], '6/15': odds['6/15'] },
    shaker: settings.shaker,
    // Settings stored before authorizations were recorded have none.
    authorization: settings.authorization ?? null,
  };
}

/** A change of limits alone is not a change of the options in force. */
function sameOptions(a: OptionsPeriod | undefined, b: OptionsPeriod): boolean {
  return (
    a !== undefined &&
    sameOdds(a.totalOdds, b.totalOdds) &&
    a.shaker === b.shaker &&
    JSON.stringify(a.authorization) === JSON.stringify(b.authorization)
  );
}

function settledRound(
  event: Settled,
  results: readonly BetResult[],
  voidRolls: number,
  totalOdds: TotalOdds,
): SettledRound {
  return {
    roundId: String(event.roundNo),
    settledAtMs: event.atMs,
    voidRolls,
    bets: results.map((r) => ({
      ...(r.betId.length <= REPORT_ID_LENGTH_MAX ? { betId: r.betId } : {}),
      spot: r.spot,
      stakeMinor: r.stakeMinor,
      returnedMinor: r.returnedMinor,
    })),
    totalOdds: { '5/16': totalOdds['5/16'], '6/15': totalOdds['6/15'] },
  };
}

const sameOdds = (a: TotalOdds, b: TotalOdds): boolean =>
  a['5/16'] === b['5/16'] && a['6/15'] === b['6/15'];

/** A day on which no round was settled: zeros, and no percentages. */
function emptyReport(tableId: string, currency: string, date: IsoDate): DailyReport {
  return {
    tableId,
    macauDay: date,
    currency,
    rounds: 0,
    voidRolls: 0,
    bets: 0,
    handleMinor: 0,
    payoutsMinor: 0,
    holdMinor: 0,
    holdPercentActual: null,
    holdPercentTheoretical: null,
    biggestWin: null,
    bySpot: [],
  };
}

export interface RenderedReport {
  readonly contentType: string;
  readonly body: string;
  /** A file name for a download: cussec-T1-2026-03-06.csv */
  readonly fileName: string;
}

/** The day in one of the formats; `generatedAtMs` goes on the printable page. */
export function renderTableDay(
  day: TableDay,
  format: ReportFormat,
  generatedAtMs: number,
): RenderedReport {
  const fileName = `cussec-${day.tableId}-${day.date}.${format}`;
  switch (format) {
    case 'json':
      return {
        contentType: 'application/json; charset=utf-8',
        body:
          JSON.stringify(
            {
              tableId: day.tableId,
              tableName: day.tableName,
              report: day.report,
              optionsInForce: day.optionsInForce,
            },
            null,
            2,
          ) + '\n',
        fileName,
      };
    case 'csv':
      return {
        contentType: 'text/csv; charset=utf-8',
        body: dailyReportsCsv([day.report]),
        fileName,
      };
    case 'html':
      return {
        contentType: 'text/html; charset=utf-8',
        body: renderDailyReportHtml(day.report, {
          tableName: day.tableName,
          generatedAtMs,
          optionsInForce: day.optionsInForce,
        }),
        fileName,
      };
  }
}
