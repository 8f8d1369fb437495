/**
 * The embedded Store: one SQLite file in WAL mode with synchronous=FULL, so a
 * commit that returned survives a power cut.
 *
 * better-sqlite3 is synchronous and has one connection per handle. Writes go
 * through one writer connection, one transaction at a time (a one-key KeyedQueue keeps the
 * async callbacks of two transactions from interleaving), each opened with
 * BEGIN IMMEDIATE so it holds SQLite's write lock from its first statement and
 * never has to be retried. Reads outside transactions use a second, read-only
 * connection, so they see committed data only and never wait for a writer.
 */
import { realpathSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { JournalEntry } from '../journal/index.js';
import { SingleNodeCluster } from './cluster.js';
import { rethrowUnavailable } from './errors.js';
import { KeyedQueue } from './keyed-queue.js';
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
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { SqliteTxDriver } from './sqlite-driver.js';
import { migrateSqlite } from './sqlite-migrate.js';
import {
  type AccountMove,
  type IndexedJournalQuery,
  indexedTypesSql,
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

export interface SqliteStoreOptions {
  /** A file path; the file is created when missing. */
  readonly path: string;
  /** The ledger's currency: set on creation, checked on every later open. */
  readonly currency: Currency;
  readonly clock?: () => number;
  /** How long to wait for another process's write lock before failing with SQLITE_BUSY. */
  readonly busyTimeoutMs?: number;
  /** The writer's page cache; default 64 MiB. */
  readonly cacheSizeKib?: number;
  /** Transactions allowed to queue behind the running one. */
  readonly waitingTransactionsMax?: number;
  /**
   * 'full' (default): a returned commit survives a power cut. 'none': commits
   * are not synced to disk, so a crash of the machine may lose or corrupt the
   * file; only for databases that are thrown away after (a benchmark's build).
   */
  readonly durability?: 'full' | 'none';
}

type SeqTransfer = Transfer & { readonly seq: number };

/**
 * One writer queue per database file in this process. Two stores on one file
 * must share it: BEGIN IMMEDIATE waits for another connection's write lock by
 * blocking the thread, so a second store in the same process would block the
 * very event loop the first one needs to finish its transaction. Each file's
 * queue has one key: it is a mutex.
 */
const writerQueueByFile = new Map<string, KeyedQueue>();
const WRITER = 'writer';

function writerQueueFor(path: string, waitingMax: number): KeyedQueue {
  const key = realpathSync(path);
  let queue = writerQueueByFile.get(key);
  if (queue === undefined) {
    queue = new KeyedQueue({
      queuedMax: waitingMax,
      busyError: (n) => new Error(`store busy: ${n} transactions already waiting`),
    });
    writerQueueByFile.set(key, queue);
  }
  return queue;
}

/**
 * SQLite's default checkpoints the WAL inside the commit that takes it past
 * 1,000 pages, so every few settlements one commit also copied megabytes into
 * the database file and synced it. The store checkpoints instead shortly after
 * commits, on another thread (SqliteCheckpointer). The automatic checkpoint
 * stays, far higher, in case those cannot keep up.
 */
const WAL_AUTOCHECKPOINT_PAGES = 16_384;

export async function openSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  const clock = options.clock ?? Date.now;
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const writer = new Database(options.path);
  try {
    writer.pragma(`busy_timeout = ${busyTimeoutMs}`);
    writer.pragma('journal_mode = WAL');
    writer.pragma(`synchronous = ${options.durability === 'none' ? 'OFF' : 'FULL'}`);
    writer.pragma('foreign_keys = ON');
    // A settlement touches tens of thousands of index pages; SQLite's default
    // 2 MB page cache would send most of them back to the OS on every batch.
    writer.pragma(`cache_size = -${options.cacheSizeKib ?? 65_536}`);
    // Checkpoints run after commits (scheduleCheckpoint), not inside them; this is the backstop.
    writer.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    const writes = writerQueueFor(options.path, options.waitingTransactionsMax ?? 10_000);
    // Through the queue: another store of this process may be inside a transaction.
    await writes.run(WRITER, () =>
      Promise.resolve(migrateSqlite(writer, options.currency, clock())),
    );
    const reader = new Database(options.path, { readonly: true });
    reader.pragma(`busy_timeout = ${busyTimeoutMs}`);
    const checkpointer = new SqliteCheckpointer(options.path, busyTimeoutMs);
    return new SqliteStore(
      writer,
      reader,
      { engine: 'sqlite', path: options.path },
      options.currency,
      clock,
      writes,
      checkpointer,
    );
  } catch (error) {
    writer.close();
    throw error;
  }
}

class SqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  readonly cluster = new SingleNodeCluster();
  private readonly driver: SqliteTxDriver;
  private closed = false;

  constructor(
    private readonly writer: Database.Database,
    private readonly reader: Database.Database,
    readonly location: StoreLocation,
    readonly currency: Currency,
    private readonly clock: () => number,
    private readonly writes: KeyedQueue,
    private readonly checkpointer: SqliteCheckpointer,
  ) {
    this.driver = new SqliteTxDriver(writer);
  }

  /** One writer connection: busy while a transaction runs, the others wait in the writer queue. */
  connections(): ConnectionStats {
    const queued = this.writes.queued(WRITER);
    return { open: 1, inUse: Math.min(queued, 1), waiting: Math.max(queued - 1, 0) };
  }

  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T> {
    return this.writes.run(WRITER, async () => {
      if (this.closed) throw new Error('store is closed');
      const tx = new DriverTx(this.driver, this.currency, options?.nowMs ?? this.clock());
      try {
        this.writer.exec('BEGIN IMMEDIATE');
        const value = await fn(tx);
        tx.close();
        this.writer.exec('COMMIT');
        this.checkpointer.schedule();
        return value;
      } catch (error) {
        tx.close();
        if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
        // A full disk or a lock held past the busy timeout: a retryable 503, not a 500.
        rethrowUnavailable(error);
      }
    });
  }

  private all<R>(sql: string, ...params: unknown[]): Promise<R[]> {
    return Promise.resolve(this.reader.prepare(sql).all(...params) as R[]);
  }

  private async one<R>(sql: string, ...params: unknown[]): Promise<R | undefined> {
    return (await this.all<R>(sql, ...params))[0];
  }

  getAccount(id: string): Promise<Account | undefined> {
    return this.one<Account>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ?`, id);
  }

  listAccounts(query: { afterId?: string; limit?: number } = {}): Promise<Account[]> {
    const sql = `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id > ? ORDER BY id LIMIT ?`;
    return this.all<Account>(sql, query.afterId ?? '', pageLimit(query.limit, PAGE_ROWS_MAX));
  }

  getTransfer(id: string): Promise<Transfer | undefined> {
    return this.one<Transfer>(`SELECT ${TRANSFER_COLUMNS} FROM transfers WHERE id = ?`, id);
  }

  transfersByReference(reference: string): Promise<Transfer[]> {
    return this.all<Transfer>(
      `SELECT ${TRANSFER_COLUMNS} FROM transfers WHERE reference = ? ORDER BY seq`,
      reference,
    );
  }

  transfersOfAccount(
    accountId: string,
    query: { afterSeq?: number; limit?: number } = {},
  ): Promise<SeqTransfer[]> {
    const sql = `SELECT seq, ${TRANSFER_COLUMNS} FROM transfers
      WHERE (debit_account_id = ? OR credit_account_id = ?) AND seq > ? ORDER BY seq LIMIT ?`;
    return this.all<SeqTransfer>(
      sql,
      accountId,
      accountId,
      query.afterSeq ?? 0,
      pageLimit(query.limit, PAGE_ROWS_MAX),
    );
  }

  listTransfers(query: { afterSeq?: number; limit?: number } = {}): Promise<SeqTransfer[]> {
    const sql = `SELECT seq, ${TRANSFER_COLUMNS} FROM transfers WHERE seq > ? ORDER BY seq LIMIT ?`;
    return this.all<SeqTransfer>(sql, query.afterSeq ?? 0, pageLimit(query.limit, PAGE_ROWS_MAX));
  }

  async listTables(): Promise<string[]> {
    const rows = await this.all<{ id: string }>('SELECT id FROM tables ORDER BY id');
    return rows.map((r) => r.id);
  }

  async getTable(id: string): Promise<TableRecord | undefined> {
    const row = await this.one<TableRow>(`SELECT ${TABLE_COLUMNS} FROM tables WHERE id = ?`, id);
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
            `SELECT ${JOURNAL_COLUMNS} FROM journal WHERE seq >= ? ORDER BY seq LIMIT ?`,
            query.fromSeq,
            limit,
          )
        : await this.all<JournalRow>(
            `SELECT ${JOURNAL_COLUMNS} FROM journal WHERE table_id = ? AND seq >= ? ORDER BY seq LIMIT ?`,
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
    const rows = await this.all<JournalRow>(
      `SELECT ${JOURNAL_COLUMNS} FROM journal INDEXED BY journal_by_table_type
        WHERE table_id IS ? AND ${indexedTypesSql(query.types)} AND seq > ? AND seq < ?
        ORDER BY seq ${order} LIMIT ?`,
      query.tableId,
      query.afterSeq ?? 0,
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
      `SELECT ${JOURNAL_COLUMNS} FROM journal INDEXED BY journal_settled_by_time
        WHERE table_id = ? AND type = 'round-settled' AND at_ms >= ? AND at_ms < ?
        ORDER BY seq LIMIT ?`,
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
      `WITH refs AS (SELECT value AS reference FROM json_each(?)),
        ids AS (SELECT value AS id FROM json_each(?)),
        start AS (SELECT min(seq) AS seq FROM transfers WHERE reference IN (SELECT reference FROM refs)),
        moves AS (
          SELECT t.seq, t.reference, t.credit_account_id AS account_id, t.amount_minor AS delta
            FROM transfers t WHERE t.seq >= (SELECT seq FROM start) AND t.credit_account_id IN (SELECT id FROM ids)
          UNION ALL
          SELECT t.seq, t.reference, t.debit_account_id, -t.amount_minor
            FROM transfers t WHERE t.seq >= (SELECT seq FROM start) AND t.debit_account_id IN (SELECT id FROM ids)),
        balanced AS (
          SELECT m.seq, m.account_id, m.reference, m.delta, a.balance_minor - coalesce(sum(m.delta) OVER (
              PARTITION BY m.account_id ORDER BY m.seq DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS after
            FROM moves m JOIN accounts a ON a.id = m.account_id)
      SELECT seq, account_id AS "accountId", reference, delta AS "deltaMinor", after AS "balanceAfterMinor"
        FROM balanced WHERE reference IN (SELECT reference FROM refs) ORDER BY seq`,
      JSON.stringify(references),
      JSON.stringify(accountIds),
    );
  }

  async getReadModel(name: string): Promise<ReadModel | undefined> {
    const row = await this.one<{ seq: number; valueJson: string }>(
      'SELECT seq, value_json AS "valueJson" FROM read_models WHERE name = ?',
      name,
    );
    return row === undefined
      ? undefined
      : { seq: row.seq, value: JSON.parse(row.valueJson) as unknown };
  }

  async putReadModel(name: string, model: ReadModel): Promise<void> {
    const json = JSON.stringify(model.value);
    const nowMs = this.clock();
    await this.write((db) =>
      db
        .prepare(
          `INSERT INTO read_models (name, seq, value_json, updated_at_ms) VALUES (?, ?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET seq = excluded.seq, value_json = excluded.value_json,
              updated_at_ms = excluded.updated_at_ms WHERE excluded.seq > read_models.seq`,
        )
        .run(name, model.seq, json, nowMs),
    );
  }

  async sweepCommands(beforeMs: number, limit: number): Promise<number> {
    assertInstant(beforeMs, 'beforeMs');
    const rows = pageLimit(limit, PAGE_ROWS_MAX);
    return this.write(
      (db) =>
        db
          .prepare(
            `DELETE FROM commands WHERE rowid IN
              (SELECT rowid FROM commands WHERE created_at_ms < ? ORDER BY created_at_ms LIMIT ?)`,
          )
          .run(beforeMs, rows).changes,
    );
  }

  async getUser(id: string): Promise<User | undefined> {
    const row = await this.one<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, id);
    return row === undefined ? undefined : toUser(row);
  }

  async findUserByUsername(username: string): Promise<UserWithSecret | undefined> {
    const row = await this.one<UserRow>(
      `SELECT ${USER_SECRET_COLUMNS} FROM users WHERE username_key = ?`,
      usernameKey(username),
    );
    return row === undefined ? undefined : toUserWithSecret(row);
  }

  async listUsers(query: { role?: Role; afterId?: string; limit?: number } = {}): Promise<User[]> {
    const limit = pageLimit(query.limit, PAGE_ROWS_MAX);
    const rows =
      query.role === undefined
        ? await this.all<UserRow>(
            `SELECT ${USER_COLUMNS} FROM users WHERE id > ? ORDER BY id LIMIT ?`,
            query.afterId ?? '',
            limit,
          )
        : await this.all<UserRow>(
            `SELECT ${USER_COLUMNS} FROM users WHERE role = ? AND id > ? ORDER BY id LIMIT ?`,
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
        : await this.one<{ n: number }>('SELECT count(*) AS n FROM users WHERE role = ?', role);
    return row!.n;
  }

  /** One autocommit statement on the writer, queued behind this process's transactions. */
  private write<R>(fn: (db: Database.Database) => R): Promise<R> {
    return this.writes.run(WRITER, () => {
      if (this.closed) throw new Error('store is closed');
      return Promise.resolve(fn(this.writer));
    });
  }

  // async, so that a malformed argument rejects rather than throws.
  async createSession(input: SessionInput): Promise<CreateSessionResult> {
    assertSessionInput(input);
    return this.write((db): CreateSessionResult => {
      // Sessions expired by now go with this login's commit (see Store.createSession).
      db.prepare('DELETE FROM sessions WHERE expires_at_ms <= ?').run(input.createdAtMs);
      // The SELECT makes the insert itself check the user; its WHERE keeps SQLite
      // from reading ON CONFLICT as a join constraint.
      const { changes } = db
        .prepare(
          `INSERT INTO sessions (token_hash, user_id, created_at_ms, expires_at_ms)
          SELECT ?, id, ?, ? FROM users WHERE id = ? AND disabled = 0 ON CONFLICT DO NOTHING`,
        )
        .run(input.tokenHash, input.createdAtMs, input.expiresAtMs, input.userId);
      if (changes === 1) return { status: 'created', session: newSession(input) };
      const user = db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).get(input.userId);
      return sessionRefusal(user === undefined ? undefined : toUser(user as UserRow));
    });
  }

  async findSession(
    tokenHash: string,
    nowMs: number,
  ): Promise<{ session: Session; user: User } | undefined> {
    assertTokenHash(tokenHash);
    assertInstant(nowMs, 'nowMs');
    const row = await this.one<SessionUserRow>(
      `SELECT ${SESSION_USER_COLUMNS} FROM sessions AS s JOIN users AS u ON u.id = s.user_id
      WHERE s.token_hash = ? AND s.expires_at_ms > ? AND u.disabled = 0`,
      tokenHash,
      nowMs,
    );
    return row === undefined ? undefined : toSessionAndUser(row);
  }

  async touchSession(tokenHash: string, nowMs: number, expiresAtMs?: number): Promise<boolean> {
    assertTokenHash(tokenHash);
    assertTouch(nowMs, expiresAtMs);
    return this.write(
      (db) =>
        db
          .prepare(
            `UPDATE sessions SET last_seen_at_ms = ?, expires_at_ms = coalesce(?, expires_at_ms)
            WHERE token_hash = ? AND expires_at_ms > ?`,
          )
          .run(nowMs, expiresAtMs ?? null, tokenHash, nowMs).changes === 1,
    );
  }

  async deleteSession(tokenHash: string): Promise<boolean> {
    assertTokenHash(tokenHash);
    return this.write(
      (db) => db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(tokenHash).changes === 1,
    );
  }

  async listUserSessions(userId: string, nowMs: number): Promise<Session[]> {
    assertInstant(nowMs, 'nowMs');
    return this.all<Session>(
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE user_id = ? AND expires_at_ms > ?
      ORDER BY created_at_ms DESC, token_hash`,
      userId,
      nowMs,
    );
  }

  async deleteUserSessions(userId: string): Promise<number> {
    return this.write(
      (db) => db.prepare('DELETE FROM sessions WHERE user_id = ?').run(userId).changes,
    );
  }

  async deleteExpiredSessions(nowMs: number): Promise<number> {
    assertInstant(nowMs, 'nowMs');
    return this.write(
      (db) => db.prepare('DELETE FROM sessions WHERE expires_at_ms <= ?').run(nowMs).changes,
    );
  }

  schemaVersions(): Promise<number[]> {
    return Promise.resolve(
      this.reader
        .prepare('SELECT version FROM schema_migrations ORDER BY version')
        .pluck()
        .all() as number[],
    );
  }

  async close(): Promise<void> {
    // Let queued transactions finish first, so none is cut off mid-way.
    await this.writes.run(WRITER, () => {
      this.closed = true;
      return Promise.resolve();
    });
    await this.checkpointer.close();
    await this.cluster.close();
    this.reader.close();
    this.writer.close();
  }
}
