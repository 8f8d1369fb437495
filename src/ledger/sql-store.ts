/**
 * What both Stores share: every read outside a transaction, the read models,
 * the idempotency sweep and the login sessions, written once over a small
 * driver (StoreDriver). The SQL here is the same on SQLite and PostgreSQL; its
 * placeholders are `?` (the PostgreSQL driver numbers them), and the few
 * phrases the engines spell differently come from the driver's SqlDialect.
 * Each engine's store adds only how it opens, runs a transaction and closes.
 */
import type { JournalEntry } from '../journal/index.js';
import { BatchedReads } from './batched-reads.js';
import { Registers } from './registers.js';
import type { Cluster } from './cluster.js';
import {
  ACCOUNT_COLUMNS,
  JOURNAL_COLUMNS,
  type JournalRow,
  pageLimit,
  SESSION_COLUMNS,
  SESSION_USER_COLUMNS,
  TABLE_COLUMNS,
  toJournalEntry,
  TRANSFER_COLUMNS,
  USER_COLUMNS,
  USER_SECRET_COLUMNS,
} from './sql-columns.js';
import {
  type AccountMove,
  type ConnectionStats,
  DATABASE_KINDS,
  type DatabaseKind,
  type Engine,
  type IndexedJournalQuery,
  indexedTypesSql,
  STAFF_ACTIONS_SQL,
  PAGE_ROWS_MAX,
  type ReadModel,
  type Store,
  type StoreLocation,
  type TableRecord,
  type TransactionOptions,
  type Tx,
} from './store.js';
import { type TableReadRow, toTableRecord } from './tx.js';
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

/** The phrases of the shared SQL that each engine spells its own way. */
export interface SqlDialect {
  /**
   * `column <this> ` matches any of a list of strings bound as one parameter
   * (`param(values)`): one statement and one plan, whatever the list's length.
   */
  readonly inList: string;
  readonly inListParam: (values: readonly string[]) => unknown;
  /** After a text column, compares it in byte order (SQLite's own order) whatever the collation. */
  readonly byteOrder: string;
  /** Names the index a query must use, where the planner would not find it alone ('' when it does). */
  readonly indexedBy: (index: string) => string;
  /** A text field of a JSON text column, as the expression indexes over it write it. */
  readonly jsonText: (column: string, key: string) => string;
}

/** How the shared store reaches its engine outside transactions. */
export interface StoreDriver {
  readonly dialect: SqlDialect;
  /** Rows of one read, committed data only. Placeholders are `?`. */
  all<R>(sql: string, params: readonly unknown[]): Promise<R[]>;
  /** One autocommit write statement; how many rows it changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
  /**
   * Inserts the session if its user exists and is enabled, deleting the
   * sessions expired at its createdAtMs with it; whether it was inserted.
   */
  insertSession(session: SessionInput): Promise<boolean>;
}

type SeqTransfer = Transfer & { readonly seq: number };

export abstract class SqlStore implements Store {
  abstract readonly engine: Engine;
  abstract readonly location: StoreLocation;
  abstract readonly currency: Currency;
  abstract readonly cluster: Cluster;

  abstract transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  abstract connections(): ConnectionStats;
  abstract close(): Promise<void>;

  /** Set by each engine's constructor. */
  protected abstract readonly sql: StoreDriver;

  protected constructor(protected readonly clock: () => number) {}

  /** Built on first use: the engine's constructor sets `sql` after this one runs. */
  private registersOnce: Registers | undefined;
  get registers(): Registers {
    this.registersOnce ??= new Registers(this.sql);
    return this.registersOnce;
  }

  private all<R>(sql: string, ...params: unknown[]): Promise<R[]> {
    return this.sql.all<R>(sql, params);
  }

  private async one<R>(sql: string, ...params: unknown[]): Promise<R | undefined> {
    return (await this.all<R>(sql, ...params))[0];
  }

  getAccount(id: string): Promise<Account | undefined> {
    return this.one<Account>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ?`, id);
  }

  listAccounts(query: { afterId?: string; limit?: number } = {}): Promise<Account[]> {
    const id = `id${this.sql.dialect.byteOrder}`;
    const sql = `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE ${id} > ? ORDER BY ${id} LIMIT ?`;
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
    const row = await this.one<TableReadRow>(
      `SELECT ${TABLE_COLUMNS} FROM tables WHERE id = ?`,
      id,
    );
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
    const params: unknown[] = [];
    let table = 'table_id IS NULL';
    if (query.tableId !== null) {
      table = 'table_id = ?';
      params.push(query.tableId);
    }
    params.push(
      query.afterSeq ?? 0,
      query.beforeSeq ?? Number.MAX_SAFE_INTEGER,
      pageLimit(query.limit, PAGE_ROWS_MAX),
    );
    const rows = await this.all<JournalRow>(
      `SELECT ${JOURNAL_COLUMNS} FROM journal ${this.sql.dialect.indexedBy('journal_by_table_type')}
        WHERE ${table} AND ${indexedTypesSql(query.types)} AND seq > ? AND seq < ?
        ORDER BY seq ${order} LIMIT ?`,
      ...params,
    );
    return rows.map(toJournalEntry);
  }

  async readStaffActions(query: { beforeSeq?: number; limit: number }): Promise<JournalEntry[]> {
    const rows = await this.all<JournalRow>(
      `SELECT ${JOURNAL_COLUMNS} FROM journal ${this.sql.dialect.indexedBy('journal_staff_actions')}
        WHERE ${STAFF_ACTIONS_SQL} AND seq < ? ORDER BY seq DESC LIMIT ?`,
      query.beforeSeq ?? Number.MAX_SAFE_INTEGER,
      pageLimit(query.limit, PAGE_ROWS_MAX),
    );
    return rows.map(toJournalEntry);
  }

  async readNewestFloorSettings(): Promise<JournalEntry | undefined> {
    const row = await this.one<JournalRow>(
      `SELECT ${JOURNAL_COLUMNS} FROM journal ${this.sql.dialect.indexedBy('journal_floor_settings')}
        WHERE type = 'floor-settings-changed' ORDER BY seq DESC LIMIT 1`,
    );
    return row === undefined ? undefined : toJournalEntry(row);
  }

  async readCageMoves(query: {
    playerId: string;
    beforeSeq?: number;
    limit: number;
  }): Promise<JournalEntry[]> {
    // The index's own expression and condition, word for word: SQLite uses a partial index only then.
    const rows = await this.all<JournalRow>(
      `SELECT ${JOURNAL_COLUMNS} FROM journal ${this.sql.dialect.indexedBy('journal_cage_by_player')}
        WHERE type IN ('deposit', 'withdrawal') AND ${this.sql.dialect.jsonText('payload_json', 'playerId')} = ?
          AND seq < ? ORDER BY seq DESC LIMIT ?`,
      query.playerId,
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
      `SELECT ${JOURNAL_COLUMNS} FROM journal ${this.sql.dialect.indexedBy('journal_settled_by_time')}
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
    const { inList, inListParam } = this.sql.dialect;
    const refs = inListParam(references);
    const ids = inListParam(accountIds);
    return this.all<AccountMove>(
      `WITH start AS (SELECT min(seq) AS seq FROM transfers WHERE reference ${inList}),
        moves AS (
          SELECT t.seq, t.reference, t.credit_account_id AS account_id, t.amount_minor AS delta
            FROM transfers t WHERE t.seq >= (SELECT seq FROM start) AND t.credit_account_id ${inList}
          UNION ALL
          SELECT t.seq, t.reference, t.debit_account_id, -t.amount_minor
            FROM transfers t WHERE t.seq >= (SELECT seq FROM start) AND t.debit_account_id ${inList}),
        balanced AS (
          SELECT m.seq, m.account_id, m.reference, m.delta, a.balance_minor - coalesce(sum(m.delta) OVER (
              PARTITION BY m.account_id ORDER BY m.seq DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS after
            FROM moves m JOIN accounts a ON a.id = m.account_id)
      SELECT seq, account_id AS "accountId", reference, delta AS "deltaMinor",
          CAST(after AS BIGINT) AS "balanceAfterMinor"
        FROM balanced WHERE reference ${inList} ORDER BY seq`,
      refs,
      ids,
      ids,
      refs,
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
    await this.sql.run(
      `INSERT INTO read_models (name, seq, value_json, updated_at_ms) VALUES (?, ?, ?, ?)
        ON CONFLICT (name) DO UPDATE SET seq = excluded.seq, value_json = excluded.value_json,
          updated_at_ms = excluded.updated_at_ms WHERE excluded.seq > read_models.seq`,
      [name, model.seq, JSON.stringify(model.value), this.clock()],
    );
  }

  async sweepCommands(beforeMs: number, limit: number): Promise<number> {
    assertInstant(beforeMs, 'beforeMs');
    return this.sql.run(
      `DELETE FROM commands WHERE key IN
        (SELECT key FROM commands WHERE created_at_ms < ? ORDER BY created_at_ms LIMIT ?)`,
      [beforeMs, pageLimit(limit, PAGE_ROWS_MAX)],
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
    // users.id is byte-ordered on both engines (COLLATE "C" on PostgreSQL).
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

  // async, so that a malformed argument rejects rather than throws.
  async createSession(input: SessionInput): Promise<CreateSessionResult> {
    assertSessionInput(input);
    if (await this.sql.insertSession(input))
      return { status: 'created', session: newSession(input) };
    return sessionRefusal(await this.getUser(input.userId));
  }

  async findSession(
    tokenHash: string,
    nowMs: number,
  ): Promise<{ session: Session; user: User } | undefined> {
    assertTokenHash(tokenHash);
    assertInstant(nowMs, 'nowMs');
    const row = await this.sessionReads.get(tokenHash);
    return row === undefined || row.expiresAtMs <= nowMs ? undefined : toSessionAndUser(row);
  }

  /** Every request reads its session: the reads waiting at once go in one statement. */
  private readonly sessionReads = new BatchedReads<SessionUserRow>(async (hashes) => {
    const { inList, inListParam } = this.sql.dialect;
    const rows = await this.all<SessionUserRow>(
      `SELECT ${SESSION_USER_COLUMNS} FROM sessions AS s JOIN users AS u ON u.id = s.user_id
      WHERE s.token_hash ${inList} AND NOT u.disabled`,
      inListParam(hashes),
    );
    return new Map(rows.map((row) => [row.tokenHash, row]));
  });

  async touchSession(tokenHash: string, nowMs: number, expiresAtMs?: number): Promise<boolean> {
    assertTokenHash(tokenHash);
    assertTouch(nowMs, expiresAtMs);
    const changed = await this.sql.run(
      `UPDATE sessions SET last_seen_at_ms = ?, expires_at_ms = coalesce(CAST(? AS BIGINT), expires_at_ms)
      WHERE token_hash = ? AND expires_at_ms > ?`,
      [nowMs, expiresAtMs ?? null, tokenHash, nowMs],
    );
    return changed === 1;
  }

  async deleteSession(tokenHash: string): Promise<boolean> {
    assertTokenHash(tokenHash);
    return (await this.sql.run('DELETE FROM sessions WHERE token_hash = ?', [tokenHash])) === 1;
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

  deleteUserSessions(userId: string): Promise<number> {
    return this.sql.run('DELETE FROM sessions WHERE user_id = ?', [userId]);
  }

  async deleteExpiredSessions(nowMs: number): Promise<number> {
    assertInstant(nowMs, 'nowMs');
    return this.sql.run('DELETE FROM sessions WHERE expires_at_ms <= ?', [nowMs]);
  }

  async databaseKind(): Promise<DatabaseKind | undefined> {
    const row = await this.one<{ value: string }>(
      "SELECT value FROM meta WHERE key = 'database_kind'",
    );
    if (row === undefined) return undefined;
    if (!(DATABASE_KINDS as readonly string[]).includes(row.value))
      throw new Error(`meta database_kind is "${row.value}", not a kind this release knows`);
    return row.value as DatabaseKind;
  }

  async recordDatabaseKind(kind: DatabaseKind): Promise<DatabaseKind> {
    // meta refuses UPDATE and DELETE (migration 1): the first kind recorded is the kind for good.
    await this.sql.run(
      "INSERT INTO meta (key, value) VALUES ('database_kind', ?) ON CONFLICT (key) DO NOTHING",
      [kind],
    );
    return (await this.databaseKind())!;
  }

  async schemaVersions(): Promise<number[]> {
    const rows = await this.all<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    return rows.map((r) => r.version);
  }
}
