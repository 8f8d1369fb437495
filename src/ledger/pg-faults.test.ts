/**
 * PostgreSQL going away under a store, on a throwaway database of this suite:
 * its backends terminated mid-transaction (as a restart or a failover does), or
 * a lock held past the lock timeout. The store answers with a typed
 * StoreUnavailableError, the process lives on, and the next call succeeds.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from './errors.js';
import { openPgStore } from './pg-store.js';
import type { Store } from './store.js';
import { pgTestUrl } from './testing.js';
import { walletAccount } from './types.js';

const ADMIN_URL = pgTestUrl();

async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(ADMIN_URL === undefined)('a PostgreSQL store whose database goes away', () => {
  const database = `cussec_faults_${randomBytes(6).toString('hex')}`;
  const url = new URL(ADMIN_URL ?? 'postgres://unused/unused');
  url.pathname = `/${database}`;
  const stores: Store[] = [];

  beforeAll(() => admin(ADMIN_URL!, (c) => c.query(`CREATE DATABASE ${database}`)));
  afterAll(async () => {
    for (const s of stores) await s.close();
    await admin(ADMIN_URL!, (c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  });

  const open = async (timeouts = {}): Promise<Store> => {
    const store = await openPgStore({ url: url.href, currency: 'MOP', timeouts });
    stores.push(store);
    return store;
  };

  /** Ends every connection to the test database but the caller's (pg_terminate_backend, 57P01). */
  const terminateAll = (c: pg.Client): Promise<unknown> =>
    c.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );

  it('fails a transaction whose connection is terminated with a retryable error, never the process', async () => {
    const store = await open();
    await admin(url.href, async (killer) => {
      const attempt = store.transaction(async (tx) => {
        await tx.getAccount('cage');
        await terminateAll(killer);
        // Give the client time to see its socket close while it holds no query.
        await new Promise((resolve) => setTimeout(resolve, 200));
        return tx.getAccount('cage');
      });
      await expect(attempt).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(attempt).rejects.toMatchObject({ code: 'database_unavailable' });
    });
    // The next transaction gets a fresh connection and commits.
    await store.transaction((tx) => tx.createAccounts([walletAccount('p1')]));
    expect(await store.getAccount(walletAccount('p1').id)).toMatchObject({ balanceMinor: 0 });
  });

  it('fails a read on a terminated connection with a retryable error, then reads again', async () => {
    const store = await open();
    await store.journalHead();
    await admin(url.href, async (killer) => {
      // Terminate while a read is in flight on a pooled connection.
      const read = store.transaction(async (tx) => {
        await tx.getAccount('cage');
        const slow = tx.getAccount('cage');
        await terminateAll(killer);
        return slow;
      });
      await read.catch((error: unknown) => expect(error).toBeInstanceOf(StoreUnavailableError));
    });
    await expect
      .poll(() => store.journalHead().then(() => 'ok', String), { timeout: 5_000 })
      .toBe('ok');
  });

  it('gives up on a lock held past the lock timeout with a retryable error, in time', async () => {
    const store = await open({ lockTimeoutMs: 200, statementTimeoutMs: 2_000 });
    await admin(url.href, async (holder) => {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE journal_head IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      await expect(store.journalHead()).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - started).toBeLessThan(1_500);
      await holder.query('ROLLBACK');
    });
    await expect(store.journalHead()).resolves.toMatchObject({ lastSeq: 0 });
  });
});
