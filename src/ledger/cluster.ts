/**
 * What the nodes of a casino floor share besides the data: a wake-up signal
 * (PostgreSQL LISTEN/NOTIFY) and leases (PostgreSQL session advisory locks).
 *
 * A signal only says "the journal moved": a node that gets one reads the
 * journal after the last entry it saw, so a lost signal delays an event but
 * never loses it. A lease is held by the connection that took it: when a node
 * dies, its connection closes, PostgreSQL releases the lock, and another node
 * takes the lease on its next try.
 */
import pg from 'pg';
import { rethrowUnavailable, StoreUnavailableError } from './errors.js';

export interface Cluster {
  /** Wakes every node's listener (this one's included), after the caller's commit. */
  notify(payload: string): Promise<void>;
  /** Calls `onSignal` on every notify from any node, until close. */
  listen(onSignal: (payload: string) => void): Promise<void>;
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
  close(): Promise<void>;
}

/** One process, one node: every lease is ours and nobody else needs waking. */
export class SingleNodeCluster implements Cluster {
  private readonly listeners: ((payload: string) => void)[] = [];
  notify(payload: string): Promise<void> {
    for (const l of this.listeners) l(payload);
    return Promise.resolve();
  }
  listen(onSignal: (payload: string) => void): Promise<void> {
    this.listeners.push(onSignal);
    return Promise.resolve();
  }
  tryLease(): Promise<boolean> {
    return Promise.resolve(true);
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
    this.listeners.length = 0;
    return Promise.resolve();
  }
}

const RECONNECT_DELAY_MS = 500;
/** How often a node waiting for an `exclusive` asks again, and for how long at most. */
const EXCLUSIVE_POLL_MS = 100;
const EXCLUSIVE_WAIT_MS = 60_000;

export class PgCluster implements Cluster {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly leases = new Set<string>();
  private readonly listeners: ((payload: string) => void)[] = [];
  private closed = false;
  private readonly channel: string;

  constructor(
    private readonly pool: pg.Pool,
    private readonly clientConfig: pg.ClientConfig,
    namespace: string,
  ) {
    this.channel = `cussec_${namespace}`;
  }

  async notify(payload: string): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [this.channel, payload]);
  }

  async listen(onSignal: (payload: string) => void): Promise<void> {
    this.listeners.push(onSignal);
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
      if (message.channel === this.channel)
        for (const l of this.listeners) l(message.payload ?? '');
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
        .then(() => {
          // A signal may have been missed while disconnected: wake the listeners once.
          for (const l of this.listeners) l('reconnected');
        })
        .catch(() => setTimeout(retry, RECONNECT_DELAY_MS).unref());
    };
    setTimeout(retry, RECONNECT_DELAY_MS).unref();
  }
}
