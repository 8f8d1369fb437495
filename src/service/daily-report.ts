/**
 * A table's report for one Macau day, from the journal alone: the rounds
 * settled that day (`round-settled`, with every bet's return, aligned with
 * the round's `bet-placed` and `bet-withdrawn` entries), the
 * void rolls of those rounds (`roll-voided`, Art. 3.3) and the Art. 6.6 odds in
 * force for each (`table-created`, `table-settings-changed`), tallied round by
 * round (`tallyRound`, src/compliance) and rendered as JSON, CSV or a
 * printable page.
 *
 * The day's settlements are found by time, by an index (migration 5); the
 * entries read are those of the day's rounds only. A day folded once is kept
 * as a running tally (`DayFold`) by whoever reads it again (the server's read
 * workers): the next read folds only the settlements journaled since.
 */
import {
  addDays,
  type DailyReport,
  dailyReportsCsv,
  dayNumber,
  dayReport,
  type DayTally,
  type IsoDate,
  isIsoDate,
  MACAU_UTC_OFFSET_MS,
  macauDate,
  newDayTally,
  type OptionsInForceFields,
  type SettledRound,
  tallyRound,
} from '../compliance/index.js';
import { isEntryOf, isRoundEventEntry, type JournalEntryOf } from '../journal/index.js';
import { PAGE_ROWS_MAX, type Store } from '../ledger/index.js';
import type { TotalOdds } from '../rules/index.js';
import { type BetResult, betResults, type RoundEvent } from '../table/index.js';
import { macauTimeOfDay, renderDailyReportHtml } from './daily-report-html.js';
import { lastIndexedEntry, readIndexedEntries } from './indexed-journal.js';
import { readTableJournal, StandingBets } from './round-snapshot.js';
import {
  authorizationText,
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
}

/**
 * A table's day folded up to a settlement, as plain data (it goes to and from
 * a worker): given back to foldTableDay, only the settlements after `seq` are
 * read, and the tally with them is the tally of a fold from nothing.
 */
export interface DayFold {
  readonly tableId: string;
  readonly date: IsoDate;
  /** The table's newest settlement when the fold was made (0: none): those up to it are in. */
  readonly seq: number;
  /** A settlement past the day's reading window came: no later one can be of the day. */
  readonly final: boolean;
  readonly tally: DayTally;
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
  return (await foldTableDay(store, tableId, date))?.day;
}

/**
 * The table's day and its fold; undefined when there is no such table. From
 * nothing (`kept` absent), the day's settlements come by the index of
 * settlements by time; from a kept fold of the same day, by the index of the
 * table's settlements after its seq, until one past the day's reading window.
 * The bets come from the journal between the settlement before the first
 * settlement folded and the last: the cost is the rounds folded, not the
 * table's history, and after a settlement, one round. The settings come by the
 * index of the table's settings entries, so a change of them mid-day needs no
 * fold again: each round is tallied under the odds in force when it settled.
 */
export async function foldTableDay(
  store: Store,
  tableId: string,
  date: IsoDate,
  kept?: DayFold,
): Promise<{ readonly day: TableDay; readonly fold: DayFold } | undefined> {
  if (!isIsoDate(date)) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  if (kept !== undefined && (kept.tableId !== tableId || kept.date !== date))
    throw new RangeError(`a fold of ${kept.tableId} ${kept.date} given for ${tableId} ${date}`);
  const readUntilMs = macauDayStartMs(addDays(date, 1)) + READ_PAST_DAY_MS;
  const changes: JournalEntryOf<(typeof SETTINGS_TYPES)[number]>[] = [];
  for await (const e of readIndexedEntries(store, tableId, SETTINGS_TYPES)) changes.push(e);
  if (changes.length === 0) return undefined;
  // The settings in force at an entry: the last change journaled before it.
  const settingsAt = (seq: number): TableSettings =>
    settingsOf(changes.findLast((c) => c.seq < seq) ?? changes[0]!);
  const { settlements, seq, final } =
    kept === undefined
      ? await daySettlements(store, tableId, date)
      : await settlementsSince(store, kept, readUntilMs);
  const tally: DayTally = structuredClone(kept?.tally ?? newDayTally());
  for (const { round, seq: settledSeq } of await settledRounds(store, tableId, settlements))
    tallyRound(tally, round, settingsAt(settledSeq).paytable.totalOdds);
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
  const report = dayReport(tableId, store.currency, date, tally);
  return {
    day: { tableId, tableName, date, report, optionsInForce },
    fold: { tableId, date, seq, final, tally },
  };
}

interface Settlements {
  /** The day's settlements to fold, oldest first. */
  readonly settlements: readonly JournalEntryOf<'round-settled'>[];
  readonly seq: number;
  readonly final: boolean;
}

/**
 * The day's settlements by the index by time, up to the table's newest
 * settlement read first (a later one is the next fold's).
 */
async function daySettlements(store: Store, tableId: string, date: IsoDate): Promise<Settlements> {
  const newest = await lastIndexedEntry(store, tableId, ['round-settled']);
  const seq = newest?.seq ?? 0;
  const readUntilMs = macauDayStartMs(addDays(date, 1)) + READ_PAST_DAY_MS;
  // A round lasts at least the betting time, so a day settles far fewer than PAGE_ROWS_MAX rounds.
  const settlements = (
    await store.readSettlements({
      tableId,
      fromAtMs: macauDayStartMs(date) - READ_PAST_DAY_MS,
      untilAtMs: readUntilMs,
      limit: PAGE_ROWS_MAX,
    })
  ).filter(
    (e): e is JournalEntryOf<'round-settled'> =>
      e.type === 'round-settled' && e.seq <= seq && macauDate(e.payload.atMs) === date,
  );
  return { settlements, seq, final: newest !== undefined && newest.atMs > readUntilMs };
}

/** Settlements read after a kept fold's seq at a time: after a settlement, one comes. */
const SINCE_PAGE_ROWS = 32;

/**
 * The day's settlements after a kept fold's seq, by the index of the table's
 * settlements, up to the first past the day's reading window (none later can
 * be of the day).
 */
async function settlementsSince(
  store: Store,
  kept: DayFold,
  readUntilMs: number,
): Promise<Settlements> {
  const settlements: JournalEntryOf<'round-settled'>[] = [];
  let { seq, final } = kept;
  while (!final) {
    const page = await store.readIndexedJournal({
      tableId: kept.tableId,
      types: ['round-settled'],
      afterSeq: seq,
      limit: SINCE_PAGE_ROWS,
    });
    for (const e of page) {
      if (!isEntryOf(e, ['round-settled'])) continue;
      if (e.atMs > readUntilMs) {
        final = true;
        break;
      }
      seq = e.seq;
      if (macauDate(e.payload.atMs) === kept.date) settlements.push(e);
    }
    if (page.length < SINCE_PAGE_ROWS) break;
  }
  return { settlements, seq, final };
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
 * The rounds of these settlements (oldest first), each with its standing
 * bets and void rolls, folded from the journal from just after the
 * settlement before the first.
 */
async function settledRounds(
  store: Store,
  tableId: string,
  settlements: readonly JournalEntryOf<'round-settled'>[],
): Promise<{ readonly round: SettledRound; readonly seq: number }[]> {
  if (settlements.length === 0) return [];
  const wanted = new Set(settlements.map((e) => e.seq));
  const lastSeq = settlements[settlements.length - 1]!.seq;
  const previous = await lastIndexedEntry(store, tableId, ['round-settled'], settlements[0]!.seq);
  const rounds: { round: SettledRound; seq: number }[] = [];
  const bets = new StandingBets();
  let voidRolls = 0;
  for await (const entry of readTableJournal(store, tableId, (previous?.seq ?? 0) + 1)) {
    if (entry.seq > lastSeq) break;
    if (!isRoundEventEntry(entry)) continue;
    const event = entry.payload;
    bets.apply(event);
    if (event.type === 'dome-covered' && event.newRound) voidRolls = 0;
    else if (event.type === 'roll-voided') voidRolls++;
    else if (event.type === 'round-settled' && wanted.has(entry.seq))
      rounds.push({
        round: settledRound(event, betResults(bets.list, event), voidRolls),
        seq: entry.seq,
      });
  }
  return rounds;
}

function settledRound(
  event: Settled,
  results: readonly BetResult[],
  voidRolls: number,
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
  };
}

const sameOdds = (a: TotalOdds, b: TotalOdds): boolean =>
  a['5/16'] === b['5/16'] && a['6/15'] === b['6/15'];

/**
 * Tables' days as the daily CSV, one row each: the figures and the house
 * options in force (Art. 8), written as the printable page writes them.
 */
export function tableDaysCsv(days: readonly TableDay[]): string {
  return dailyReportsCsv(
    days.map((d) => ({ report: d.report, optionsInForce: optionsInForceFields(d.optionsInForce) })),
  );
}

/**
 * Each option's value at the day's start, then each change of it during the
 * day: `30 from 00:00:00; 24 from 14:05:00` (Macau time). A period that
 * changes other options only does not repeat this one's value.
 */
function optionsInForceFields(periods: readonly OptionsPeriod[]): OptionsInForceFields {
  const field = (valueOf: (p: OptionsPeriod) => string): string | null => {
    const parts: string[] = [];
    let last: string | undefined;
    for (const p of periods) {
      const value = valueOf(p);
      if (value !== last) parts.push(`${value} from ${macauTimeOfDay(p.fromMs)}`);
      last = value;
    }
    return parts.length === 0 ? null : parts.join('; ');
  };
  return {
    odds516: field((p) => String(p.totalOdds['5/16'])),
    odds615: field((p) => String(p.totalOdds['6/15'])),
    shaker: field((p) => p.shaker),
    authorization: field((p) => authorizationText(p.authorization)),
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
        body: tableDaysCsv([day]),
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
