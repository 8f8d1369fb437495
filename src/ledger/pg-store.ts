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
  PAGE_ROWS_MAX,
  type Store,
  type TableRecord,
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

const types = {
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
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolConnectionsMax ?? 10,
    types,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
  });
  // An idle connection the server drops (restart, failover) is replaced on next
  // use; without a listener its error would crash the process.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      await migratePg(client, options.schema, options.currency, clock());
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  const clientConfig: pg.ClientConfig = {
    connectionString: options.url,
    types,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
  };
  const cluster = new PgCluster(pool, clientConfig, options.schema ?? 'public');
  return new PgStore(pool, options.currency, clock, options.transactionAttemptsMax ?? 8, cluster);
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
    readonly currency: Currency,
    private readonly clock: () => number,
    private readonly attemptsMax: number,
    readonly cluster: PgCluster,
  ) {}

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

  private async attempt<T>(fn: (tx: Tx) => Promise<T>, nowMs: number): Promise<T> {
    const client = await this.pool.connect();
    const driver = new PgTxDriver(client);
    const tx = new DriverTx(driver, this.currency, nowMs);
    let broken = false;
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
      await client.query('ROLLBACK').catch(() => {
        broken = true; // a connection that cannot roll back is not given back to the pool
      });
      // The first database error decides whether to retry, not what the callback made of it.
      throw asError(driver.firstError ?? error);
    } finally {
      client.release(broken);
    }
  }

  private async all<R extends pg.QueryResultRow>(sql: string, ...params: unknown[]): Promise<R[]> {
    return (await this.pool.query<R>(sql, params)).rows;
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
    // The SELECT makes the insert itself check the user, in one autocommit statement.
    const inserted = await this.all(
      `INSERT INTO sessions (token_hash, user_id, created_at_ms, expires_at_ms)
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
    const result = await this.pool.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
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
    const result = await this.pool.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
    return result.rowCount ?? 0;
  }

  async deleteExpiredSessions(nowMs: number): Promise<number> {
    assertInstant(nowMs, 'nowMs');
    const result = await this.pool.query('DELETE FROM sessions WHERE expires_at_ms <= $1', [nowMs]);
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
