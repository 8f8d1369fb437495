/**
 * Reads of the journal's indexed entries (settings, house options, fairness,
 * holidays, settlements; see INDEXED_JOURNAL_TYPES): what a read needs from a
 * table's history without scanning the bets and rolls in between.
 */
import type { JournalEntry } from '../journal/index.js';
import type { IndexedJournalType, Store } from '../ledger/index.js';

const PAGE_ROWS = 1_000;

/** A table's (or, for null, the floor's) entries of these types after `afterSeq`, oldest first. */
export async function* readIndexedEntries(
  store: Store,
  tableId: string | null,
  types: readonly IndexedJournalType[],
  afterSeq = 0,
): AsyncGenerator<JournalEntry> {
  for (let seq = afterSeq; ;) {
    const page = await store.readIndexedJournal({
      tableId,
      types,
      afterSeq: seq,
      limit: PAGE_ROWS,
    });
    yield* page;
    if (page.length < PAGE_ROWS) return;
    seq = page[page.length - 1]!.seq;
    // SQLite reads synchronously: a turn of the event loop between pages keeps the bets going.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The newest entry of these types before `beforeSeq` (default: the newest of all), if any. */
export async function lastIndexedEntry(
  store: Store,
  tableId: string | null,
  types: readonly IndexedJournalType[],
  beforeSeq?: number,
): Promise<JournalEntry | undefined> {
  const [entry] = await store.readIndexedJournal({
    tableId,
    types,
    ...(beforeSeq === undefined ? {} : { beforeSeq }),
    limit: 1,
    newestFirst: true,
  });
  return entry;
}
