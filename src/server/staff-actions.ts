/**
 * The inspector's view of what the staff did to accounts and tables: each
 * staff action of the journal (STAFF_ACTION_TYPES) with who did it, to whom or
 * to which table, and when, the users named by username and display name.
 */
import type { JournalEntry } from '../journal/index.js';
import type { Store, User } from '../ledger/index.js';

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
  readonly settings: Record<string, unknown> | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Who did it, as each entry type names it. */
function actorId(p: Record<string, unknown>): string | null {
  return text(p['by']) ?? text(p['createdBy']) ?? text(p['changedBy']);
}

/** The account acted on, as each entry type names it. */
function subjectId(type: string, p: Record<string, unknown>): string | null {
  if (type === 'user-created') return text(p['id']);
  return text(p['userId']);
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
  const p = (entry.payload ?? {}) as Record<string, unknown>;
  const settings = p['settings'];
  return {
    seq: entry.seq,
    atMs: entry.atMs,
    type: entry.type,
    tableId: entry.tableId,
    by: await person(actorId(p)),
    user: await person(subjectId(entry.type, p)),
    settings:
      typeof settings === 'object' && settings !== null
        ? (settings as Record<string, unknown>)
        : null,
  };
}
