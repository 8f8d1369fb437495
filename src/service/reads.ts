/**
 * The reads the edges make that no other service owns: which tables there
 * are, and the journal (a page of it, its head). Routes, sockets and the hub
 * read through these, never through the Store.
 */
import type { JournalEntry } from '../journal/index.js';
import type { Store } from '../ledger/index.js';

/** Ids of every table, in id order. */
export function tableIds(store: Store): Promise<string[]> {
  return store.listTables();
}

export async function tableExists(store: Store, tableId: string): Promise<boolean> {
  return (await store.getTable(tableId)) !== undefined;
}

/** The seq of the journal's last entry (0 when it is empty). */
export async function journalHeadSeq(store: Store): Promise<number> {
  return (await store.journalHead()).lastSeq;
}

/** The journal's entries after `afterSeq`, oldest first, at most `limit`; only a table's when `tableId` is given. */
export function journalPage(
  store: Store,
  page: { readonly afterSeq: number; readonly limit: number; readonly tableId?: string },
): Promise<JournalEntry[]> {
  return store.readJournal({
    fromSeq: page.afterSeq + 1,
    limit: page.limit,
    ...(page.tableId === undefined ? {} : { tableId: page.tableId }),
  });
}
