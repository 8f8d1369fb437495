/**
 * The inspector's view of what the staff did to accounts and tables: each
 * staff action of the journal (STAFF_ACTION_TYPES) with who did it, to whom or
 * to which table, and when, the users named by username and display name.
 */
import type { JournalEntry } from '../journal/index.js';
import type { Store, User } from '../ledger/index.js';
import type { StoredTableSettings } from './table-settings.js';

export interface StaffPerson {
  readonly id: string;
  readonly username: string | null;
  readonly displayName: string | null;
}

export interface StaffAction {
  readonly seq: number;
  readonly atMs: number;
  readonly type: string;
  readonly tableId: string | null;
  /** Who did it; null for the first start's own acts (the first supervisor, the demo table). */
  readonly by: StaffPerson | null;
  /** The account acted on, for the user-* and password-* entries. */
  readonly user: StaffPerson | null;
  /** The table's limits or settings after the change (table-created, table-settings-changed). */
  readonly settings: StoredTableSettings | null;
}

interface Parties {
  readonly by: string | null;
  readonly user: string | null;
  readonly settings: StoredTableSettings | null;
}

/** Who did it, to whom, and the settings it left, as each entry type names them. */
function partiesOf(entry: JournalEntry): Parties {
  switch (entry.type) {
    case 'user-created':
      return { by: entry.payload.createdBy, user: entry.payload.id, settings: null };
    case 'user-disabled':
    case 'user-enabled':
    case 'password-reset':
    case 'password-changed':
    case 'session-revoked':
      return { by: entry.payload.by, user: entry.payload.userId, settings: null };
    case 'table-created':
      return { by: entry.payload.createdBy ?? null, user: null, settings: entry.payload.settings };
    case 'table-settings-changed':
      return { by: entry.payload.changedBy, user: null, settings: entry.payload.settings };
    case 'table-opened':
    case 'table-closed':
      return { by: entry.payload.by, user: null, settings: null };
    default:
      return { by: null, user: null, settings: null };
  }
}

export async function staffActions(
  store: Store,
  query: { beforeSeq?: number; limit: number },
): Promise<StaffAction[]> {
  const entries = await store.readStaffActions(query);
  const users = new Map<string, User | undefined>();
  const person = async (id: string | null): Promise<StaffPerson | null> => {
    if (id === null) return null;
    if (!users.has(id)) users.set(id, await store.getUser(id));
    const user = users.get(id);
    return { id, username: user?.username ?? null, displayName: user?.displayName ?? null };
  };
  const out: StaffAction[] = [];
  for (const entry of entries) out.push(await actionOf(entry, person));
  return out;
}

async function actionOf(
  entry: JournalEntry,
  person: (id: string | null) => Promise<StaffPerson | null>,
): Promise<StaffAction> {
  const parties = partiesOf(entry);
  return {
    seq: entry.seq,
    atMs: entry.atMs,
    type: entry.type,
    tableId: entry.tableId,
    by: await person(parties.by),
    user: await person(parties.user),
    settings: parties.settings,
  };
}
