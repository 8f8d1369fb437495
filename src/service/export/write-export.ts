/**
 * Writes an export (docs/export-format.md) from one snapshot of a database:
 * the header, the holiday lists and context the checks need, every entry of
 * the range with the transfers it implies, and, for the whole journal, every
 * other transfer and every account; last the end record with the digest.
 *
 * Which transfers an entry implies is read from the ledger by the ids and
 * references the format names, so a transfer that is missing or differs is
 * written as the ledger holds it (or not at all) and the verifier says so.
 */
import { BUNDLED_HOLIDAY_YEARS } from '../../compliance/index.js';
import {
  type ChainPoint,
  GENESIS_HASH,
  JournalEntryInvalid,
  type JournalEntry,
  type StoredEntry,
} from '../../journal/index.js';
import type { Currency, SnapshotReader, Transfer } from '../../ledger/index.js';
import { isRecord } from '../../rules/index.js';
import type { ServiceErrorCode } from '../refusal.js';
import { type ExportScope, planExport } from './context.js';
import {
  accountRecord,
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  entryRecord,
  type HeaderRecord,
  holidaysRecord,
  type LineSink,
  type RawEntry,
  RecordWriter,
  transferRecord,
} from './records.js';

export interface ExportRequest {
  /** Default 1. */
  readonly fromSeq?: number | undefined;
  /** Default: the journal's last entry. */
  readonly toSeq?: number | undefined;
  /** The table checked by rule; null: every table. */
  readonly tableId: string | null;
  readonly exportedAtMs: number;
  readonly generator: string;
}

export interface ExportSummary {
  readonly range: { readonly fromSeq: number; readonly toSeq: number };
  readonly anchor: ChainPoint;
  readonly last: ChainPoint;
  readonly head: ChainPoint;
  readonly table: string | null;
  readonly ledger: 'whole' | 'range';
  readonly entries: number;
  readonly contextEntries: number;
  readonly transfers: number;
  readonly accounts: number;
  readonly bytes: number;
}

/** A range or table that cannot be exported: the caller's input, not a fault of the database. */
export class ExportRequestError extends Error {
  constructor(
    readonly code: Extract<
      ServiceErrorCode,
      'export_range_invalid' | 'unknown_table' | 'journal_empty'
    >,
    message: string,
  ) {
    super(message);
    this.name = 'ExportRequestError';
  }
}

const PAGE_ROWS = 2_000;
/** Transfer ids or references looked up per query. */
const LOOKUP_BATCH = 1_000;
/** What a round's `prizes-paid` implies (a forfeit follows its own entry). */
const PAYOUT_KINDS = new Set(['stakes-collected', 'payout']);

export async function writeExport(
  reader: SnapshotReader,
  currency: Currency,
  request: ExportRequest,
  sink: LineSink,
): Promise<ExportSummary> {
  const header = await headerOf(reader, currency, request);
  const scope: ExportScope = { ...header.range, tableId: header.table };
  const plan = await planExport(reader, scope);
  const out = new RecordWriter(sink);
  out.write(header);
  for (const list of BUNDLED_HOLIDAY_YEARS)
    if (plan.holidayYears.includes(list.year)) out.write(holidaysRecord(list));
  for (const entry of plan.context) out.write(entryRecord(entry, 'context'));
  const written = await writeEntries(reader, out, scope, header.ledger === 'whole');
  let accounts = 0;
  if (header.ledger === 'whole') {
    await writeUnimplied(reader, out, written.ids);
    accounts = await writeAccounts(reader, out);
  }
  out.end();
  return {
    range: header.range,
    anchor: header.anchor,
    last: written.last,
    head: header.head,
    table: header.table,
    ledger: header.ledger,
    entries: written.entries,
    contextEntries: plan.context.length,
    transfers: written.transfers,
    accounts,
    bytes: out.bytes,
  };
}

async function headerOf(
  reader: SnapshotReader,
  currency: Currency,
  request: ExportRequest,
): Promise<HeaderRecord> {
  const { lastSeq, lastHash } = await reader.journalHead();
  if (lastSeq === 0) throw new ExportRequestError('journal_empty', 'the journal has no entry yet');
  const fromSeq = request.fromSeq ?? 1;
  const toSeq = request.toSeq ?? lastSeq;
  if (!(1 <= fromSeq && fromSeq <= toSeq && toSeq <= lastSeq))
    throw new ExportRequestError(
      'export_range_invalid',
      `the range must be within the journal's entries 1 to ${lastSeq}, from first to last; got ${fromSeq} to ${toSeq}`,
    );
  const table = request.tableId;
  if (table !== null && !(await reader.listTables()).includes(table))
    throw new ExportRequestError('unknown_table', `there is no table "${table}"`);
  const [before] =
    fromSeq === 1 ? [] : await reader.readJournal({ fromSeq: fromSeq - 1, limit: 1 });
  return {
    record: 'header',
    format: EXPORT_FORMAT,
    version: EXPORT_FORMAT_VERSION,
    currency,
    range: { fromSeq, toSeq },
    anchor: { seq: fromSeq - 1, hash: before?.hash ?? GENESIS_HASH },
    head: { seq: lastSeq, hash: lastHash },
    table,
    ledger: fromSeq === 1 && toSeq === lastSeq && table === null ? 'whole' : 'range',
    exportedAtMs: request.exportedAtMs,
    generator: request.generator,
  };
}

interface Written {
  entries: number;
  transfers: number;
  last: ChainPoint;
  /** The ids of the transfers written, kept for a whole export. */
  readonly ids: Set<string>;
}

async function writeEntries(
  reader: SnapshotReader,
  out: RecordWriter,
  scope: ExportScope,
  keepIds: boolean,
): Promise<Written> {
  const written: Written = { entries: 0, transfers: 0, last: { seq: 0, hash: '' }, ids: new Set() };
  for (let seq = scope.fromSeq; seq <= scope.toSeq;) {
    const page = (await readPage(reader, seq, Math.min(PAGE_ROWS, scope.toSeq - seq + 1))).filter(
      (e) => e.seq <= scope.toSeq,
    );
    if (page.length === 0) break;
    const implied = await impliedTransfers(reader, page, scope.tableId);
    for (const entry of page) {
      out.write(entryRecord(entry, 'entry'));
      for (const t of implied.get(entry.seq) ?? []) {
        out.write(transferRecord(t));
        written.transfers++;
        if (keepIds) written.ids.add(t.id);
      }
    }
    written.entries += page.length;
    const last = page[page.length - 1]!;
    written.last = { seq: last.seq, hash: last.hash };
    seq = last.seq + 1;
  }
  return written;
}

/**
 * A page of entries from `fromSeq`. An entry that does not parse (edited in
 * the database) ends the page as stored, so the verifier judges its hash.
 */
async function readPage(
  reader: SnapshotReader,
  fromSeq: number,
  limit: number,
): Promise<(JournalEntry | RawEntry)[]> {
  try {
    return await reader.readJournal({ fromSeq, limit });
  } catch (error) {
    if (!(error instanceof JournalEntryInvalid) || error.stored === undefined) throw error;
    const before =
      error.position === 0 ? [] : await reader.readJournal({ fromSeq, limit: error.position });
    return [...before, rawEntry(error.stored)];
  }
}

function rawEntry(stored: StoredEntry): RawEntry {
  let payload: unknown;
  try {
    payload = JSON.parse(stored.payloadJson);
  } catch {
    payload = stored.payloadJson;
  }
  const { seq, tableId, type, atMs, prevHash, hash } = stored;
  return { seq, tableId, type, atMs, prevHash, hash, payload };
}

/** What an entry implies: transfer ids, or a round's reference (its payouts). */
type Wanted = { readonly id: string } | { readonly reference: string };

/** The transfers each entry of the page implies, by its seq, in the order the format gives. */
async function impliedTransfers(
  reader: SnapshotReader,
  page: readonly (JournalEntry | RawEntry)[],
  scope: string | null,
): Promise<Map<number, Transfer[]>> {
  const wanted = new Map<number, Wanted>();
  for (const entry of page) {
    const want = wantedBy(entry, scope);
    if (want !== null) wanted.set(entry.seq, want);
  }
  const ids = [...wanted.values()].flatMap((w) => ('id' in w ? [w.id] : []));
  const references = [...wanted.values()].flatMap((w) => ('reference' in w ? [w.reference] : []));
  const byId = new Map<string, Transfer>();
  const byReference = new Map<string, Transfer[]>();
  for (let i = 0; i < ids.length; i += LOOKUP_BATCH)
    for (const t of await reader.transfersByIds(ids.slice(i, i + LOOKUP_BATCH))) byId.set(t.id, t);
  for (let i = 0; i < references.length; i += LOOKUP_BATCH)
    for (const t of await reader.transfersByReferences(references.slice(i, i + LOOKUP_BATCH)))
      if (PAYOUT_KINDS.has(t.kind))
        byReference.set(t.reference, [...(byReference.get(t.reference) ?? []), t]);
  const out = new Map<number, Transfer[]>();
  for (const [seq, want] of wanted) {
    const found = 'id' in want ? byId.get(want.id) : undefined;
    out.set(
      seq,
      'id' in want ? (found === undefined ? [] : [found]) : (byReference.get(want.reference) ?? []),
    );
  }
  return out;
}

/** What one entry implies (docs/export-format.md, "Money"), when it is checked by rule. */
function wantedBy(entry: JournalEntry | RawEntry, scope: string | null): Wanted | null {
  const type: string = entry.type;
  const payload: unknown = entry.payload;
  if (!isRecord(payload)) return null;
  const named = payload['tableId'];
  const table =
    entry.tableId ?? (type === 'winnings-forfeited' && typeof named === 'string' ? named : null);
  if (table === null) {
    const cage = scope === null && (type === 'deposit' || type === 'withdrawal');
    return cage && typeof payload['transferId'] === 'string' ? { id: payload['transferId'] } : null;
  }
  if (scope !== null && table !== scope) return null;
  const round = `${table}:${String(payload['roundNo'])}`;
  const bet = payload['bet'];
  const betId = isRecord(bet) ? String(bet['betId']) : '';
  switch (type) {
    case 'bet-placed':
      return { id: `bet:${round}:${betId}` };
    case 'bet-withdrawn':
      return { id: `withdraw:${round}:${betId}` };
    case 'prizes-paid':
      return { reference: `round:${round}` };
    case 'winnings-forfeited':
      return typeof payload['transferId'] === 'string' ? { id: payload['transferId'] } : null;
    default:
      return null;
  }
}

/** Whole export: the ledger's transfers no entry implies (a sound ledger has none), in posting order. */
async function writeUnimplied(
  reader: SnapshotReader,
  out: RecordWriter,
  written: ReadonlySet<string>,
): Promise<void> {
  if ((await reader.countTransfers()) === written.size) return;
  for (let after = 0; ;) {
    const page = await reader.listTransfers({ afterSeq: after, limit: PAGE_ROWS });
    for (const t of page) if (!written.has(t.id)) out.write(transferRecord(t));
    if (page.length < PAGE_ROWS) return;
    after = page[page.length - 1]!.seq;
  }
}

/** Whole export: every account, by id in the order of UTF-16 code units (the format's). */
async function writeAccounts(reader: SnapshotReader, out: RecordWriter): Promise<number> {
  const accounts = [];
  for (let afterId = ''; ;) {
    const page = await reader.listAccounts({ afterId, limit: PAGE_ROWS });
    accounts.push(...page);
    if (page.length < PAGE_ROWS) break;
    afterId = page[page.length - 1]!.id;
  }
  accounts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const account of accounts) out.write(accountRecord(account));
  return accounts.length;
}
