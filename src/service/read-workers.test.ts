import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PG_TIMEOUTS, openPgStore, StoreUnavailableError } from '../ledger/index.js';
import { pgTestUrl, withStores } from '../ledger/testing.js';
import { playLeverRounds, seedReportDay, testClock } from './compliance-testing.js';
import { readTableDay } from './daily-report.js';
import { ReadWorkers } from './read-workers.js';
import { recallRounds } from './recall.js';
import { TableService } from './table-service.js';

const T = 'T1';

withStores('reads on worker threads', (h) => {
  it('reads what the store reads, on its own connection, and a day again only once it changed', async () => {
    const store = await h.open();
    await seedReportDay(store);
    const reads = new ReadWorkers(store);
    try {
      expect(await reads.recall(T, 3)).toEqual(await recallRounds(store, T, 3));
      expect(await reads.recall('T9', 3)).toBeUndefined();
      const day = (await readTableDay(store, T, '2026-03-07'))!;
      const first = await reads.tableDay(T, '2026-03-07');
      expect(first).toEqual(day);
      expect(first!.report.rounds).toBe(1);
      // Nothing journaled since: the day kept is the answer.
      expect(await reads.tableDay(T, '2026-03-07')).toBe(first);
      expect(await reads.tableDay('T9', '2026-03-07')).toBeUndefined();
      // A round settled that day: read again.
      const clock = testClock(0);
      clock.at('2026-03-07', 0, 10);
      const tables = new TableService({ store, clock: clock.now });
      await playLeverRounds(tables, T, [
        {
          dice: [1, 2, 3],
          bets: [{ betId: 'late', playerId: 'bob', spot: 'small', stakeMinor: 1_000 }],
        },
      ]);
      await tables.drainAll();
      const second = await reads.tableDay(T, '2026-03-07');
      expect(second!.report.rounds).toBe(2);
      expect(second!.report.handleMinor).toBe(first!.report.handleMinor + 1_000);
    } finally {
      await reads.close();
    }
  });
});

describe.skipIf(pgTestUrl() === undefined)('read workers on PostgreSQL', () => {
  const database = `cussec_test_reads_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string): Promise<void> => {
    const client = new pg.Client({ connectionString: pgTestUrl() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  beforeAll(() => admin(`CREATE DATABASE ${database}`));
  afterAll(() => admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));

  it("waits for a lock no longer than the server's own timeouts, not the defaults", async () => {
    const url = new URL(pgTestUrl()!);
    url.pathname = `/${database}`;
    const lockTimeoutMs = 300;
    expect(lockTimeoutMs).toBeLessThan(DEFAULT_PG_TIMEOUTS.lockTimeoutMs / 4);
    const store = await openPgStore({
      url: url.href,
      currency: 'MOP',
      timeouts: { lockTimeoutMs, statementTimeoutMs: 2 * lockTimeoutMs },
    });
    const reads = new ReadWorkers(store);
    const locker = new pg.Client({ connectionString: url.href });
    await locker.connect();
    try {
      await seedReportDay(store);
      // Each worker has its connection open before the journal is locked.
      await reads.start();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE journal IN ACCESS EXCLUSIVE MODE');
      const began = performance.now();
      // lock_timeout's 55P03, as a retryable 503.
      const refused = await reads.recall(T, 1).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(StoreUnavailableError);
      expect((refused as Error).message).toContain('55P03');
      const waitedMs = performance.now() - began;
      expect(waitedMs).toBeGreaterThanOrEqual(lockTimeoutMs * 0.9);
      // The defaults would have waited 5 s.
      expect(waitedMs).toBeLessThan(DEFAULT_PG_TIMEOUTS.lockTimeoutMs / 2);
      await locker.query('ROLLBACK');
      expect(await reads.recall(T, 1)).toHaveLength(1);
    } finally {
      await locker.end();
      await reads.close();
      await store.close();
    }
  }, 30_000);
});
