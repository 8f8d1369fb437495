/**
 * What an export's checks need from outside its range (docs/export-format.md,
 * "Context"): for each table with an entry in the range, its last round
 * before the range, the settings in force, the Art. 8 decisions its
 * adoptions rest on, and the holiday lists of the years those adoptions
 * count across. Read by the journal's indexes (by table, by table and type),
 * so the cost is a round and a few decisions a table, not the history.
 */
import {
  isEntryOf,
  type JournalEntry,
  type JournalEntryOf,
  type JournalType,
} from '../../journal/index.js';
import type { IndexedJournalType, SnapshotReader } from '../../ledger/index.js';
import type { HouseOptionsProposedEvent } from '../../compliance/index.js';

/** An indexed type of the journal's union. */
type Indexed = IndexedJournalType & JournalType;

const PAGE_ROWS = 1_000;
const SETTINGS = ['table-created', 'table-settings-changed'] as const;
const DECISIONS = [
  'house-options-proposed',
  'dicj-authorization-recorded',
  'house-options-withdrawn',
] as const;

export interface ExportScope {
  readonly fromSeq: number;
  readonly toSeq: number;
  /** The table checked by rule; null: every table. */
  readonly tableId: string | null;
}

export interface ExportPlan {
  /** Entries from before the range, by seq, each once. */
  readonly context: readonly JournalEntry[];
  /** The years the Art. 8 counts of the range's adoptions cross. */
  readonly holidayYears: readonly number[];
}

export async function planExport(reader: SnapshotReader, scope: ExportScope): Promise<ExportPlan> {
  const tables = scope.tableId === null ? await reader.listTables() : [scope.tableId];
  const context = new Map<number, JournalEntry>();
  const years = new Set<number>();
  for (const tableId of tables) {
    const inRange = await reader.readTableJournal({
      tableId,
      afterSeq: scope.fromSeq - 1,
      beforeSeq: scope.toSeq + 1,
      limit: 1,
    });
    if (inRange.length === 0) continue;
    const adoptions = await indexed(reader, tableId, ['house-options-adopted'], scope);
    const proposals = await indexed(reader, tableId, ['house-options-proposed'], {
      fromSeq: 1,
      toSeq: scope.toSeq,
    });
    for (const adoption of adoptions) {
      const proposal = proposals.find((p) => p.payload.proposalId === adoption.payload.proposalId);
      if (proposal !== undefined) for (const year of yearsOf(proposal.payload)) years.add(year);
    }
    if (scope.fromSeq === 1) continue;
    for (const entry of await tableContext(reader, tableId, scope.fromSeq, adoptions))
      context.set(entry.seq, entry);
  }
  if (scope.fromSeq > 1)
    for (const entry of await holidayContext(reader, scope.fromSeq, years))
      context.set(entry.seq, entry);
  return {
    context: [...context.values()].sort((a, b) => a.seq - b.seq),
    holidayYears: [...years].sort((a, b) => a - b),
  };
}

/**
 * A table's round in progress (or last), the decisions behind its adoptions,
 * and the settings in force from before the first of them to the range.
 */
async function tableContext(
  reader: SnapshotReader,
  tableId: string,
  fromSeq: number,
  adoptions: readonly JournalEntryOf<'house-options-adopted'>[],
): Promise<JournalEntry[]> {
  const before = { fromSeq: 1, toSeq: fromSeq - 1 };
  const round = await lastRound(reader, tableId, fromSeq);
  const [lastAdoption] = await indexed(reader, tableId, ['house-options-adopted'], before, 1);
  const adopted = new Set(adoptions.map((a) => a.payload.proposalId));
  if (lastAdoption !== undefined) adopted.add(lastAdoption.payload.proposalId);
  const decisions =
    adopted.size === 0
      ? []
      : (await indexed(reader, tableId, DECISIONS, before)).filter((d) =>
          adopted.has(d.payload.proposalId),
        );
  const found = [...round, ...(lastAdoption === undefined ? [] : [lastAdoption]), ...decisions];
  // The settings in force at the first of them, and every change of them since.
  const first = Math.min(fromSeq, ...found.map((e) => e.seq));
  const [inForce] = await indexed(reader, tableId, SETTINGS, { fromSeq: 1, toSeq: first - 1 }, 1);
  const since = { fromSeq: (inForce?.seq ?? 0) + 1, toSeq: fromSeq - 1 };
  const settings = await indexed(reader, tableId, SETTINGS, since);
  return [...found, ...(inForce === undefined ? [] : [inForce]), ...settings];
}

/**
 * The table's entries from the first of its last round begun before `beforeSeq`
 * (its last `dome-covered` with `newRound`), read back from there; none when it
 * had no round.
 */
async function lastRound(
  reader: SnapshotReader,
  tableId: string,
  beforeSeq: number,
): Promise<JournalEntry[]> {
  const found: JournalEntry[] = [];
  for (let before = beforeSeq; ;) {
    const page = await reader.readTableJournal({
      tableId,
      afterSeq: 0,
      beforeSeq: before,
      limit: PAGE_ROWS,
      newestFirst: true,
    });
    for (const entry of page) {
      if (entry.type === 'table-created') return [];
      found.push(entry);
      if (entry.type === 'dome-covered' && entry.payload.newRound) return found.reverse();
    }
    if (page.length < PAGE_ROWS) return [];
    before = page[page.length - 1]!.seq;
  }
}

/** For each year, the last list loaded before the range: the one in force when it starts. */
async function holidayContext(
  reader: SnapshotReader,
  fromSeq: number,
  years: ReadonlySet<number>,
): Promise<JournalEntry[]> {
  if (years.size === 0) return [];
  const loads = await indexed(reader, null, ['holiday-year-loaded'], {
    fromSeq: 1,
    toSeq: fromSeq - 1,
  });
  const last = new Map<number, JournalEntry>();
  for (const load of loads)
    if (years.has(load.payload.list.year)) last.set(load.payload.list.year, load);
  return [...last.values()];
}

/** Every year from a proposal's request date to its adoption date. */
function yearsOf(p: HouseOptionsProposedEvent): number[] {
  const first = Number(p.requestDate.slice(0, 4));
  const last = Number(p.adoptionDate.slice(0, 4));
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
}

/**
 * A table's (or, for null, the floor's) entries of these types with seq in
 * [fromSeq, toSeq], oldest first; or with `newest`, only that many, newest first.
 */
async function indexed<K extends Indexed>(
  reader: SnapshotReader,
  tableId: string | null,
  types: readonly K[],
  span: { readonly fromSeq: number; readonly toSeq: number },
  newest?: number,
): Promise<JournalEntryOf<K>[]> {
  const out: JournalEntryOf<K>[] = [];
  if (span.toSeq < span.fromSeq) return out;
  for (let after = span.fromSeq - 1; ;) {
    const page = await reader.readIndexedJournal({
      tableId,
      types,
      afterSeq: newest === undefined ? after : span.fromSeq - 1,
      beforeSeq: span.toSeq + 1,
      limit: newest ?? PAGE_ROWS,
      ...(newest === undefined ? {} : { newestFirst: true }),
    });
    for (const entry of page) if (isEntryOf(entry, types)) out.push(entry);
    if (newest !== undefined || page.length < PAGE_ROWS) return out;
    after = page[page.length - 1]!.seq;
  }
}
