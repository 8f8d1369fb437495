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
import type { JournalEntry } from '../journal/index.js';
import { PgCluster } from './cluster.js';
import { asStoreUnavailable, rethrowUnavailable, StoreUnavailableError } from './errors.js';
import { migratePg } from './pg-migrate.js';
import { PgTxDriver } from './pg-driver.js';
import {
  ACCOUNT_COLUMNS,
  JOURNAL_COLUMNS,
  type JournalRow,
  pageLimit,
  TABLE_COLUMNS,
  SESSION_COLUMNS,
  SESSION_USER_COLUMNS,
  toJournalEntry,
  TRANSFER_COLUMNS,
  USER_COLUMNS,
  USER_SECRET_COLUMNS,
} from './sql-columns.js';
import {
  type AccountMove,
  type IndexedJournalQuery,
  indexedTypesSql,
  STAFF_ACTIONS_SQL,
  PAGE_ROWS_MAX,
  type ReadModel,
  type Store,
  type StoreLocation,
  type TableRecord,
  type ConnectionStats,
  type TransactionOptions,
  type Tx,
} from './store.js';
import { DriverTx, type TableRow, toTableRecord } from './tx.js';
import type { Account, Currency, Transfer } from './types.js';
import {
  assertInstant,
  assertSessionInput,
  assertTokenHash,
  assertTouch,
  type CreateSessionResult,
  newSession,
  type Role,
  type Session,
  type SessionInput,
  type SessionUserRow,
  sessionRefusal,
  toSessionAndUser,
  toUser,
  toUserWithSecret,
  type User,
  type UserRow,
  type UserWithSecret,
  usernameKey,
} from './users.js';

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

type SeqTransfer = Transfer & { readonly seq: number };

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
  const pool = new pg.Pool({ ...clientConfig, max: options.poolConnectionsMax ?? 10 });
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
 * node's (see migratePg).
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
    await migratePg(client, options.schema, options.currency, nowMs);
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

class PgStore implements Store {
  readonly engine = 'postgres' as const;

  constructor(
    private readonly pool: pg.Pool,
    readonly location: StoreLocation,
    readonly currency: Currency,
    private readonly clock: () => number,
    private readonly attemptsMax: number,
    readonly cluster: PgCluster,
    /** How long a transaction or a read may wait for PostgreSQL before its connection is dropped. */
    private readonly deadlineMs: number,
  ) {}

  connections(): ConnectionStats {
    const { totalCount, idleCount, waitingCount } = this.pool;
    return { open: totalCount, inUse: totalCount - idleCount, waiting: waitingCount };
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T> {
    // A retry keeps the first attempt's time: it is the same command.
    const nowMs = options?.nowMs ?? this.clock();
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(fn, nowMs);
      } catch (error) {
        if (!isRetryable(error) || attempt >= this.attemptsMax) throw error;
        // Exponential backoff with jitter, so racing transactions do not collide again in step.
        await new Promise((resolve) =>
          setTimeout(resolve, randomInt(1, 2 ** Math.min(attempt, 8) + 1)),
        );
      }
    }
  }

  private attempt<T>(fn: (tx: Tx) => Promise<T>, nowMs: number): Promise<T> {
    return withConnection(this.pool, this.deadlineMs, async (client, lost) => {
      const driver = new PgTxDriver(client);
      const tx = new DriverTx(driver, this.currency, nowMs);
      try {
        await client.query('BEGIN');
        const value = await fn(tx);
        tx.close();
        // A query failed and the callback swallowed the error: the transaction is aborted anyway.
        if (driver.firstError !== undefined) throw asError(driver.firstError);
        await client.query('COMMIT');
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

  /** One autocommit statement; a lost or frozen database is a StoreUnavailableError. */
  private run<R extends pg.QueryResultRow>(
    sql: string,
    params: unknown[],
  ): Promise<pg.QueryResult<R>> {
    return withConnection(this.pool, this.deadlineMs, (client) => client.query<R>(sql, params));
  }

  private async all<R extends pg.QueryResultRow>(sql: string, ...params: unknown[]): Promise<R[]> {
    return (await this.run<R>(sql, params)).rows;
  }

  private async one<R extends pg.QueryResultRow>(
    sql: string,
    ...params: unknown[]
  ): Promise<R | undefined> {
    return (await this.all<R>(sql, ...params))[0];
  }

  getAccount(id: string): Promise<Account | undefined> {
    return this.one<Account>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`, id);
  }

  listAccounts(query: { afterId?: string; limit?: number } = {}): Promise<Account[]> {
    // Byte order, as SQLite sorts, whatever the database's collation.
    const sql = `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id COLLATE "C" > $1 ORDER BY id COLLATE "C" LIMIT $2`;
    return this.all<Account>(sql, query.afterId ?? '', pageLimit(query.limit, PAGE_ROWS_MAX));
  }

  getTransfer(id: string): Promise<Transfer | undefined> {
    return this.one<Transfer>(`SELECT ${TRANSFER_COLUMNS} FROM transfers WHERE id = $1`, id);
  }

  transfersByReference(reference: string): Promise<Transfer[]> {
    return this.all<Transfer>(
      `SELECT ${TRANSFER_COLUMNS} FROM transfers WHERE reference = $1 ORDER BY seq`,
      reference,
    );
  }

  transfersOfAccount(
    accountId: string,
    query: { afterSeq?: number; limit?: number } = {},
  ): Promise<SeqTransfer[]> {
    const sql = `SELECT seq, ${TRANSFER_COLUMNS} FROM transfers
      WHERE (debit_account_id = $1 OR credit_account_id = $1) AND seq > $2 ORDER BY seq LIMIT $3`;
    return this.all<SeqTransfer>(
      sql,
      accountId,
      query.afterSeq ?? 0,
      pageLimit(query.limit, PAGE_ROWS_MAX),
    );
  }

  listTransfers(query: { afterSeq?: number; limit?: number } = {}): Promise<SeqTransfer[]> {
    const sql = `SELECT seq, ${TRANSFER_COLUMNS} FROM transfers WHERE seq > $1 ORDER BY seq LIMIT $2`;
    return this.all<SeqTransfer>(sql, query.afterSeq ?? 0, pageLimit(query.limit, PAGE_ROWS_MAX));
  }

  async listTables(): Promise<string[]> {
    const rows = await this.all<{ id: string }>('SELECT id FROM tables ORDER BY id');
    return rows.map((r) => r.id);
  }

  async getTable(id: string): Promise<TableRecord | undefined> {
    const row = await this.one<TableRow>(`SELECT ${TABLE_COLUMNS} FROM tables WHERE id = $1`, id);
    return row === undefined ? undefined : toTableRecord(row);
  }

  async readJournal(query: {
    fromSeq: number;
    limit: number;
    tableId?: string;
  }): Promise<JournalEntry[]> {
    const limit = pageLimit(query.limit, PAGE_ROWS_MAX);
    const rows =
      query.tableId === undefined
        ? await this.all<JournalRow>(
            `SELECT ${JOURNAL_COLUMNS} FROM journal WHERE seq >= $1 ORDER BY seq LIMIT $2`,
            query.fromSeq,
            limit,
          )
        : await this.all<JournalRow>(
            `SELECT ${JOURNAL_COLUMNS} FROM journal WHERE table_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3`,
            query.tableId,
            query.fromSeq,
            limit,
          );
    return rows.map(toJournalEntry);
  }

  async journalHead(): Promise<{ lastSeq: number; lastHash: string }> {
    const head = await this.one<{ lastSeq: number; lastHash: string }>(
      `SELECT last_seq AS "lastSeq", last_hash AS "lastHash" FROM journal_head WHERE chain = 'global'`,
    );
    return head!;
  }

  async readIndexedJournal(query: IndexedJournalQuery): Promise<JournalEntry[]> {
    const order = query.newestFirst === true ? 'DESC' : 'ASC';
    const table = query.tableId === null ? 'table_id IS NULL' : 'table_id = $4';
    const params: unknown[] = [
      query.afterSeq ?? 0,
      query.beforeSeq ?? Number.MAX_SAFE_INTEGER,
      pageLimit(query.limit, PAGE_ROWS_MAX),
    ];
    if (query.tableId !== null) params.push(query.tableId);
    const rows = await this.all<JournalRow>(
      `SELECT ${JOURNAL_COLUMNS} FROM journal
        WHERE ${table} AND ${indexedTypesSql(query.types)} AND seq > $1 AND seq < $2
        ORDER BY seq ${order} LIMIT $3`,
      ...params,
    );
    return rows.map(toJournalEntry);
  }

  async readStaffActions(query: { beforeSeq?: number; limit: number }): Promise<JournalEntry[]> {
    const rows = await this.all<JournalRow>(
      `SELECT ${JOURNAL_COLUMNS} FROM journal
        WHERE ${STAFF_ACTIONS_SQL} AND seq < $1 ORDER BY seq DESC LIMIT $2`,
      query.beforeSeq ?? Number.MAX_SAFE_INTEGER,
      pageLimit(query.limit, PAGE_ROWS_MAX),
    );
    return rows.map(toJournalEntry);
  }

  async readSettlements(query: {
    tableId: string;
    fromAtMs: number;
    untilAtMs: number;
    limit: number;
  }): Promise<JournalEntry[]> {
    const rows = await this.all<JournalRow>(
      `SELECT ${JOURNAL_COLUMNS} FROM journal
        WHERE table_id = $1 AND type = 'round-settled' AND at_ms >= $2 AND at_ms < $3
        ORDER BY seq LIMIT $4`,
      query.tableId,
      query.fromAtMs,
      query.untilAtMs,
      pageLimit(query.limit, PAGE_ROWS_MAX),
    );
    return rows.map(toJournalEntry);
  }

  accountMovesSince(
    accountIds: readonly string[],
    references: readonly string[],
  ): Promise<AccountMove[]> {
    if (accountIds.length === 0 || references.length === 0) return Promise.resolve([]);
    return this.all<AccountMove>(
      `WITH start AS (SELECT min(seq) AS seq FROM transfers WHERE reference = ANY($1::text[])),
        moves AS (
          SELECT t.seq, t.reference, t.credit_account_id AS account_id, t.amount_minor AS delta
            FROM transfers t WHERE t.seq >= (SELECT seq FROM start) AND t.credit_account_id = ANY($2::text[])
          UNION ALL
          SELECT t.seq, t.reference, t.debit_account_id, -t.amount_minor
            FROM transfers t WHERE t.seq >= (SELECT seq FROM start) AND t.debit_account_id = ANY($2::text[])),
        balanced AS (
          SELECT m.seq, m.account_id, m.reference, m.delta, a.balance_minor - coalesce(sum(m.delta) OVER (
              PARTITION BY m.account_id ORDER BY m.seq DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS after
            FROM moves m JOIN accounts a ON a.id = m.account_id)
      SELECT seq, account_id AS "accountId", reference, delta AS "deltaMinor", after::bigint AS "balanceAfterMinor"
        FROM balanced WHERE reference = ANY($1::text[]) ORDER BY seq`,
      references,
      accountIds,
    );
  }

  async getReadModel(name: string): Promise<ReadModel | undefined> {
    const row = await this.one<{ seq: number; valueJson: string }>(
      'SELECT seq, value_json AS "valueJson" FROM read_models WHERE name = $1',
      name,
    );
    return row === undefined
      ? undefined
      : { seq: row.seq, value: JSON.parse(row.valueJson) as unknown };
  }

  async putReadModel(name: string, model: ReadModel): Promise<void> {
    await this.pool.query(
      `INSERT INTO read_models (name, seq, value_json, updated_at_ms) VALUES ($1, $2, $3, $4)
        ON CONFLICT (name) DO UPDATE SET seq = excluded.seq, value_json = excluded.value_json,
          updated_at_ms = excluded.updated_at_ms WHERE excluded.seq > read_models.seq`,
      [name, model.seq, JSON.stringify(model.value), this.clock()],
    );
  }

  async sweepCommands(beforeMs: number, limit: number): Promise<number> {
    assertInstant(beforeMs, 'beforeMs');
    const result = await this.pool.query(
      `DELETE FROM commands WHERE key IN
        (SELECT key FROM commands WHERE created_at_ms < $1 ORDER BY created_at_ms LIMIT $2)`,
      [beforeMs, pageLimit(limit, PAGE_ROWS_MAX)],
    );
    return result.rowCount ?? 0;
  }

  async getUser(id: string): Promise<User | undefined> {
    const row = await this.one<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, id);
    return row === undefined ? undefined : toUser(row);
  }

  async findUserByUsername(username: string): Promise<UserWithSecret | undefined> {
    const row = await this.one<UserRow>(
      `SELECT ${USER_SECRET_COLUMNS} FROM users WHERE username_key = $1`,
      usernameKey(username),
    );
    return row === undefined ? undefined : toUserWithSecret(row);
  }

  async listUsers(query: { role?: Role; afterId?: string; limit?: number } = {}): Promise<User[]> {
    // users.id is COLLATE "C": byte order, as on SQLite.
    const limit = pageLimit(query.limit, PAGE_ROWS_MAX);
    const rows =
      query.role === undefined
        ? await this.all<UserRow>(
            `SELECT ${USER_COLUMNS} FROM users WHERE id > $1 ORDER BY id LIMIT $2`,
            query.afterId ?? '',
            limit,
          )
        : await this.all<UserRow>(
            `SELECT ${USER_COLUMNS} FROM users WHERE role = $1 AND id > $2 ORDER BY id LIMIT $3`,
            query.role,
            query.afterId ?? '',
            limit,
          );
    return rows.map(toUser);
  }

  async countUsers(role?: Role): Promise<number> {
    const row =
      role === undefined
        ? await this.one<{ n: number }>('SELECT count(*) AS n FROM users')
        : await this.one<{ n: number }>('SELECT count(*) AS n FROM users WHERE role = $1', role);
    return row!.n;
  }

  async createSession(input: SessionInput): Promise<CreateSessionResult> {
    assertSessionInput(input);
    // The SELECT makes the insert itself check the user, in one autocommit statement,
    // which also sweeps the sessions expired by now (see Store.createSession).
    const inserted = await this.all(
      `WITH swept AS (DELETE FROM sessions WHERE expires_at_ms <= $2)
      INSERT INTO sessions (token_hash, user_id, created_at_ms, expires_at_ms)
      SELECT $1, id, $2, $3 FROM users WHERE id = $4 AND NOT disabled
      ON CONFLICT DO NOTHING RETURNING token_hash`,
      input.tokenHash,
      input.createdAtMs,
      input.expiresAtMs,
      input.userId,
    );
    if (inserted.length === 1) return { status: 'created', session: newSession(input) };
    return sessionRefusal(await this.getUser(input.userId));
  }

  async findSession(
    tokenHash: string,
    nowMs: number,
  ): Promise<{ session: Session; user: User } | undefined> {
    assertTokenHash(tokenHash);
    assertInstant(nowMs, 'nowMs');
    const row = await this.one<SessionUserRow>(
      `SELECT ${SESSION_USER_COLUMNS} FROM sessions AS s JOIN users AS u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.expires_at_ms > $2 AND NOT u.disabled`,
      tokenHash,
      nowMs,
    );
    return row === undefined ? undefined : toSessionAndUser(row);
  }

  async touchSession(tokenHash: string, nowMs: number, expiresAtMs?: number): Promise<boolean> {
    assertTokenHash(tokenHash);
    assertTouch(nowMs, expiresAtMs);
    const rows = await this.all(
      `UPDATE sessions SET last_seen_at_ms = $1, expires_at_ms = coalesce($2::bigint, expires_at_ms)
      WHERE token_hash = $3 AND expires_at_ms > $1 RETURNING token_hash`,
      nowMs,
      expiresAtMs ?? null,
      tokenHash,
    );
    return rows.length === 1;
  }

  async deleteSession(tokenHash: string): Promise<boolean> {
    assertTokenHash(tokenHash);
    const result = await this.run('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
    return result.rowCount === 1;
  }

  async listUserSessions(userId: string, nowMs: number): Promise<Session[]> {
    assertInstant(nowMs, 'nowMs');
    return this.all<Session>(
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE user_id = $1 AND expires_at_ms > $2
      ORDER BY created_at_ms DESC, token_hash`,
      userId,
      nowMs,
    );
  }

  async deleteUserSessions(userId: string): Promise<number> {
    const result = await this.run('DELETE FROM sessions WHERE user_id = $1', [userId]);
    return result.rowCount ?? 0;
  }

  async deleteExpiredSessions(nowMs: number): Promise<number> {
    assertInstant(nowMs, 'nowMs');
    const result = await this.run('DELETE FROM sessions WHERE expires_at_ms <= $1', [nowMs]);
    return result.rowCount ?? 0;
  }

  async schemaVersions(): Promise<number[]> {
    const rows = await this.all<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    return rows.map((r) => r.version);
  }

  async close(): Promise<void> {
    await this.cluster.close();
    await this.pool.end();
  }
}
