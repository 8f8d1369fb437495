/**
 * The database a command names with `--db`, opened the one way every command
 * opens it: a PostgreSQL URL, or a SQLite file that must exist already (a
 * command that reads or changes a floor never makes an empty one by mistake).
 * Failures reach the user as the command line reports them (errors.ts): a
 * database that is away exits 75, a read-only SQLite folder 73.
 */
import { existsSync } from 'node:fs';
import type { Store } from '../ledger/index.js';
import { isPostgresUrl, openExistingStore } from '../service/open-store.js';
import { ServiceRefusal } from '../service/refusal.js';
import { InputError } from './errors.js';

/**
 * Opens the existing database at `db`, runs `work` on it and closes it,
 * whatever `work` did. A service's refusal (an unknown user, a weak password)
 * is the user's input here: it exits 2 with its message and code.
 */
export async function withExistingStore<T>(
  db: string,
  work: (store: Store) => Promise<T>,
): Promise<T> {
  if (!isPostgresUrl(db) && !existsSync(db)) throw new InputError(`no database at ${db}`);
  const store = await openExistingStore(db);
  try {
    return await work(store);
  } catch (error) {
    if (error instanceof ServiceRefusal) throw new InputError(`${error.message} (${error.code})`);
    throw error;
  } finally {
    await store.close();
  }
}
