/**
 * Applies the SQLite migrations and fixes the ledger's currency, all inside one
 * BEGIN IMMEDIATE transaction: a second process opening the same file waits
 * for the first (busy_timeout) and then finds everything done.
 */
import type Database from 'better-sqlite3';
import { StoreOpenError } from './errors.js';
import { type Migration, pendingMigrations } from './migration.js';
import { SQLITE_MIGRATIONS } from './sqlite-schema.js';
import { CAGE_ACCOUNT_ID, type Currency } from './types.js';

export function migrateSqlite(
  db: Database.Database,
  currency: Currency,
  nowMs: number,
  migrations: readonly Migration[] = SQLITE_MIGRATIONS,
): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL) STRICT`);
    const applied = new Set(
      db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[],
    );
    const record = db.prepare(
      'INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)',
    );
    for (const m of pendingMigrations(migrations, applied)) {
      db.exec(m.sql);
      record.run(m.version, m.name, nowMs);
    }
    fixCurrency(db, currency, nowMs);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function fixCurrency(db: Database.Database, currency: Currency, nowMs: number): void {
  const stored = db.prepare("SELECT value FROM meta WHERE key = 'currency'").pluck().get() as
    string | undefined;
  if (stored === undefined) {
    db.prepare("INSERT INTO meta (key, value) VALUES ('currency', ?)").run(currency);
  } else if (stored !== currency) {
    throw new StoreOpenError(
      'currency_mismatch',
      `this ledger keeps ${stored}; it was opened as ${currency}`,
    );
  }
  db.prepare(
    "INSERT INTO accounts (id, kind, balance_minor, created_at_ms) VALUES (?, 'cage', 0, ?) ON CONFLICT (id) DO NOTHING",
  ).run(CAGE_ACCOUNT_ID, nowMs);
}
