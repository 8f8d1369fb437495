/**
 * Opens the database a command names: a PostgreSQL URL, or else a SQLite file
 * path (the embedded default).
 */
import {
  type Currency,
  openPgStore,
  type PgTimeouts,
  openSqliteStore,
  type Store,
  StoreOpenError,
} from '../ledger/index.js';

export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//.test(db);

/** The database as a message may name it: a PostgreSQL URL without its credentials. */
export function databaseName(db: string): string {
  if (!isPostgresUrl(db)) return db;
  const url = new URL(db);
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** `timeouts` apply to PostgreSQL only (see PgTimeouts). */
export function openStore(
  db: string,
  currency: Currency,
  timeouts: Partial<PgTimeouts> = {},
): Promise<Store> {
  return isPostgresUrl(db)
    ? openPgStore({ url: db, currency, timeouts })
    : openSqliteStore({ path: db, currency });
}

/** Opens a database that exists already, in whichever currency it keeps. */
export async function openExistingStore(db: string): Promise<Store> {
  try {
    return await openStore(db, 'MOP');
  } catch (error) {
    if (error instanceof StoreOpenError && error.code === 'currency_mismatch')
      return openStore(db, 'HKD');
    throw error;
  }
}
