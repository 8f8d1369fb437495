/**
 * A quick throughput measurement of the Store (not a test, not in package.json):
 * a 10,000-transfer batch and a full settlement of 10,000 bets, against a
 * baseline that inserts as many plain rows with one prepared statement in one
 * transaction. Run:
 *
 *   node --import tsx src/ledger/measure-settlement.ts [sqlite|postgres] [repeats]
 *
 * PostgreSQL comes from CUSSEC_TEST_PG_URL; a scratch database is made and dropped.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openPgStore } from './pg-store.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';
import {
  bankrollAccount,
  CAGE_ACCOUNT_ID,
  inPlayAccount,
  type TransferInput,
  walletAccount,
} from './types.js';

export const BETS = 10_000;

const t = (
  id: string,
  debit: string,
  credit: string,
  amountMinor: number,
  kind: string,
  reference: string,
): TransferInput => ({
  id,
  debitAccountId: debit,
  creditAccountId: credit,
  amountMinor,
  currency: 'MOP',
  kind,
  reference,
});

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** One round: fund 10,000 wallets, then time the bets (10,000 transfers) and the settlement. */
export async function measureRound(
  store: Store,
  round: number,
): Promise<{ betSeconds: number; settleSeconds: number; settleRows: number }> {
  const wallets = Array.from({ length: BETS }, (_, i) => walletAccount(`r${round}p${i}`));
  await store.transaction(async (tx) => {
    await tx.createAccounts([...wallets, inPlayAccount('T1'), bankrollAccount('T1')]);
    await tx.postTransfers(
      wallets.map((w) => t(`dep-${w.id}`, CAGE_ACCOUNT_ID, w.id, 1_000, 'deposit', 'setup')),
    );
  });
  const ref = `round:T1:${round}`;
  const bets = wallets.map((w, i) => t(`bet-${round}-${i}`, w.id, 'in-play:T1', 100, 'bet', ref));
  const betSeconds = await timed(() =>
    store.transaction(async (tx) => {
      const r = await tx.postTransfers(bets);
      if (!r.ok) throw new Error('bets failed');
      await tx.appendJournal([
        { tableId: 'T1', type: 'bets-placed', payload: { round, count: BETS } },
      ]);
    }),
  );
  // One bet in three wins even money: stake back from in-play, winnings from the bankroll.
  const settlement: TransferInput[] = [];
  wallets.forEach((w, i) => {
    if (i % 3 === 0)
      settlement.push(
        t(`ret-${round}-${i}`, 'in-play:T1', w.id, 100, 'stake-returned', ref),
        t(`win-${round}-${i}`, 'bankroll:T1', w.id, 100, 'win', ref),
      );
    else settlement.push(t(`loss-${round}-${i}`, 'in-play:T1', 'bankroll:T1', 100, 'loss', ref));
  });
  const linked = settlement.map((x, i) => ({ ...x, linked: i < settlement.length - 1 }));
  const journal = wallets.map((w, i) => ({
    tableId: 'T1',
    type: 'bet-settled',
    payload: { round, bet: i, player: w.id, returnedMinor: i % 3 === 0 ? 200 : 0 },
  }));
  const settleSeconds = await timed(() =>
    store.transaction(async (tx) => {
      const r = await tx.postTransfers(linked);
      if (!r.ok) throw new Error('settlement failed');
      await tx.appendJournal(journal);
    }),
  );
  return { betSeconds, settleSeconds, settleRows: settlement.length + journal.length };
}

function sqliteBaseline(path: string): number {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    'CREATE TABLE IF NOT EXISTS plain (id TEXT PRIMARY KEY, a TEXT, b TEXT, amount INTEGER, kind TEXT, ref TEXT, at INTEGER)',
  );
  const insert = db.prepare('INSERT INTO plain VALUES (?, ?, ?, ?, ?, ?, ?)');
  const tag = randomBytes(4).toString('hex');
  const start = process.hrtime.bigint();
  db.transaction(() => {
    for (let i = 0; i < BETS; i++)
      insert.run(`${tag}-${i}`, `wallet:p${i}`, 'in-play:T1', 100, 'bet', 'round', 1);
  })();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  db.close();
  return seconds;
}

async function pgBaselines(url: string): Promise<{ prepared: number; unnest: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    'CREATE TABLE IF NOT EXISTS plain (id TEXT PRIMARY KEY, a TEXT, b TEXT, amount BIGINT, kind TEXT, ref TEXT, at BIGINT)',
  );
  const tag = randomBytes(4).toString('hex');
  const prepared = await timed(async () => {
    await client.query('BEGIN');
    for (let i = 0; i < BETS; i++) {
      await client.query({
        name: 'plain_insert',
        text: 'INSERT INTO plain VALUES ($1, $2, $3, $4, $5, $6, $7)',
        values: [`${tag}-p${i}`, `wallet:p${i}`, 'in-play:T1', 100, 'bet', 'round', 1],
      });
    }
    await client.query('COMMIT');
  });
  const ids = Array.from({ length: BETS }, (_, i) => `${tag}-u${i}`);
  const unnest = await timed(async () => {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO plain SELECT u.*, 'in-play:T1', 100, 'bet', 'round', 1 FROM unnest($1::text[], $2::text[]) AS u`,
      [ids, ids.map((_, i) => `wallet:p${i}`)],
    );
    await client.query('COMMIT');
  });
  await client.end();
  return { prepared, unnest };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rate = (rows: number, s: number): string =>
  `${Math.round(rows / s).toLocaleString('en')} rows/s (${(s * 1000).toFixed(1)} ms)`;
const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;

interface Engine {
  store: Store;
  baseline(): Promise<{ prepared: number; unnest?: number }>;
  cleanup(): Promise<void>;
}

async function sqliteEngine(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-measure-'));
  return {
    store: await openSqliteStore({ path: join(dir, 'ledger.sqlite'), currency: 'MOP' }),
    baseline: () => Promise.resolve({ prepared: sqliteBaseline(join(dir, 'plain.sqlite')) }),
    cleanup: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

async function pgEngine(): Promise<Engine> {
  const admin = process.env['CUSSEC_TEST_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `cussec_measure_${randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    store: await openPgStore({ url: url.href, currency: 'MOP' }),
    baseline: () => pgBaselines(url.href),
    cleanup: async () => {
      await c.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Each repeat runs the baseline right before the round and keeps the ratio of
 * the two, so that load from other processes on a shared machine hits both
 * sides of a ratio alike; the report gives the median ratio.
 */
async function main(): Promise<void> {
  const engineName = process.argv[2] ?? 'sqlite';
  const repeats = Number(process.argv[3] ?? 7);
  const engine = engineName === 'sqlite' ? await sqliteEngine() : await pgEngine();
  const rows: { base: number; unnest?: number; bet: number; settle: number; settleRows: number }[] =
    [];
  for (let i = 0; i < repeats; i++) {
    const b = await engine.baseline();
    const r = await measureRound(engine.store, i);
    rows.push({
      base: b.prepared,
      ...(b.unnest === undefined ? {} : { unnest: b.unnest }),
      bet: r.betSeconds,
      settle: r.settleSeconds,
      settleRows: r.settleRows,
    });
  }
  await engine.store.close();
  await engine.cleanup();
  const settleRows = rows[0]!.settleRows;
  console.log(`${engineName}, ${repeats} repeats, medians:`);
  console.log(
    `  baseline, ${BETS} plain rows by one prepared statement in one transaction: ${rate(BETS, median(rows.map((r) => r.base)))}`,
  );
  console.log(
    `  10,000-transfer batch (bets from 10,000 wallets, + 1 journal entry): ${rate(BETS, median(rows.map((r) => r.bet)))}`,
  );
  console.log(`      = ${pct(median(rows.map((r) => r.base / r.bet)))} of baseline rows/s`);
  console.log(
    `  settlement of 10,000 bets (${settleRows} rows = transfers + journal entries): ${rate(settleRows, median(rows.map((r) => r.settle)))}`,
  );
  console.log(
    `      = ${pct(median(rows.map((r) => settleRows / r.settle / (BETS / r.base))))} of baseline rows/s`,
  );
  if (rows[0]!.unnest !== undefined) {
    console.log(
      `  stricter baseline, one multi-row unnest INSERT: ${rate(BETS, median(rows.map((r) => r.unnest!)))}`,
    );
    console.log(
      `      batch ${pct(median(rows.map((r) => r.unnest! / r.bet)))}, settlement ${pct(median(rows.map((r) => settleRows / r.settle / (BETS / r.unnest!))))} of it`,
    );
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
