/**
 * A database is a demonstration or a casino floor for its whole life. A
 * demonstration's tables open betting on an authorization marked as a
 * demonstration or a simulation, never the DICJ's (Art. 8), and its demo
 * users sign in with a published password: served as a casino floor, it would
 * play on both. So the kind is one stored fact (`Store.databaseKind`, meta
 * `database_kind`), recorded once by the first `cussec serve` or `cussec play`
 * that starts on the database, and every later start checks it.
 *
 * A database made before the kind was recorded is classified from what it
 * holds: a table whose options ever carried a demonstration or simulation
 * mark, or a user `cussec serve --demo` created, makes it a demonstration;
 * anything else it holds, a casino floor. An empty one takes the kind of the
 * command starting it.
 */
import type { DatabaseKind, Store } from '../ledger/index.js';
import { readIndexedEntries } from './indexed-journal.js';

/** Who `cussec serve --demo` says created its demo users (the `user-created` entries' createdBy). */
export const DEMO_CREATOR = 'cussec serve --demo';

/** What makes a database a demonstration, as it holds it now. */
export interface DemonstrationTraces {
  /** Tables whose options carried a demonstration or simulation mark, with the mark (first seen). */
  readonly tables: readonly {
    readonly tableId: string;
    readonly mark: 'demonstration' | 'simulation';
  }[];
  /** Usernames of the users `cussec serve --demo` created. */
  readonly demoUsers: readonly string[];
}

/** The tables and users that make the database a demonstration (none: it has none of them). */
export async function demonstrationTraces(store: Store): Promise<DemonstrationTraces> {
  const tables: { tableId: string; mark: 'demonstration' | 'simulation' }[] = [];
  for (const tableId of await store.listTables()) {
    const types = ['table-created', 'table-settings-changed'] as const;
    for await (const entry of readIndexedEntries(store, tableId, types)) {
      const mark = entry.payload.settings.authorization?.mark;
      if (mark === 'demonstration' || mark === 'simulation') {
        tables.push({ tableId, mark });
        break;
      }
    }
  }
  return { tables, demoUsers: await demoUsernames(store) };
}

async function demoUsernames(store: Store): Promise<string[]> {
  const names: string[] = [];
  for (let beforeSeq: number | undefined; ;) {
    const page = await store.readStaffActions({ ...(beforeSeq ? { beforeSeq } : {}), limit: 500 });
    for (const entry of page)
      if (entry.type === 'user-created' && entry.payload.createdBy === DEMO_CREATOR)
        names.push(entry.payload.username);
    if (page.length < 500) return names.reverse();
    beforeSeq = page[page.length - 1]!.seq;
  }
}

const isDemonstration = (t: DemonstrationTraces): boolean =>
  t.tables.length > 0 || t.demoUsers.length > 0;

/**
 * The database's kind, recorded now if it was not: from what the database
 * holds, or `intended` (the kind of the command starting on it) when it holds
 * nothing yet. Nodes starting together agree: the first kind recorded wins.
 */
export async function settleDatabaseKind(
  store: Store,
  intended: DatabaseKind,
): Promise<DatabaseKind> {
  const recorded = await store.databaseKind();
  if (recorded !== undefined) return recorded;
  const empty = (await store.journalHead()).lastSeq === 0;
  const classified: DatabaseKind = empty
    ? intended
    : isDemonstration(await demonstrationTraces(store))
      ? 'demonstration'
      : 'casino-floor';
  return store.recordDatabaseKind(classified);
}

/**
 * Why a demonstration cannot be served as a casino floor: its tables and demo
 * users named, and how to start a real floor. `where` names the database.
 */
export function demonstrationRefusal(where: string, traces: DemonstrationTraces): string {
  const held: string[] = [];
  if (traces.tables.length > 0) {
    const tables = traces.tables.map((t) => `${t.tableId} (${t.mark})`).join(', ');
    held.push(`tables ${tables} play on a mark, not a DICJ authorization (Art. 8)`);
  }
  if (traces.demoUsers.length > 0)
    held.push(`demo users ${traces.demoUsers.join(', ')} sign in with the published password`);
  return [
    `${where} is a demonstration database (first served with --demo or written by cussec play) and stays one${held.length > 0 ? `: its ${held.join('; its ')}` : ''}.`,
    'Serve it with --demo, or start a real floor on a new database: cussec serve --data NEW-FOLDER (or --db NEW-FILE or a new postgres:// database), then record the DICJ authorization of its house options (docs/deployment.md, "A demonstration is not a casino floor").',
  ].join('\n');
}
