/**
 * Test harness: runs one suite against both stores. Import it from tests only
 * (it uses vitest); it is not exported from the ledger's index.
 *
 *   withStores('ledger', (h) => {
 *     it('…', async () => { const store = await h.open(); … });
 *   });
 *
 * SQLite stores live in a temporary directory. PostgreSQL stores live in a
 * database made for this run (cussec_test_<random hex>) on the server named by
 * CUSSEC_TEST_PG_URL, one schema per logical database, and the database is
 * dropped when the suite ends. Without CUSSEC_TEST_PG_URL the PostgreSQL half
 * is skipped, with a warning that names it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { migrate } from './migration.js';
import { pgMigrationDriver } from './pg-driver.js';
import { PG_MIGRATIONS } from './pg-schema.js';
import { openPgStore } from './pg-store.js';
import { sqliteMigrationDriver } from './sqlite-driver.js';
import { SQLITE_MIGRATIONS } from './sqlite-schema.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Engine, Store } from './store.js';
import type { Currency } from './types.js';

export const PG_URL_VARIABLE = 'CUSSEC_TEST_PG_URL';

export interface OpenOptions {
  /** A logical database: the same name opens the same database again; omitted, a fresh one. */
  readonly db?: string;
  readonly currency?: Currency;
  readonly clock?: () => number;
}

export interface StoreHarness {
  readonly engine: Engine;
  /** Opens a store; it is closed after the test. */
  open(options?: OpenOptions): Promise<Store>;
  /** Runs SQL on a logical database behind the Store's back (tests that play the attacker). */
  raw(db: string, sql: string): Promise<unknown[]>;
  /** A fresh logical database name. */
  freshDb(): string;
  /**
   * Applies the migrations up to `version` only, as an older release would have
   * left the database, without opening a store (tests of the next migration).
   */
  migrateTo(db: string, version: number, currency?: Currency): Promise<void>;
}

export function pgTestUrl(): string | undefined {
  const url = process.env[PG_URL_VARIABLE];
  return url === undefined || url === '' ? undefined : url;
}

/** Declares `body` twice: once over SQLite, once over PostgreSQL (skipped without a server). */
export function withStores(name: string, body: (h: StoreHarness) => void): void {
  describe(`${name} [sqlite]`, () => body(sqliteHarness()));
  const url = pgTestUrl();
  if (url === undefined)
    console.warn(`Skipping the PostgreSQL half of suite "${name}": ${PG_URL_VARIABLE} is not set.`);
  // A skipped describe still collects its tests, so the harness gets a placeholder URL it never uses.
  describe.skipIf(url === undefined)(`${name} [postgres]`, () =>
    body(pgHarness(url ?? 'postgres://unused/unused')),
  );
}

function sqliteHarness(): StoreHarness {
  let dir = '';
  let n = 0;
  const opened: Store[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cussec-test-'));
  });
  afterEach(() => closeAll(opened));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (db: string): string => join(dir, `${db}.sqlite`);
  return {
    engine: 'sqlite',
    freshDb: () => `db${++n}`,
    async open(o = {}) {
      const store = await openSqliteStore({
        path: file(o.db ?? `db${++n}`),
        currency: o.currency ?? 'MOP',
        ...(o.clock ? { clock: o.clock } : {}),
      });
      opened.push(store);
      return store;
    },
    async migrateTo(db, version, currency = 'MOP') {
      const conn = new Database(file(db));
      try {
        const upTo = SQLITE_MIGRATIONS.filter((m) => m.version <= version);
        await migrate(sqliteMigrationDriver(conn, upTo), currency, Date.now());
      } finally {
        conn.close();
      }
    },
    // async, so that a refused statement rejects rather than throws.
    async raw(db, sql) {
      await Promise.resolve();
      const conn = new Database(file(db));
      try {
        const statement = conn.prepare(sql);
        return statement.reader ? statement.all() : (statement.run(), []);
      } finally {
        conn.close();
      }
    },
  };
}

function pgHarness(adminUrl: string): StoreHarness {
  const database = `cussec_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  let n = 0;
  const opened: Store[] = [];
  beforeAll(() => adminSql(adminUrl, `CREATE DATABASE ${database}`));
  afterEach(() => closeAll(opened));
  afterAll(() => adminSql(adminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  const schema = (db: string): string => `s_${db}`;
  return {
    engine: 'postgres',
    freshDb: () => `db${++n}`,
    async open(o = {}) {
      const store = await openPgStore({
        url: url.href,
        schema: schema(o.db ?? `db${++n}`),
        currency: o.currency ?? 'MOP',
        ...(o.clock ? { clock: o.clock } : {}),
      });
      opened.push(store);
      return store;
    },
    async migrateTo(db, version, currency = 'MOP') {
      const pool = new pg.Pool({ connectionString: url.href, max: 1 });
      try {
        const client = await pool.connect();
        try {
          const upTo = PG_MIGRATIONS.filter((m) => m.version <= version);
          await client.query(`SET search_path = ${schema(db)}`);
          await migrate(pgMigrationDriver(client, schema(db), upTo), currency, Date.now());
        } finally {
          client.release();
        }
      } finally {
        await pool.end();
      }
    },
    async raw(db, sql) {
      const client = new pg.Client({
        connectionString: url.href,
        options: `-c search_path=${schema(db)}`,
      });
      await client.connect();
      try {
        return (await client.query<Record<string, unknown>>(sql)).rows;
      } finally {
        await client.end();
      }
    },
  };
}

/** Runs one statement on the server at `adminUrl` (CREATE or DROP DATABASE), on a connection of its own. */
export async function adminSql(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function closeAll(stores: Store[]): Promise<void> {
  const open = stores.splice(0);
  await Promise.all(open.map((s) => s.close()));
}
