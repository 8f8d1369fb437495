/**
 * Reads of the journal's indexed entries (settings, house options, fairness,
 * holidays, settlements; see INDEXED_JOURNAL_TYPES): what a read needs from a
 * table's history without scanning the bets and rolls in between.
 */
import { isEntryOf, type JournalEntryOf, type JournalType } from '../journal/index.js';
import type { IndexedJournalType, Store } from '../ledger/index.js';

/** An indexed type of the journal's union. */
type Indexed = IndexedJournalType & JournalType;

const PAGE_ROWS = 1_000;

/** A table's (or, for null, the floor's) entries of these types after `afterSeq`, oldest first. */
export async function* readIndexedEntries<K extends Indexed>(
  store: Store,
  tableId: string | null,
  types: readonly K[],
  afterSeq = 0,
): AsyncGenerator<JournalEntryOf<K>> {
  for (let seq = afterSeq; ;) {
    const page = await store.readIndexedJournal({
      tableId,
      types,
      afterSeq: seq,
      limit: PAGE_ROWS,
    });
    // The index reads only these types; the guard tells the compiler so.
    for (const entry of page) if (isEntryOf(entry, types)) yield entry;
    if (page.length < PAGE_ROWS) return;
    seq = page[page.length - 1]!.seq;
    // SQLite reads synchronously: a turn of the event loop between pages keeps the bets going.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The newest entry of these types before `beforeSeq` (default: the newest of all), if any. */
export async function lastIndexedEntry<K extends Indexed>(
  store: Store,
  tableId: string | null,
  types: readonly K[],
  beforeSeq?: number,
): Promise<JournalEntryOf<K> | undefined> {
  const [entry] = await store.readIndexedJournal({
    tableId,
    types,
    ...(beforeSeq === undefined ? {} : { beforeSeq }),
    limit: 1,
    newestFirst: true,
  });
  return entry !== undefined && isEntryOf(entry, types) ? entry : undefined;
}
