/**
 * The schema's migrations and the one runner that applies them on either
 * engine, over a MigrationDriver: the engine says how openers take turns and
 * how a step commits whole; the order, the bookkeeping and the currency check
 * are written here once.
 */
import { StoreOpenError } from './errors.js';
import { CAGE_ACCOUNT_ID, type Currency } from './types.js';

/** A numbered schema change for one engine; applied once, in order, and never edited after release. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** How the runner reaches one engine's database. Placeholders are `?`. */
export interface MigrationDriver {
  /** The engine's migrations, every one this release knows. */
  readonly migrations: readonly Migration[];
  /** The engine's CREATE TABLE IF NOT EXISTS of schema_migrations. */
  readonly createVersionsTableSql: string;
  /**
   * Runs `fn` holding the lock that makes a second opener of the same database
   * wait for it, and then find the work done.
   */
  exclusive(fn: () => Promise<void>): Promise<void>;
  /** Runs `fn` so that what it changes commits whole or not at all. */
  atomic(fn: () => Promise<void>): Promise<void>;
  /** A script of statements, without parameters. */
  exec(sql: string): Promise<void>;
  all<R>(sql: string, params: readonly unknown[]): Promise<R[]>;
  run(sql: string, params: readonly unknown[]): Promise<void>;
}

/**
 * Applies the migrations still pending, each with its record in
 * schema_migrations, then fixes the ledger's currency (set on creation,
 * checked on every later open) and makes sure the cage account exists.
 */
export async function migrate(
  driver: MigrationDriver,
  currency: Currency,
  nowMs: number,
): Promise<void> {
  await driver.exclusive(async () => {
    await driver.exec(driver.createVersionsTableSql);
    const rows = await driver.all<{ version: number }>('SELECT version FROM schema_migrations', []);
    for (const m of pendingMigrations(driver.migrations, new Set(rows.map((r) => r.version)))) {
      await driver.atomic(async () => {
        await driver.exec(m.sql);
        await driver.run(
          'INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)',
          [m.version, m.name, nowMs],
        );
      });
    }
    await driver.atomic(() => fixCurrency(driver, currency, nowMs));
  });
}

async function fixCurrency(
  driver: MigrationDriver,
  currency: Currency,
  nowMs: number,
): Promise<void> {
  const rows = await driver.all<{ value: string }>(
    "SELECT value FROM meta WHERE key = 'currency'",
    [],
  );
  const stored = rows[0]?.value;
  if (stored === undefined) {
    await driver.run("INSERT INTO meta (key, value) VALUES ('currency', ?)", [currency]);
  } else if (stored !== currency) {
    throw new StoreOpenError(
      'currency_mismatch',
      `this ledger keeps ${stored}; it was opened as ${currency}`,
    );
  }
  await driver.run(
    "INSERT INTO accounts (id, kind, balance_minor, created_at_ms) VALUES (?, 'cage', 0, ?) ON CONFLICT (id) DO NOTHING",
    [CAGE_ACCOUNT_ID, nowMs],
  );
}

/**
 * The migrations still to apply, oldest first. A database newer than this
 * release (a version applied that it does not know) is refused rather than
 * served with a schema the code was not written for.
 */
export function pendingMigrations(
  migrations: readonly Migration[],
  applied: ReadonlySet<number>,
): Migration[] {
  const known = Math.max(0, ...migrations.map((m) => m.version));
  const newest = Math.max(0, ...applied);
  if (newest > known) {
    throw new StoreOpenError(
      'schema_too_new',
      `database schema is at version ${newest}; this release knows up to ${known}`,
    );
  }
  return [...migrations]
    .sort((a, b) => a.version - b.version)
    .filter((m) => !applied.has(m.version));
}
