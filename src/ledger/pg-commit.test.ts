/**
 * A PostgreSQL transaction's held writes and its COMMIT leave together
 * (PgTxDriver.commit): all of them commit, or none. On a throwaway database.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainEntries, type JournalInput } from '../journal/index.js';
import { PgTxDriver } from './pg-driver.js';
import { openPgStore } from './pg-store.js';
import type { Store } from './store.js';
import { adminSql, pgTestUrl } from './testing.js';

const ADMIN_URL = pgTestUrl();
const INT8_OID = 20;
/** BIGINT as a number, as the store's own clients read it. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? Number
      : (pg.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
};

/** An entry to write: which one does not matter here. */
const REVOKED: JournalInput = {
  tableId: null,
  type: 'session-revoked',
  payload: { userId: 'ana', by: 'sup' },
};

describe.skipIf(ADMIN_URL === undefined)('a transaction committed with its last writes', () => {
  const database = `cussec_commit_${randomBytes(6).toString('hex')}`;
  const url = new URL(ADMIN_URL ?? 'postgres://unused/unused');
  url.pathname = `/${database}`;
  let store: Store;

  beforeAll(async () => {
    await adminSql(ADMIN_URL!, `CREATE DATABASE ${database}`);
    store = await openPgStore({ url: url.href, currency: 'MOP' });
    await store.transaction((tx) => tx.createTable('T1', { tableId: 'T1' }, { phase: 'idle' }));
  });
  afterAll(async () => {
    await store.close();
    await adminSql(ADMIN_URL!, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  /** The journal's head, its entries and the table's version, as committed. */
  async function committed(client: pg.Client): Promise<unknown> {
    const { rows } = await client.query(
      `SELECT (SELECT last_seq FROM journal_head) AS head, (SELECT count(*)::int FROM journal) AS entries,
        (SELECT version FROM tables WHERE id = 'T1') AS version`,
    );
    return rows[0];
  }

  it('commits none of them when a held table update misses its row', async () => {
    const client = new pg.Client({ connectionString: url.href, types, pipeline: true });
    const observer = new pg.Client({ connectionString: url.href, types });
    await Promise.all([client.connect(), observer.connect()]);
    try {
      const before = await committed(observer);
      const driver = new PgTxDriver(client as unknown as pg.PoolClient, 'cussec_test', false);
      await client.query('BEGIN');
      const row = await driver.selectTable('T1', 'exclusive');
      // Behind the driver's back, in its own transaction: the version it locked is gone.
      await client.query(`UPDATE tables SET version = version + 1 WHERE id = 'T1'`);
      const head = await driver.lockJournalHead();
      await driver.insertJournal(chainEntries([REVOKED], head, 1));
      // Held: the driver foresees the row's next version.
      expect(await driver.updateTable('T1', row!.version, '{}', undefined, 1)).toBe(
        row!.version + 1,
      );
      await expect(driver.commit()).rejects.toThrow(/held update of table T1 missed/);
      // COMMIT ran in the aborted transaction, as a rollback: nothing is left open…
      expect(client.getTransactionStatus()).toBe('I');
      // …and nothing of it committed, the update done behind the driver's back included.
      expect(await committed(observer)).toEqual(before);
    } finally {
      await Promise.all([client.end(), observer.end()]);
    }
  });

  it('commits all of them, in one round trip, when the held writes hit', async () => {
    const client = new pg.Client({ connectionString: url.href, types, pipeline: true });
    const observer = new pg.Client({ connectionString: url.href, types });
    await Promise.all([client.connect(), observer.connect()]);
    try {
      const driver = new PgTxDriver(client as unknown as pg.PoolClient, 'cussec_test', false);
      await client.query('BEGIN');
      const row = await driver.selectTable('T1', 'exclusive');
      const head = await driver.lockJournalHead();
      await driver.insertJournal(chainEntries([REVOKED], head, 1));
      await driver.updateTable('T1', row!.version, '{"phase":"closed"}', undefined, 1);
      const sent: string[] = [];
      const query = client.query.bind(client);
      // Whatever is sent before the first answer comes back went out in one round trip.
      let answered = false;
      client.query = ((config: unknown, ...rest: unknown[]) => {
        if (!answered) sent.push(typeof config === 'string' ? config : 'held writes');
        const result = (query as (...a: unknown[]) => Promise<unknown>)(config, ...rest);
        void result.then(() => (answered = true));
        return result;
      }) as typeof client.query;
      await driver.commit();
      expect(sent).toEqual(['held writes', 'COMMIT']);
      expect(await committed(observer)).toEqual({
        head: head.lastSeq + 1,
        entries: head.lastSeq + 1,
        version: row!.version + 1,
      });
    } finally {
      await Promise.all([client.end(), observer.end()]);
    }
  });
});
