/**
 * Applies the PostgreSQL migrations under a session advisory lock, so two
 * processes opening the same database at once take turns: the second finds the
 * work done. Each migration runs in its own transaction (PostgreSQL DDL is
 * transactional), so a failed one leaves nothing half-applied.
 */
import type { ClientBase } from 'pg';
import { StoreOpenError } from './errors.js';
import { PG_MIGRATIONS } from './pg-schema.js';
import { type Migration, pendingMigrations } from './migration.js';
import { CAGE_ACCOUNT_ID, type Currency } from './types.js';

export async function migratePg(
  client: ClientBase,
  schema: string | undefined,
  currency: Currency,
  nowMs: number,
  migrations: readonly Migration[] = PG_MIGRATIONS,
): Promise<void> {
  // One lock per schema: hashtext() maps the name to the lock's integer key.
  const lockName = `cussec-migrate:${schema ?? 'public'}`;
  await client.query('SELECT pg_advisory_lock(hashtext($1))', [lockName]);
  try {
    if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms BIGINT NOT NULL)`);
    const { rows } = await client.query<{ version: number }>(
      'SELECT version FROM schema_migrations',
    );
    const applied = new Set(rows.map((r) => r.version));
    for (const m of pendingMigrations(migrations, applied)) {
      await inTransaction(client, async () => {
        await client.query(m.sql);
        await client.query(
          'INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES ($1, $2, $3)',
          [m.version, m.name, nowMs],
        );
      });
    }
    await inTransaction(client, () => fixCurrency(client, currency, nowMs));
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lockName]);
  }
}

async function fixCurrency(client: ClientBase, currency: Currency, nowMs: number): Promise<void> {
  const { rows } = await client.query<{ value: string }>(
    "SELECT value FROM meta WHERE key = 'currency'",
  );
  const stored = rows[0]?.value;
  if (stored === undefined) {
    await client.query("INSERT INTO meta (key, value) VALUES ('currency', $1)", [currency]);
  } else if (stored !== currency) {
    throw new StoreOpenError(
      'currency_mismatch',
      `this ledger keeps ${stored}; it was opened as ${currency}`,
    );
  }
  await client.query(
    "INSERT INTO accounts (id, kind, balance_minor, created_at_ms) VALUES ($1, 'cage', 0, $2) ON CONFLICT (id) DO NOTHING",
    [CAGE_ACCOUNT_ID, nowMs],
  );
}

async function inTransaction(client: ClientBase, fn: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await fn();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
