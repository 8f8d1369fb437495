/**
 * Scratch databases for the benchmarks, each with the baseline measured on the
 * very same database: plain rows inserted by one prepared statement in one
 * transaction, the least a database can do to store that many rows durably.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  CAGE_ACCOUNT_ID,
  openPgStore,
  openSqliteStore,
  type Store,
  walletAccount,
} from '../src/ledger/index.js';

export interface BenchDatabase {
  readonly engine: 'sqlite' | 'postgres';
  readonly store: Store;
  /** Seconds to insert `rows` plain rows with one prepared statement in one transaction. */
  insertPlainRows(rows: number): Promise<number>;
  /**
   * PostgreSQL only: the same rows in one multi-row INSERT (unnest arrays), a
   * stricter baseline than a round trip per row.
   */
  insertPlainRowsAtOnce?(rows: number): Promise<number>;
  /** Closes everything and deletes the database. */
  dispose(): Promise<void>;
}

const PLAIN_COLUMNS =
  'id TEXT PRIMARY KEY, debit TEXT NOT NULL, credit TEXT NOT NULL, amount_minor BIGINT NOT NULL, kind TEXT NOT NULL, reference TEXT NOT NULL, at_ms BIGINT NOT NULL';

export const seconds = (startNs: bigint): number => Number(process.hrtime.bigint() - startNs) / 1e9;

/** A SQLite file in a temporary directory, opened as the store opens it (WAL, synchronous=FULL). */
export async function sqliteDatabase(): Promise<BenchDatabase & { readonly path: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-bench-'));
  const path = join(dir, 'bench.sqlite');
  const store = await openSqliteStore({ path, currency: 'MOP' });
  // A second connection, with the store's durability settings, for the baseline.
  const plain = new Database(path);
  plain.pragma('journal_mode = WAL');
  plain.pragma('synchronous = FULL');
  plain.pragma('busy_timeout = 5000');
  plain.exec(`CREATE TABLE bench_plain (${PLAIN_COLUMNS.replaceAll('BIGINT', 'INTEGER')}) STRICT`);
  const insert = plain.prepare('INSERT INTO bench_plain VALUES (?, ?, ?, ?, ?, ?, ?)');
  let batch = 0;
  return {
    engine: 'sqlite',
    store,
    path,
    insertPlainRows(rows) {
      const tag = `b${++batch}`;
      const start = process.hrtime.bigint();
      plain.transaction(() => {
        for (let i = 0; i < rows; i++)
          insert.run(`${tag}-${i}`, `wallet:p${i}`, 'bankroll:B1', 1_000, 'payout', tag, 1);
      })();
      return Promise.resolve(seconds(start));
    },
    async dispose() {
      plain.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const PG_FALLBACK_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh PostgreSQL database, or the reason there is none. */
export async function postgresDatabase(): Promise<BenchDatabase | string> {
  const adminUrl = process.env['CUSSEC_TEST_PG_URL'] || PG_FALLBACK_URL;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
  try {
    await admin.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `no PostgreSQL answered at ${adminUrl} (${reason}); set CUSSEC_TEST_PG_URL`;
  }
  const name = `cussec_bench_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const store = await openPgStore({ url: url.href, currency: 'MOP' });
  const plain = new pg.Client({ connectionString: url.href });
  await plain.connect();
  await plain.query(`CREATE TABLE bench_plain (${PLAIN_COLUMNS})`);
  let batch = 0;
  return {
    engine: 'postgres',
    store,
    async insertPlainRows(rows) {
      const tag = `b${++batch}`;
      const start = process.hrtime.bigint();
      await plain.query('BEGIN');
      for (let i = 0; i < rows; i++) {
        await plain.query({
          name: 'bench_plain_insert',
          text: 'INSERT INTO bench_plain VALUES ($1, $2, $3, $4, $5, $6, $7)',
          values: [`${tag}-${i}`, `wallet:p${i}`, 'bankroll:B1', 1_000, 'payout', tag, 1],
        });
      }
      await plain.query('COMMIT');
      return seconds(start);
    },
    async insertPlainRowsAtOnce(rows) {
      const tag = `u${++batch}`;
      const ids = Array.from({ length: rows }, (_, i) => `${tag}-${i}`);
      const debits = ids.map((_, i) => `wallet:p${i}`);
      const start = process.hrtime.bigint();
      await plain.query('BEGIN');
      await plain.query(
        `INSERT INTO bench_plain SELECT u.id, u.debit, 'bankroll:B1', 1000, 'payout', $3, 1
         FROM unnest($1::text[], $2::text[]) AS u(id, debit)`,
        [ids, debits, tag],
      );
      await plain.query('COMMIT');
      return seconds(start);
    },
    async dispose() {
      await plain.end();
      await store.close();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * Opens and funds wallets in one transaction, journaled as the cage journals
 * deposits, so the benchmark's database still passes the audit.
 */
export async function fundWallets(
  store: Store,
  playerIds: readonly string[],
  amountMinor: number,
): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.createAccounts([
      { id: CAGE_ACCOUNT_ID, kind: 'cage' },
      ...playerIds.map((p) => walletAccount(p)),
    ]);
    const transfers = playerIds.map((playerId) => ({
      id: `deposit:bench-${playerId}`,
      debitAccountId: CAGE_ACCOUNT_ID,
      creditAccountId: walletAccount(playerId).id,
      amountMinor,
      currency: tx.currency,
      kind: 'deposit',
      reference: `player:${playerId}`,
    }));
    const posted = await tx.postTransfers(transfers);
    if (!posted.ok) throw new Error('bench: funding the wallets failed');
    await tx.appendJournal(
      transfers.map((t, i) => ({
        tableId: null,
        type: 'deposit',
        payload: { playerId: playerIds[i]!, amountMinor, cashierId: 'bench', transferId: t.id },
      })),
    );
  });
}
