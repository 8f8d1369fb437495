/**
 * The server over a PostgreSQL that goes away, on a throwaway database of this
 * suite: a bet whose connection is terminated gets a retryable 503 and its
 * retry with the same idempotency key lands once; /readyz says 503 when the
 * database is slower than its timeout; a verify whose database goes away
 * mid-audit gets a retryable 503; nodes started together on an empty
 * database make one table and one supervisor.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openPgStore, type Store } from '../ledger/index.js';
import { pgTestUrl } from '../ledger/testing.js';
import { simulatedTableSettings } from '../service/table-settings.js';
import { type App, buildApp } from './app.js';
import { serve } from './serve.js';
import { seedUsers, sessionToken } from './testing.js';

const ADMIN_URL = pgTestUrl();
const OPEN = [
  { type: 'cover' },
  { type: 'fasten-latches' },
  { type: 'trigger-shaker' },
  { type: 'open-betting' },
] as const;

async function sql(url: string, text: string, values: unknown[] = []): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<pg.QueryResultRow>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(ADMIN_URL === undefined)('a server whose PostgreSQL goes away', () => {
  const databases: string[] = [];
  const closing: (() => Promise<unknown>)[] = [];

  /** A fresh, empty database of this suite. */
  const freshDatabase = async (): Promise<string> => {
    const name = `cussec_dbfaults_${randomBytes(6).toString('hex')}`;
    await sql(ADMIN_URL!, `CREATE DATABASE ${name}`);
    databases.push(name);
    const url = new URL(ADMIN_URL!);
    url.pathname = `/${name}`;
    return url.href;
  };

  afterAll(async () => {
    for (const close of closing.reverse()) await close();
    for (const name of databases)
      await sql(ADMIN_URL!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  const openApp = async (url: string, timeouts = {}): Promise<{ store: Store; app: App }> => {
    const store = await openPgStore({ url, currency: 'MOP', timeouts });
    const app = await buildApp({ store, logger: false });
    closing.push(
      () => store.close(),
      () => app.shutdown(),
    );
    await app.ctx.service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null });
    return { store, app };
  };

  it('answers a bet whose connection is terminated with a retryable 503; its retry lands once', async () => {
    const url = await freshDatabase();
    const { store, app } = await openApp(url);
    for (const command of OPEN) await app.ctx.service.execute({ tableId: 'T1', command });
    const [player] = await seedUsers(store, 'player', 1, { fundMinor: 100_000 });
    const token = await sessionToken(store, player!, Date.now());
    const bet = () =>
      app.fastify.inject({
        method: 'POST',
        url: '/api/v1/tables/T1/bets',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'bet-1' },
        payload: { betId: 'b1', spot: 'small', stakeMinor: 5_000 },
      });
    // The table row is held, so the bet's transaction waits mid-way; then its backend is terminated.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query("SELECT id FROM tables WHERE id = 'T1' FOR UPDATE");
    const first = bet();
    await expect
      .poll(
        async () =>
          (
            await holder.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
            )
          ).rows[0]!.n,
        { timeout: 5_000 },
      )
      .toBe(1);
    await holder.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    const lost = await first;
    expect(lost.statusCode).toBe(503);
    expect(lost.json()).toMatchObject({ error: { code: 'database_unavailable' } });
    await holder.query('ROLLBACK');
    await holder.end();
    const retried = await bet();
    expect(retried.statusCode).toBe(201);
    const again = await bet();
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(retried.json());
    const stakes = await store.transfersByReference('round:T1:1');
    expect(stakes.filter((t) => t.kind === 'bet')).toHaveLength(1);
  });

  it('answers a verify whose database goes away mid-audit with a retryable 503, then verifies', async () => {
    const url = await freshDatabase();
    const { store, app } = await openApp(url);
    const [inspector] = await seedUsers(store, 'inspector', 1);
    const token = await sessionToken(store, inspector!, Date.now());
    const verify = () =>
      app.fastify.inject({
        method: 'GET',
        url: '/api/v1/journal/verify',
        headers: { authorization: `Bearer ${token}` },
      });
    // The audit's snapshot waits on the held journal; then every backend but the holder's is terminated.
    const holder = new pg.Client({ connectionString: url });
    holder.on('error', () => undefined); // the suite's cleanup may end it
    await holder.connect();
    const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))
      .rows[0]!.pid;
    await holder.query('BEGIN');
    // The audit's first read is the journal's (from the genesis).
    await holder.query('LOCK TABLE journal IN ACCESS EXCLUSIVE MODE');
    const first = verify();
    // Seen and terminated from connections of their own: pg_stat_activity is fixed for a transaction's length.
    await expect
      .poll(
        async () =>
          sql(
            url,
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'cussec audit' AND wait_event_type = 'Lock'",
          ),
        { timeout: 60_000, interval: 200 },
      )
      .toEqual([{ n: 1 }]);
    await sql(
      url,
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> $1',
      [holderPid],
    );
    const lost = await first;
    expect(lost.statusCode).toBe(503);
    expect(lost.headers['retry-after']).toBe('1');
    expect(lost.json()).toMatchObject({ error: { code: 'database_unavailable' } });
    await holder.query('ROLLBACK');
    await holder.end();
    const again = await verify();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ ok: true });
  }, 150_000);

  it('says 503 on /readyz while the database is slower than its timeout, and 200 after', async () => {
    const url = await freshDatabase();
    const { app } = await openApp(url, { lockTimeoutMs: 200 });
    expect((await app.fastify.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE journal_head IN ACCESS EXCLUSIVE MODE');
    const started = Date.now();
    const slow = await app.fastify.inject({ method: 'GET', url: '/readyz' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(slow.statusCode).toBe(503);
    expect(slow.json()).toMatchObject({
      status: 'database-unavailable',
      error: { code: 'database_unavailable' },
    });
    await holder.query('ROLLBACK');
    await holder.end();
    expect((await app.fastify.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('starts three nodes together on an empty database: one table, one supervisor, no failure', async () => {
    const url = await freshDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'cussec-first-start-'));
    closing.push(() => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })));
    // Every node of a floor is given the same roll key (docs/dice.md).
    vi.stubEnv('CUSSEC_ROLL_KEY', `first-start:${randomBytes(32).toString('base64')}`);
    closing.push(() => Promise.resolve(vi.unstubAllEnvs()));
    const nodes = await Promise.allSettled(
      [0, 1, 2].map(() =>
        serve({
          dataDir,
          db: url,
          port: 0,
          host: '127.0.0.1',
          currency: 'MOP',
          tableId: 'T1',
          supervisor: 'supervisor',
          demo: true,
          demoOnNetwork: false,
          terminal: true,
          say: () => undefined,
        }),
      ),
    );
    for (const node of nodes)
      if (node.status === 'fulfilled')
        closing.push(
          () => node.value.shutdown(),
          () => node.value.ctx.store.close(),
        );
    expect(nodes.map((n) => (n.status === 'rejected' ? String(n.reason) : 'ok'))).toEqual([
      'ok',
      'ok',
      'ok',
    ]);
    expect(
      await sql(url, "SELECT count(*)::int AS n FROM users WHERE role = 'supervisor'"),
    ).toEqual([{ n: 1 }]);
    expect(await sql(url, 'SELECT id FROM tables')).toEqual([{ id: 'T1' }]);
    // Each node starts its read workers before it listens; from the sources each loads them anew.
  }, 120_000);
});
