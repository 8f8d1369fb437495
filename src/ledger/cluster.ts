/**
 * What the nodes of a casino floor share besides the data: the journal's
 * notices (PostgreSQL LISTEN/NOTIFY) and leases (PostgreSQL session advisory
 * locks).
 *
 * A notice is sent by the journal write itself, in its transaction, and says
 * what the commit appended (journal-notice.ts): a node that hears one has the
 * entries without reading them. A notice may be missed (the listening
 * connection was lost meanwhile): a node reads the journal after the last
 * entry it saw when the next notice does not follow it, when its connection is
 * back, and on a poll, so a lost notice delays an event but never loses it. A
 * lease is held by the connection that took it: when a node dies, its
 * connection closes, PostgreSQL releases the lock, and another node takes the
 * lease on its next try.
 */
import pg from 'pg';
import { rethrowUnavailable, StoreUnavailableError } from './errors.js';
import { decodeJournalNotice, type JournalNotice } from './journal-notice.js';

export interface Cluster {
  /**
   * Whether every journal write is heard by listen(), on every node (this one
   * included), once it commits. False on one node (SQLite): a node reads the
   * journal after its own writes.
   */
  readonly hearsJournal: boolean;
  /**
   * Calls `onNotice` with the notice of each journal write any node commits,
   * in commit order, and with a `read` when some may have been missed, until close.
   */
  listen(onNotice: (notice: JournalNotice) => void): Promise<void>;
  /** Takes the lease named `key` if no other node holds it; true when this node holds it now. */
  tryLease(key: string): Promise<boolean>;
  /** Whether this node holds the lease now (false after its connection was lost). */
  holds(key: string): boolean;
  /**
   * Whether some node (this one included) holds the lease now. Which node does
   * is the table row's lease_holder, written by the node that took it.
   */
  leaseTaken(key: string): Promise<boolean>;
  /**
   * Runs `fn` while no other node runs an `exclusive` of the same key (first
   * start: migrations done, the first table and supervisor made once however
   * many nodes start together).
   */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /**
   * How full the database's queue of notices is, 0 to 1 (0 on one node, which
   * has none). A listener that stops taking notices while its
   * connection stays open holds the queue; when it is full, every journal
   * write fails (docs/deployment.md).
   */
  noticeQueueUsage(): Promise<number>;
  close(): Promise<void>;
}

/** One process, one node: every lease is ours and nobody else needs telling. */
export class SingleNodeCluster implements Cluster {
  readonly hearsJournal = false;
  listen(): Promise<void> {
    return Promise.resolve();
  }
  tryLease(): Promise<boolean> {
    return Promise.resolve(true);
  }
  noticeQueueUsage(): Promise<number> {
    return Promise.resolve(0);
  }
  holds(): boolean {
    return true;
  }
  leaseTaken(): Promise<boolean> {
    return Promise.resolve(true);
  }
  exclusive<T>(_key: string, fn: () => Promise<T>): Promise<T> {
    return fn();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const RECONNECT_DELAY_MS = 500;
/** How often a node waiting for an `exclusive` asks again, and for how long at most. */
const EXCLUSIVE_POLL_MS = 100;
const EXCLUSIVE_WAIT_MS = 60_000;

export class PgCluster implements Cluster {
  readonly hearsJournal = true;
  /** The namespace's channel, on which every journal write notifies (pg-driver.ts). */
  readonly channel: string;
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly leases = new Set<string>();
  private readonly listeners: ((notice: JournalNotice) => void)[] = [];
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly clientConfig: pg.ClientConfig,
    namespace: string,
  ) {
    this.channel = `cussec_${namespace}`;
  }

  async listen(onNotice: (notice: JournalNotice) => void): Promise<void> {
    this.listeners.push(onNotice);
    await this.connection();
  }

  async tryLease(key: string): Promise<boolean> {
    if (this.leases.has(key)) return true;
    const client = await this.connection();
    const result = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
      [`${this.channel}:${key}`],
    );
    if (result.rows[0]?.locked === true) this.leases.add(key);
    return this.leases.has(key);
  }

  holds(key: string): boolean {
    return this.leases.has(key);
  }

  async noticeQueueUsage(): Promise<number> {
    const result = await this.pool.query<{ usage: number }>(
      'SELECT pg_notification_queue_usage() AS usage',
    );
    return Number(result.rows[0]?.usage ?? 0);
  }

  async leaseTaken(key: string): Promise<boolean> {
    if (this.leases.has(key)) return true;
    // A bigint advisory lock shows in pg_locks as its high and low 32 bits (classid, objid), objsubid 1.
    const result = await this.pool.query<{ taken: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND objsubid = 1
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND classid = ((hashtextextended($1, 0) >> 32) & 4294967295)::oid
          AND objid = (hashtextextended($1, 0) & 4294967295)::oid) AS taken`,
      [`${this.channel}:${key}`],
    );
    return result.rows[0]?.taken === true;
  }

  async exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const name = `${this.channel}:${key}`;
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      rethrowUnavailable(error);
    }
    // A lost connection fails the query in flight; the listener keeps it from crashing the process.
    const onError = (): void => undefined;
    client.on('error', onError);
    let broken = false;
    try {
      // Polled rather than blocking, so that the statement and lock timeouts never cut the wait short.
      const deadline = Date.now() + EXCLUSIVE_WAIT_MS;
      for (;;) {
        const result = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
          [name],
        );
        if (result.rows[0]?.locked === true) break;
        if (Date.now() > deadline)
          throw new StoreUnavailableError(`another node holds "${key}" for too long`, undefined);
        await new Promise((resolve) => setTimeout(resolve, EXCLUSIVE_POLL_MS));
      }
      try {
        return await fn();
      } finally {
        await client
          .query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [name])
          .catch(() => (broken = true)); // closing the connection releases the lock
      }
    } catch (error) {
      broken = true;
      rethrowUnavailable(error);
    } finally {
      client.removeListener('error', onError);
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.leases.clear();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** The dedicated connection that listens and holds the leases; made again after a loss. */
  private connection(): Promise<pg.Client> {
    if (this.client !== undefined) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client(this.clientConfig);
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.tell(decodeJournalNotice(message.payload ?? ''));
    });
    await client.connect();
    await client.query(`LISTEN ${this.channel}`);
    this.client = client;
    return client;
  }

  /** The connection is gone, and with it every lease; listeners are re-attached after a pause. */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.leases.clear();
    if (this.closed || this.listeners.length === 0) return;
    const retry = (): void => {
      if (this.closed) return;
      this.connection()
        // A notice may have been missed while disconnected: the listeners read once.
        .then(() => this.tell({ kind: 'read' }))
        .catch(() => setTimeout(retry, RECONNECT_DELAY_MS).unref());
    };
    setTimeout(retry, RECONNECT_DELAY_MS).unref();
  }

  private tell(notice: JournalNotice): void {
    for (const l of this.listeners) l(notice);
  }
}
