/**
 * A table's report for one Macau day, from the journal alone: the rounds
 * settled that day (`round-settled`, with every bet's return, aligned with
 * the round's `bet-placed` and `bet-withdrawn` entries), the
 * void rolls of those rounds (`roll-voided`, Art. 3.3) and the Art. 6.6 odds in
 * force for each (`table-created`, `table-settings-changed`), turned into the
 * plain input of `dailyReports` (src/compliance) and rendered as JSON, CSV or
 * a printable page.
 *
 * The day's settlements are found by time, by an index (migration 5); the
 * entries read are those of the day's rounds only.
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
import { isRoundEventEntry, type JournalEntryOf } from '../journal/index.js';
import { PAGE_ROWS_MAX, type Store } from '../ledger/index.js';
import type { TotalOdds } from '../rules/index.js';
import { type BetResult, betResults, type RoundEvent } from '../table/index.js';
import { renderDailyReportHtml } from './daily-report-html.js';
import { lastIndexedEntry, readIndexedEntries } from './indexed-journal.js';
import { readTableJournal, StandingBets } from './round-snapshot.js';
import {
  fromStoredSettings,
  type OptionsAuthorization,
  readStoredSettings,
  type TableSettings,
} from './table-settings.js';

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

/** A day as it is answered and rendered: everything but the plain input. */
export type TableDayView = Omit<TableDay, 'input'>;

type Settled = Extract<RoundEvent, { type: 'round-settled' }>;

/** The instant a Macau day starts. */
export function macauDayStartMs(date: IsoDate): number {
  const days = dayNumber(date);
  if (days === null) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return days * DAY_MS - MACAU_UTC_OFFSET_MS;
}

/**
 * The table's day, read from its journal; undefined when there is no such
 * table. The day's settlements come by the index of settlements by time, the
 * settings by the index of the table's settings entries, and the bets from the
 * journal between the previous day's last settlement and the day's last: the
 * cost is the day's play, not the table's history.
 */
export async function readTableDay(
  store: Store,
  tableId: string,
  date: IsoDate,
): Promise<TableDay | undefined> {
  if (!isIsoDate(date)) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  const readUntilMs = macauDayStartMs(addDays(date, 1)) + READ_PAST_DAY_MS;
  const changes: JournalEntryOf<(typeof SETTINGS_TYPES)[number]>[] = [];
  for await (const e of readIndexedEntries(store, tableId, SETTINGS_TYPES)) changes.push(e);
  if (changes.length === 0) return undefined;
  // The settings in force at an entry: the last change journaled before it.
  const settingsAt = (seq: number): TableSettings =>
    settingsOf(changes.findLast((c) => c.seq < seq) ?? changes[0]!);
  const rounds = await settledRounds(store, tableId, date, settingsAt);
  // As the day ended, else (a table created later) as it was created.
  const settings = settingsOf(changes.findLast((c) => c.atMs <= readUntilMs) ?? changes[0]!);
  const dayStartMs = macauDayStartMs(date);
  const dayEndMs = macauDayStartMs(addDays(date, 1));
  // The options at the day's start, then each change of them during the day.
  let optionsInForce: OptionsPeriod[] = [];
  for (const change of changes) {
    if (change.atMs >= dayEndMs) continue;
    const period = optionsPeriod(settingsOf(change), Math.max(change.atMs, dayStartMs));
    if (change.atMs < dayStartMs) optionsInForce = [period];
    else if (!sameOptions(optionsInForce.at(-1), period)) optionsInForce.push(period);
  }
  const record = await store.getTable(tableId);
  const tableName =
    record === undefined
      ? settings.name
      : readStoredSettings(record.config, `table ${tableId}`).name;
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

const SETTINGS_TYPES = ['table-created', 'table-settings-changed'] as const;
const settingsOf = (entry: JournalEntryOf<(typeof SETTINGS_TYPES)[number]>): TableSettings =>
  fromStoredSettings(entry.payload.settings);

/**
 * The rounds settled on the Macau day, each with its standing bets and void
 * rolls, folded from the journal from just after the previous settlement.
 * A round lasts at least the betting time, so a day settles far fewer than
 * PAGE_ROWS_MAX rounds.
 */
async function settledRounds(
  store: Store,
  tableId: string,
  date: IsoDate,
  settingsAt: (seq: number) => TableSettings,
): Promise<SettledRound[]> {
  const settlements = (
    await store.readSettlements({
      tableId,
      fromAtMs: macauDayStartMs(date) - READ_PAST_DAY_MS,
      untilAtMs: macauDayStartMs(addDays(date, 1)) + READ_PAST_DAY_MS,
      limit: PAGE_ROWS_MAX,
    })
  ).filter(
    (e): e is JournalEntryOf<'round-settled'> =>
      e.type === 'round-settled' && macauDate(e.payload.atMs) === date,
  );
  if (settlements.length === 0) return [];
  const wanted = new Set(settlements.map((e) => e.seq));
  const lastSeq = settlements[settlements.length - 1]!.seq;
  const previous = await lastIndexedEntry(store, tableId, ['round-settled'], settlements[0]!.seq);
  const rounds: SettledRound[] = [];
  const bets = new StandingBets();
  let voidRolls = 0;
  for await (const entry of readTableJournal(store, tableId, (previous?.seq ?? 0) + 1)) {
    if (entry.seq > lastSeq) break;
    if (!isRoundEventEntry(entry)) continue;
    const event = entry.payload;
    bets.apply(event);
    if (event.type === 'dome-covered' && event.newRound) voidRolls = 0;
    else if (event.type === 'roll-voided') voidRolls++;
    else if (event.type === 'round-settled' && wanted.has(entry.seq)) {
      const settled = event;
      const odds = settingsAt(entry.seq).paytable.totalOdds;
      rounds.push(settledRound(settled, betResults(bets.list, settled), voidRolls, odds));
    }
  }
  return rounds;
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
  day: TableDayView,
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
