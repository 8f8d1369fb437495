/**
 * The PostgreSQL Store, for several nodes sharing one source of truth.
 *
 * Isolation is READ COMMITTED, made safe by locks rather than by SERIALIZABLE:
 * every value a transaction reads in order to decide a write is read under a
 * row lock it keeps until commit — the table row (FOR UPDATE), every account a
 * transfer batch touches (FOR UPDATE, in id order), the journal head (FOR UPDATE).
 * After such a lock is granted PostgreSQL returns the newest committed row, so
 * no decision rests on a stale balance. Ids that may be created by two
 * transactions at once (transfers, commands, accounts) are guarded by unique
 * constraints; the loser's unique violation is retried, and on the retry it
 * finds the winner's row ("exists", "replay"). Deadlocks (40P01) and
 * serialization failures (40001) are retried as well, a bounded number of times.
 */
import { randomInt } from 'node:crypto';
import pg from 'pg';
import { PgCluster } from './cluster.js';
import { asStoreUnavailable, rethrowUnavailable, StoreUnavailableError } from './errors.js';
import { migrate as runMigrations } from './migration.js';
import { OptimisticMiss, PgStoreDriver, PgTxDriver, pgMigrationDriver } from './pg-driver.js';
import { SqlStore } from './sql-store.js';
import type { ConnectionStats, Store, StoreLocation, TransactionOptions, Tx } from './store.js';
import { DriverTx } from './tx.js';
import type { Currency } from './types.js';

export interface PgStoreOptions {
  /** e.g. postgres://user@host:5432/db */
  readonly url: string;
  readonly currency: Currency;
  /** A schema to live in (created when missing); default: the connection's search_path. */
  readonly schema?: string;
  readonly clock?: () => number;
  readonly poolConnectionsMax?: number;
  /** Attempts of one transaction, the first included, before a retryable failure is thrown. */
  readonly transactionAttemptsMax?: number;
  /** How long to wait for the database; see PgTimeouts. */
  readonly timeouts?: Partial<PgTimeouts>;
}

/**
 * How long a node waits for PostgreSQL before it answers 503
 * (database_unavailable) instead of hanging: a frozen or unreachable server
 * costs a request at most about these times, never the process.
 */
export interface PgTimeouts {
  /** To open a connection, or to wait for a free one of the pool. */
  readonly connectTimeoutMs: number;
  /**
   * A statement's run time on the server (statement_timeout). The client gives
   * up on an answer a second later (a server that is frozen never cancels).
   */
  readonly statementTimeoutMs: number;
  /** A wait for a row or table lock (lock_timeout). */
  readonly lockTimeoutMs: number;
  /** A transaction left idle by its client (idle_in_transaction_session_timeout). */
  readonly idleInTransactionTimeoutMs: number;
}

export const DEFAULT_PG_TIMEOUTS: PgTimeouts = {
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 5_000,
  lockTimeoutMs: 5_000,
  idleInTransactionTimeoutMs: 10_000,
};

/** The client's own wait beyond statement_timeout, for a server that cannot even cancel. */
const CLIENT_TIMEOUT_MARGIN_MS = 1_000;

/**
 * Ends a connection at once, without waiting for a server that may be frozen:
 * its query in flight fails with "Connection terminated".
 */
function destroyConnection(client: pg.PoolClient): void {
  (
    client as unknown as { connection: { stream: { destroy(): void } } }
  ).connection.stream.destroy();
}

/**
 * Runs `fn` on a pooled connection that has an error listener (a checked-out
 * client has none of the pool's: a connection lost mid-way would crash the
 * process) and a deadline: past `deadlineMs` the connection is destroyed, so
 * a frozen server costs a StoreUnavailableError, not a hang. One timer a use,
 * not one a query.
 */
async function withConnection<T>(
  pool: pg.Pool,
  deadlineMs: number,
  fn: (client: pg.PoolClient, lost: () => unknown) => Promise<T>,
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    rethrowUnavailable(error);
  }
  let lost: unknown = undefined;
  const onError = (error: unknown): void => void (lost ??= error);
  client.on('error', onError);
  const deadline = setTimeout(() => {
    lost ??= new Error(`Query read timeout: no answer from PostgreSQL in ${deadlineMs} ms`);
    destroyConnection(client);
  }, deadlineMs);
  let broken = false;
  try {
    return await fn(client, () => lost);
  } catch (error) {
    const unavailable = asStoreUnavailable(lost ?? error);
    if (unavailable === undefined) throw error;
    // The connection is gone or stuck: it is not given back to the pool.
    broken = true;
    throw unavailable;
  } finally {
    clearTimeout(deadline);
    client.removeListener('error', onError);
    client.release(broken);
  }
}

/** The connection settings of every client a store opens (pool, listener, migrations). */
function pgClientConfig(options: PgStoreOptions, timeouts: PgTimeouts): pg.ClientConfig {
  return {
    connectionString: options.url,
    types,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
    lock_timeout: timeouts.lockTimeoutMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
  };
}

const INT8_OID = 20;
const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;
/** Unique constraints a concurrent transaction can win; losing one is retried. */
const RACED_CONSTRAINTS = new Set(['transfers_id_unique', 'commands_pkey', 'accounts_pkey']);

/** BIGINT columns come back as numbers; a value beyond 2^53 would be a corrupted ledger. */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n))
    throw new RangeError(`BIGINT ${text} is outside the safe-integer range`);
  return n;
}

export const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID
      ? parseInt8
      : (pg.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
};

export async function openPgStore(options: PgStoreOptions): Promise<Store> {
  if (options.schema !== undefined && !SCHEMA_PATTERN.test(options.schema)) {
    throw new RangeError(`bad schema name ${JSON.stringify(options.schema)}`);
  }
  const clock = options.clock ?? Date.now;
  const timeouts = { ...DEFAULT_PG_TIMEOUTS, ...options.timeouts };
  const clientConfig = pgClientConfig(options, timeouts);
  await migrate(clientConfig, options, clock());
  // Pipelined: a query leaves at once, not behind the answer to the one before, so a
  // transaction's last statement and its COMMIT travel together (PgTxDriver.commit).
  const pool = new pg.Pool({
    ...clientConfig,
    pipeline: true,
    max: options.poolConnectionsMax ?? 10,
  });
  // An idle connection the server drops (restart, failover) is replaced on next
  // use; without a listener its error would crash the process.
  pool.on('error', () => undefined);
  // The pool's first connection opens now: a setting the server refuses fails the open, not a bet.
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    rethrowUnavailable(error);
  }
  const cluster = new PgCluster(pool, clientConfig, options.schema ?? 'public');
  const location: StoreLocation = {
    engine: 'postgres',
    url: options.url,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
    timeouts,
  };
  return new PgStore(
    pool,
    location,
    options.currency,
    clock,
    options.transactionAttemptsMax ?? 8,
    cluster,
    timeouts.statementTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS,
  );
}

/**
 * Migrations on a connection of their own, without the statement and lock
 * timeouts: a migration may take long, and waits its turn behind another
 * node's (see pgMigrationDriver).
 */
async function migrate(
  clientConfig: pg.ClientConfig,
  options: PgStoreOptions,
  nowMs: number,
): Promise<void> {
  const client = new pg.Client({ ...clientConfig, statement_timeout: 0, lock_timeout: 0 });
  client.on('error', () => undefined); // the pending query fails too, and says why
  try {
    await client.connect();
    await runMigrations(pgMigrationDriver(client, options.schema), options.currency, nowMs);
  } catch (error) {
    rethrowUnavailable(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

export function isRetryable(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  if (typeof e !== 'object' || e === null) return false;
  if (e.code === '40001' || e.code === '40P01') return true;
  return (
    e.code === '23505' && typeof e.constraint === 'string' && RACED_CONSTRAINTS.has(e.constraint)
  );
}

class PgStore extends SqlStore {
  readonly engine = 'postgres' as const;
  protected readonly sql: PgStoreDriver;

  constructor(
    private readonly pool: pg.Pool,
    readonly location: StoreLocation,
    readonly currency: Currency,
    clock: () => number,
    private readonly attemptsMax: number,
    readonly cluster: PgCluster,
    /** How long a transaction or a read may wait for PostgreSQL before its connection is dropped. */
    private readonly deadlineMs: number,
  ) {
    super(clock);
    // A lost or frozen database is a StoreUnavailableError.
    this.sql = new PgStoreDriver((fn) => withConnection(pool, deadlineMs, fn));
  }

  connections(): ConnectionStats {
    const { totalCount, idleCount, waitingCount } = this.pool;
    return { open: totalCount, inUse: totalCount - idleCount, waiting: waitingCount };
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T> {
    // A retry keeps the first attempt's time: it is the same command.
    const nowMs = options?.nowMs ?? this.clock();
    let careful = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(fn, nowMs, careful);
      } catch (error) {
        // A batch the optimistic path could not write: at once again, with the careful path.
        if (error instanceof OptimisticMiss && !careful) {
          careful = true;
          continue;
        }
        if (!isRetryable(error) || attempt >= this.attemptsMax) throw error;
        // Exponential backoff with jitter, so racing transactions do not collide again in step.
        await new Promise((resolve) =>
          setTimeout(resolve, randomInt(1, 2 ** Math.min(attempt, 8) + 1)),
        );
      }
    }
  }

  private attempt<T>(fn: (tx: Tx) => Promise<T>, nowMs: number, careful: boolean): Promise<T> {
    return withConnection(this.pool, this.deadlineMs, async (client, lost) => {
      const driver = new PgTxDriver(client, this.cluster.channel, careful);
      const tx = new DriverTx(driver, this.currency, nowMs);
      try {
        await client.query('BEGIN');
        const value = await fn(tx);
        tx.close();
        // A query failed and the callback swallowed the error: the transaction is aborted anyway.
        if (driver.firstError !== undefined) throw asError(driver.firstError);
        await driver.commit();
        return value;
      } catch (error) {
        tx.close();
        // The first database error decides whether to retry, not what the callback made of it.
        const first: unknown = lost() ?? driver.firstError ?? error;
        // A lost connection has nothing to roll back: the server rolls back what it did not
        // commit, and a retry with the same key finds what it did (withConnection drops it).
        if (asStoreUnavailable(first) !== undefined) throw first;
        // A connection that cannot roll back is unusable: withConnection drops it.
        await client.query('ROLLBACK').catch((rollback: unknown) => {
          throw new StoreUnavailableError('the connection could not roll back', rollback);
        });
        throw asError(first);
      }
    });
  }

  async close(): Promise<void> {
    await this.cluster.close();
    await this.pool.end();
  }
}
