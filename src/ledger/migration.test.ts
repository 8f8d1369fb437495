import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { StoreOpenError } from './errors.js';
import { migrate, type Migration, pendingMigrations } from './migration.js';
import { numbered, pgMigrationDriver } from './pg-driver.js';
import { sqliteMigrationDriver } from './sqlite-driver.js';
import { PG_URL_VARIABLE } from './testing.js';

const m = (version: number): Migration => ({ version, name: `m${version}`, sql: '' });

describe('pendingMigrations', () => {
  it('lists the migrations not yet applied, oldest first', () => {
    expect(pendingMigrations([m(3), m(1), m(2)], new Set([1])).map((x) => x.version)).toEqual([
      2, 3,
    ]);
    expect(pendingMigrations([m(1), m(2)], new Set([1, 2]))).toEqual([]);
  });

  it('refuses a database whose schema is newer than this release knows', () => {
    expect(() => pendingMigrations([m(1), m(2)], new Set([1, 2, 3]))).toThrow(StoreOpenError);
    expect(() => pendingMigrations([m(1)], new Set([2]))).toThrow(
      'database schema is at version 2; this release knows up to 1',
    );
  });
});

/** The least schema the runner itself needs (meta and the cage account), then a broken step. */
const BROKEN: readonly Migration[] = [
  {
    version: 1,
    name: 'base',
    sql: `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE accounts (id TEXT PRIMARY KEY, kind TEXT NOT NULL, balance_minor BIGINT NOT NULL,
        created_at_ms BIGINT NOT NULL);`,
  },
  { version: 2, name: 'broken', sql: 'CREATE TABLE half (x INTEGER); SELECT * FROM nowhere;' },
];

describe('migrate', () => {
  it('leaves nothing of a migration that fails on SQLite: the whole run rolls back', async () => {
    const db = new Database(':memory:');
    try {
      await expect(migrate(sqliteMigrationDriver(db, BROKEN), 'MOP', 1)).rejects.toThrow(/nowhere/);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([]);
      expect(db.inTransaction).toBe(false);
    } finally {
      db.close();
    }
  });

  const url = process.env[PG_URL_VARIABLE];
  it.skipIf(url === undefined)(
    'leaves nothing of a failed step on PostgreSQL, and keeps the steps before it',
    async () => {
      const schema = `migrate_${randomBytes(6).toString('hex')}`;
      const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
      await client.connect();
      try {
        const driver = pgMigrationDriver(client, schema, BROKEN);
        await expect(migrate(driver, 'MOP', 1)).rejects.toThrow(/nowhere/);
        const { rows } = await client.query<{ version: number }>(
          'SELECT version FROM schema_migrations',
        );
        expect(rows.map((r) => r.version)).toEqual([1]);
        await expect(client.query('SELECT * FROM half')).rejects.toThrow(/half/);
      } finally {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    },
  );
});

describe('numbered', () => {
  it("numbers the shared SQL's placeholders for PostgreSQL", () => {
    expect(numbered('SELECT a FROM t WHERE b = ? AND c = ANY(?::text[]) LIMIT ?')).toBe(
      'SELECT a FROM t WHERE b = $1 AND c = ANY($2::text[]) LIMIT $3',
    );
  });
});
