/**
 * PostgreSQL's drivers: the TxDriver, the StoreDriver of the shared reads and
 * the MigrationDriver. The shared SQL's `?` placeholders become $1, $2…
 *
 * The TxDriver's every batch is one round trip: rows travel as
 * arrays and are unpacked by unnest(), balances change by one UPDATE … FROM
 * unnest() per batch. The hot statements are named, so each connection parses
 * and plans them once.
 *
 * Writes whose answer is known in advance (the journal's entries and the head's
 * move, idempotency records, the update of a table row this transaction
 * locked) are held back and sent as CTEs of the driver's next statement, or of
 * the last one, which goes out with COMMIT (`commit`): a table's batch writes
 * its entries, the head, its commands and its row, and commits, in one round
 * trip after it locks the journal head, which every commit of the floor waits
 * for. The head is then held for one answer's trip to this process and back,
 * not three (docs/ledger.md, "A batch's statements on PostgreSQL").
 *
 * The driver remembers the first failed query: if a callback swallows a
 * database error, the store still rolls back and can tell whether to retry.
 */
import type { ClientBase, PoolClient, QueryResultRow } from 'pg';
import type { ChainedEntry } from '../journal/index.js';
import type { Migration, MigrationDriver } from './migration.js';
import { encodeJournalNotice } from './journal-notice.js';
import { PG_MIGRATIONS } from './pg-schema.js';
import { ACCOUNT_COLUMNS, TABLE_COLUMNS, TRANSFER_COLUMNS, USER_COLUMNS } from './sql-columns.js';
import type { SqlDialect, StoreDriver } from './sql-store.js';
import type { TableLock } from './store.js';
import type { OptimisticPlan } from './transfer-plan.js';
import type {
  CommandRow,
  NewUserRow,
  OptimisticDriver,
  TableReadRow,
  TableRow,
  TxDriver,
} from './tx.js';
import type { Account, Transfer } from './types.js';
import type { SessionInput, UserRow } from './users.js';

const TABLE_LOCK_SQL: Record<TableLock, string> = {
  exclusive: 'FOR UPDATE',
  shared: 'FOR SHARE',
  none: '',
};

/** The columns of an INSERT … SELECT FROM unnest of transfers, $1–$7; one time stamps them all. */
function transferColumns(transfers: readonly Transfer[]): unknown[] {
  const n = transfers.length;
  const [ids, debits, credits, amounts, kinds, refs] = [
    new Array<string>(n),
    new Array<string>(n),
    new Array<string>(n),
    new Array<number>(n),
    new Array<string>(n),
    new Array<string>(n),
  ];
  for (let i = 0; i < n; i++) {
    const t = transfers[i]!;
    [ids[i], debits[i], credits[i], amounts[i], kinds[i], refs[i]] = [
      t.id,
      t.debitAccountId,
      t.creditAccountId,
      t.amountMinor,
      t.kind,
      t.reference,
    ];
  }
  return [ids, debits, credits, amounts, kinds, refs, transfers[0]!.createdAtMs];
}

/**
 * The plan's accounts sorted by id in byte order, the order in which the
 * careful path locks them (ORDER BY id COLLATE "C"). The UPDATE's plans here
 * (a hash join probed by the unnest, or a nested loop over it) take the row
 * locks in the unnest's order, so two batches meet in one order rather than
 * deadlocking; a plan that did not would cost a deadlock retry, never money.
 */
function inIdOrder(plan: OptimisticPlan): [string[], number[], number[], number[]] {
  const { accountIds, deltasMinor } = plan.deltas;
  const order = accountIds
    .map((_, i) => i)
    .sort((a, b) => byteOrder(accountIds[a]!, accountIds[b]!));
  return [
    order.map((i) => accountIds[i]!),
    order.map((i) => deltasMinor[i]!),
    order.map((i) => plan.minPrefixMinor[i]!),
    order.map((i) => plan.maxPrefixMinor[i]!),
  ];
}

/** Code unit order: byte order for the ASCII ids the service makes. */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The optimistic path found a batch it cannot write as it is: the store rolls
 * the transaction back and runs it again with the careful path only.
 */
export class OptimisticMiss extends Error {
  constructor() {
    super('a transfer batch missed the optimistic path; the transaction runs again carefully');
  }
}

/**
 * A write held back (see the file's comment): one or more data-modifying CTEs
 * whose parameters are numbered from `first`, and their values.
 */
interface HeldWrite {
  /** Short: it names the carrying statement with the others (PostgreSQL keeps 63 bytes of a name). */
  readonly name: string;
  /** The CTEs, named with `tag` so that two held writes of one kind do not clash. */
  readonly ctes: (first: number, tag: string) => string;
  readonly values: readonly unknown[];
  /**
   * An expression of the carrying SELECT that fails the statement, and so the
   * transaction, unless the write did what was foreseen.
   */
  readonly check?: (first: number, tag: string) => string;
}

export class PgTxDriver implements TxDriver, OptimisticDriver {
  firstError: unknown = undefined;
  readonly optimistic: OptimisticDriver | undefined;
  private held: HeldWrite[] = [];
  /** The tables this transaction locked FOR UPDATE, and their versions: no one else can move them. */
  private readonly locked = new Map<string, number>();

  /**
   * `channel`: where the journal's writes notify (PgCluster.channel). `careful`: postTransfers
   * reads every account and id under lock first (after an OptimisticMiss).
   */
  constructor(
    private readonly client: PoolClient,
    private readonly channel: string,
    careful = false,
  ) {
    this.optimistic = careful ? undefined : this;
  }

  /** A statement after the held writes (sent first, alone). */
  private async q<R extends QueryResultRow>(
    name: string | undefined,
    text: string,
    values: unknown[],
  ): Promise<R[]> {
    if (this.held.length > 0) await this.flush();
    return this.send<R>(name, text, values);
  }

  /**
   * The held writes as the CTEs of one SELECT of their checks; they are no
   * longer held. A statement's data-modifying CTEs all run to completion
   * whether or not it reads them, and none reads what another writes.
   */
  private heldStatement(): { name: string; text: string; values: unknown[] } | undefined {
    const held = this.held;
    if (held.length === 0) return undefined;
    this.held = [];
    const values: unknown[] = [];
    const ctes: string[] = [];
    const checks: string[] = [];
    held.forEach((h, i) => {
      const first = values.length + 1;
      ctes.push(h.ctes(first, String(i)));
      if (h.check !== undefined) checks.push(h.check(first, String(i)));
      values.push(...h.values);
    });
    return {
      name: ['cussec_flush', ...held.map((h) => h.name)].join('+'),
      text: `WITH ${ctes.join(',\n')}\nSELECT ${checks.length > 0 ? checks.join(', ') : '1'}`,
      values,
    };
  }

  /** Sends the held writes, if any. */
  private async flush(): Promise<void> {
    const statement = this.heldStatement();
    if (statement !== undefined) await this.send(statement.name, statement.text, statement.values);
  }

  /**
   * Sends the held writes and COMMIT together: the pool's clients pipeline
   * (pg-store.ts), so the two leave in one write and nothing here waits for an
   * answer in between. PostgreSQL runs COMMIT after a failed statement as
   * ROLLBACK (the transaction is aborted), so the writes commit all or none.
   */
  async commit(): Promise<void> {
    const statement = this.heldStatement();
    const [written, committed] = await Promise.allSettled([
      statement === undefined
        ? undefined
        : this.send(statement.name, statement.text, statement.values),
      this.client.query('COMMIT'),
    ]);
    if (written.status === 'rejected') throw written.reason;
    if (committed.status === 'rejected') throw committed.reason;
  }

  private async send<R extends QueryResultRow>(
    name: string | undefined,
    text: string,
    values: unknown[],
  ): Promise<R[]> {
    try {
      const result = await this.client.query<R>(
        name === undefined ? { text, values } : { name, text, values },
      );
      return result.rows;
    } catch (error) {
      this.firstError ??= error;
      throw error;
    }
  }

  selectAccounts(ids: readonly string[], lock: boolean): Promise<Account[]> {
    const sql = `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ANY($1::text[]) ORDER BY id COLLATE "C" ${lock ? 'FOR UPDATE' : ''}`;
    return this.q<Account>(lock ? 'cussec_lock_accounts' : 'cussec_accounts', sql, [ids]);
  }

  async insertAccounts(accounts: readonly Account[]): Promise<void> {
    await this.q(
      'cussec_insert_accounts',
      `INSERT INTO accounts (id, kind, balance_minor, created_at_ms)
      SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[])`,
      [
        accounts.map((a) => a.id),
        accounts.map((a) => a.kind),
        accounts.map((a) => a.balanceMinor),
        accounts.map((a) => a.createdAtMs),
      ],
    );
  }

  selectTransfers(ids: readonly string[]): Promise<Transfer[]> {
    return this.q<Transfer>(
      'cussec_transfers',
      `SELECT ${TRANSFER_COLUMNS} FROM transfers WHERE id = ANY($1::text[])`,
      [ids],
    );
  }

  async insertTransfers(transfers: readonly Transfer[]): Promise<void> {
    // One transaction stamps one time on all its transfers.
    await this.q(
      'cussec_insert_transfers',
      `INSERT INTO transfers (id, debit_account_id, credit_account_id, amount_minor, kind, reference, created_at_ms)
      SELECT u.*, $7::bigint FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[]) AS u`,
      transferColumns(transfers),
    );
  }

  /**
   * One statement writes the batch and checks it while writing: the INSERT
   * fails on an id already stored (the unique index; a racing insert of the
   * same id is waited for) and the UPDATE changes only the accounts that exist
   * and cover the batch's lowest running balance — its WHERE is evaluated on
   * the newest committed row once the UPDATE holds the lock, so no decision
   * rests on a stale balance. A stored id, or an UPDATE count short of the
   * batch's accounts, throws OptimisticMiss. No savepoint (two round trips
   * fewer a batch) and a plain INSERT (ON CONFLICT DO NOTHING made the
   * statement 22% slower on 2,100 transfers: 89 against 70 ms), for a rerun of
   * the transaction on the rare batch that misses (a replay, a wallet short of
   * money). The statement returns the count and the new balances of the
   * `wanted` accounts (row locks keep them until commit: no SELECT reads them
   * again, DriverTx.balances), and only those: parsing 2,000 rows of a round's
   * payouts nobody asks for cost 1.3–2 ms against 0.2 for the count alone.
   */
  async postIfClean(plan: OptimisticPlan, wanted: readonly string[]): Promise<Map<string, number>> {
    const { created } = plan;
    const accounts = inIdOrder(plan);
    let rows: { updated: number; id: string | null; balanceMinor: number | null }[] | undefined;
    try {
      rows = await this.q<{ updated: number; id: string | null; balanceMinor: number | null }>(
        'cussec_post_if_clean',
        `WITH inserted AS (
          INSERT INTO transfers (id, debit_account_id, credit_account_id, amount_minor, kind, reference, created_at_ms)
          SELECT u.*, $7::bigint FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[]) AS u),
        updated AS (
          UPDATE accounts AS a SET balance_minor = a.balance_minor + d.delta
          FROM unnest($8::text[], $9::bigint[], $10::bigint[], $11::bigint[]) AS d (id, delta, low, high)
          WHERE a.id = d.id AND (a.kind IN ('bankroll', 'cage') OR a.balance_minor + d.low >= 0)
            AND a.balance_minor + d.low >= -${Number.MAX_SAFE_INTEGER}
            AND a.balance_minor + d.high <= ${Number.MAX_SAFE_INTEGER}
          RETURNING a.id, a.balance_minor)
        SELECT c.updated, u.id, u.balance_minor AS "balanceMinor"
        FROM (SELECT count(*) AS updated FROM updated) AS c
        LEFT JOIN updated AS u ON u.id = ANY($12::text[])`,
        [...transferColumns(created), ...accounts, wanted],
      );
    } catch (error) {
      const e = error as { code?: unknown; constraint?: unknown };
      if (e.code !== '23505' || e.constraint !== 'transfers_id_unique') throw error;
    }
    if (rows !== undefined && rows[0]!.updated === accounts[0].length) {
      const balances = new Map<string, number>();
      for (const r of rows) if (r.id !== null) balances.set(r.id, r.balanceMinor!);
      return balances;
    }
    // Part of the batch may be written, or the statement failed: only rolling the
    // transaction back undoes it. The store does so whatever the callback makes of
    // this error (it replaces the unique violation: a retry must not be optimistic
    // again), and runs the transaction again carefully.
    const miss = new OptimisticMiss();
    this.firstError = miss;
    throw miss;
  }

  async addToBalances(
    accountIds: readonly string[],
    deltasMinor: readonly number[],
  ): Promise<void> {
    if (accountIds.length === 0) return;
    await this.q(
      'cussec_add_to_balances',
      `UPDATE accounts AS a SET balance_minor = a.balance_minor + d.delta
      FROM unnest($1::text[], $2::bigint[]) AS d (id, delta) WHERE a.id = d.id`,
      [accountIds, deltasMinor],
    );
  }

  async selectTable(id: string, lock: TableLock): Promise<TableReadRow | undefined> {
    const rows = await this.q<TableReadRow>(
      undefined,
      `SELECT ${TABLE_COLUMNS} FROM tables WHERE id = $1 ${TABLE_LOCK_SQL[lock]}`,
      [id],
    );
    if (lock === 'exclusive' && rows[0] !== undefined) this.locked.set(id, rows[0].version);
    return rows[0];
  }

  async insertTable(r: TableRow): Promise<boolean> {
    const rows = await this.q(
      undefined,
      `INSERT INTO tables (id, config_json, state_json, version, updated_at_ms)
      VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [r.id, r.configJson, r.stateJson, r.version, r.updatedAtMs],
    );
    return rows.length === 1;
  }

  /**
   * Held (see the file's comment) when this transaction locked the row at
   * `expectedVersion`: the update cannot miss, and its check fails the
   * transaction if it ever did. Otherwise it is sent now, and says whether it hit.
   */
  async updateTable(
    id: string,
    expectedVersion: number,
    stateJson: string,
    configJson: string | undefined,
    nowMs: number,
  ): Promise<number | undefined> {
    const values = [stateJson, configJson ?? null, nowMs, id, expectedVersion];
    const update = (n: number): string => `UPDATE tables SET state_json = $${n},
      config_json = COALESCE($${n + 1}, config_json), version = version + 1, updated_at_ms = $${n + 2}
      WHERE id = $${n + 3} AND version = $${n + 4}`;
    if (this.locked.get(id) === expectedVersion) {
      this.locked.set(id, expectedVersion + 1);
      this.held.push({
        name: 't',
        ctes: (n, tag) => `table_${tag} AS (${update(n)} RETURNING version)`,
        values,
        // A cast that fails, naming the table, were the row not updated.
        check: (n, tag) =>
          `(SELECT CASE count(*) WHEN 1 THEN '1' ELSE 'held update of table ' || $${n + 3}::text || ' missed' END::int FROM table_${tag})`,
      });
      return expectedVersion + 1;
    }
    const rows = await this.q<{ version: number }>(
      'cussec_update_table',
      `${update(1)} RETURNING version`,
      values,
    );
    return rows[0]?.version;
  }

  async updateTableLease(id: string, holder: string | null): Promise<number | undefined> {
    const rows = await this.q<{ epoch: number }>(
      'cussec_take_table_lease',
      'UPDATE tables SET lease_epoch = lease_epoch + 1, lease_holder = $2 WHERE id = $1 RETURNING lease_epoch AS epoch',
      [id, holder],
    );
    return rows[0]?.epoch;
  }

  async selectTableVersion(id: string, lock: TableLock): Promise<number | undefined> {
    // The state_json column is not selected, so PostgreSQL never detoasts it.
    const rows = await this.q<{ version: number }>(
      `cussec_table_version_${lock}`,
      `SELECT version FROM tables WHERE id = $1 ${TABLE_LOCK_SQL[lock]}`,
      [id],
    );
    if (lock === 'exclusive' && rows[0] !== undefined) this.locked.set(id, rows[0].version);
    return rows[0]?.version;
  }

  async selectUser(id: string): Promise<UserRow | undefined> {
    const rows = await this.q<UserRow>(
      'cussec_user',
      `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  async insertUser(u: NewUserRow): Promise<boolean> {
    // DO NOTHING on either unique constraint (id or username_key); a racing
    // insert of the same key is waited for, so the loser sees the winner's row.
    const rows = await this.q(
      undefined,
      `INSERT INTO users (id, username, username_key, display_name, role, password_hash, created_at_ms,
      must_change_password)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING id`,
      [
        u.id,
        u.username,
        u.usernameKey,
        u.displayName,
        u.role,
        u.passwordHash,
        u.createdAtMs,
        u.mustChangePassword,
      ],
    );
    return rows.length === 1;
  }

  async updateUserPassword(
    id: string,
    passwordHash: string,
    mustChange: boolean,
  ): Promise<boolean> {
    const rows = await this.q(
      undefined,
      'UPDATE users SET password_hash = $1, must_change_password = $2 WHERE id = $3 RETURNING id',
      [passwordHash, mustChange, id],
    );
    return rows.length === 1;
  }

  async updateUserDisabled(id: string, disabled: boolean): Promise<boolean> {
    const rows = await this.q(
      undefined,
      'UPDATE users SET disabled = $1 WHERE id = $2 RETURNING id',
      [disabled, id],
    );
    return rows.length === 1;
  }

  async deleteSessionsOfUser(userId: string): Promise<number> {
    const rows = await this.q(
      undefined,
      'DELETE FROM sessions WHERE user_id = $1 RETURNING token_hash',
      [userId],
    );
    return rows.length;
  }

  selectCommands(keys: readonly string[]): Promise<CommandRow[]> {
    return this.q<CommandRow>(
      'cussec_commands',
      'SELECT key, request_hash AS "requestHash", response_json AS "responseJson" FROM commands WHERE key = ANY($1::text[])',
      [keys],
    );
  }

  /** Held (see the file's comment): a key stored twice fails the statement that carries it. */
  insertCommands(rows: readonly CommandRow[], nowMs: number): Promise<void> {
    this.held.push({
      name: 'c',
      ctes: (n, tag) => `commands_${tag} AS (
        INSERT INTO commands (key, request_hash, response_json, created_at_ms)
        SELECT u.*, $${n + 3}::bigint FROM unnest($${n}::text[], $${n + 1}::text[], $${n + 2}::text[]) AS u)`,
      values: [
        rows.map((r) => r.key),
        rows.map((r) => r.requestHash),
        rows.map((r) => r.responseJson),
        nowMs,
      ],
    });
    return Promise.resolve();
  }

  async lockJournalHead(): Promise<{ lastSeq: number; lastHash: string }> {
    const rows = await this.q<{ lastSeq: number; lastHash: string }>(
      'cussec_lock_head',
      `SELECT last_seq AS "lastSeq", last_hash AS "lastHash" FROM journal_head WHERE chain = 'global' FOR UPDATE`,
      [],
    );
    return rows[0]!;
  }

  /**
   * Held (see the file's comment): the entries and the head's move, as one
   * statement's CTEs. The head's trigger checks the seq at once and, deferred to
   * COMMIT, that the head is on an entry that exists (migration 11): a sibling
   * CTE's rows are not visible to a BEFORE trigger.
   */
  all<R>(sql: string, params: readonly unknown[]): Promise<R[]> {
    return this.q<R & QueryResultRow>(undefined, numbered(sql), [...params]);
  }

  async run(sql: string, params: readonly unknown[]): Promise<number> {
    if (this.held.length > 0) await this.flush();
    try {
      return (await this.client.query(numbered(sql), [...params])).rowCount ?? 0;
    } catch (error) {
      this.firstError ??= error;
      throw error;
    }
  }

  insertJournal(entries: readonly ChainedEntry[]): Promise<void> {
    const col = <K extends keyof ChainedEntry['entry']>(k: K): ChainedEntry['entry'][K][] =>
      entries.map((c) => c.entry[k]);
    const last = entries[entries.length - 1]!.entry;
    // The hash travels as hex and is stored as its 32 bytes; prevHash is the previous entry's hash and is not stored.
    // The head's move also sends every node's listener the entries, delivered when (and
    // only if) the transaction commits, in commit order (journal-notice.ts): RETURNING
    // runs once, for the head's one row, and a data-modifying CTE always runs to its end.
    this.held.push({
      name: 'j',
      ctes: (n, tag) => `journal_${tag} AS (
        INSERT INTO journal (seq, table_id, type, payload_json, at_ms, hash)
        SELECT u.seq, u.table_id, u.type, u.payload_json, u.at_ms, decode(u.hash, 'hex')
        FROM unnest($${n}::bigint[], $${n + 1}::text[], $${n + 2}::text[], $${n + 3}::text[], $${n + 4}::bigint[], $${n + 5}::text[])
          AS u (seq, table_id, type, payload_json, at_ms, hash)),
      head_${tag} AS (
        UPDATE journal_head SET last_seq = $${n + 6}, last_hash = $${n + 7} WHERE chain = 'global'
        RETURNING pg_notify($${n + 8}, $${n + 9}))`,
      values: [
        col('seq'),
        col('tableId'),
        col('type'),
        entries.map((c) => c.storedPayload),
        col('atMs'),
        col('hash'),
        last.seq,
        last.hash,
        this.channel,
        encodeJournalNotice(entries),
      ],
    });
    return Promise.resolve();
  }
}

const numberedByText = new Map<string, string>();

/**
 * The shared SQL's `?` placeholders as PostgreSQL's $1, $2… (that SQL holds no
 * other question mark). Each text is numbered once.
 */
export function numbered(sql: string): string {
  let text = numberedByText.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    numberedByText.set(sql, text);
  }
  return text;
}

const PG_DIALECT: SqlDialect = {
  inList: '= ANY(?::text[])',
  inListParam: (values) => values,
  // Byte order, as SQLite sorts, whatever the database's collation.
  byteOrder: ' COLLATE "C"',
  indexedBy: () => '',
  jsonText: (column, key) => `((${column}::jsonb) ->> '${key}')`,
};

/** Runs `fn` on a connection of the pool, under the store's deadline. */
export type WithConnection = <T>(fn: (client: PoolClient) => Promise<T>) => Promise<T>;

/** The StoreDriver of PostgreSQL: each statement autocommits on a pooled connection. */
export class PgStoreDriver implements StoreDriver {
  readonly dialect = PG_DIALECT;

  constructor(private readonly withConnection: WithConnection) {}

  async all<R>(sql: string, params: readonly unknown[]): Promise<R[]> {
    const result = await this.withConnection((client) =>
      client.query<R & QueryResultRow>(numbered(sql), [...params]),
    );
    return result.rows;
  }

  async run(sql: string, params: readonly unknown[]): Promise<number> {
    const result = await this.withConnection((client) => client.query(numbered(sql), [...params]));
    return result.rowCount ?? 0;
  }

  async insertSession(input: SessionInput): Promise<boolean> {
    // One autocommit statement, which also sweeps the sessions expired by now.
    const inserted = await this.run(
      `WITH swept AS (DELETE FROM sessions WHERE expires_at_ms <= ?)
      INSERT INTO sessions (token_hash, user_id, created_at_ms, expires_at_ms, user_agent, address)
      SELECT ?, id, ?, ?, ?, ? FROM users WHERE id = ? AND NOT disabled
      ON CONFLICT DO NOTHING`,
      [
        input.createdAtMs,
        input.tokenHash,
        input.createdAtMs,
        input.expiresAtMs,
        input.userAgent ?? null,
        input.address ?? null,
        input.userId,
      ],
    );
    return inserted === 1;
  }
}

/**
 * Migrations on PostgreSQL run under a session advisory lock, so two processes
 * opening the same database at once take turns: the second finds the work
 * done. Each step is its own transaction (PostgreSQL DDL is transactional), so
 * a failed one leaves nothing half-applied.
 */
export function pgMigrationDriver(
  client: ClientBase,
  schema: string | undefined,
  migrations: readonly Migration[] = PG_MIGRATIONS,
): MigrationDriver {
  // One lock per schema: hashtext() maps the name to the lock's integer key.
  const lockName = `cussec-migrate:${schema ?? 'public'}`;
  return {
    migrations,
    createVersionsTableSql: `CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms BIGINT NOT NULL)`,
    async exclusive(fn) {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [lockName]);
      try {
        if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
        await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lockName]);
      }
    },
    async atomic(fn) {
      await client.query('BEGIN');
      try {
        await fn();
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    exec: async (sql) => void (await client.query(sql)),
    all: async <R>(sql: string, params: readonly unknown[]) =>
      (await client.query<R & QueryResultRow>(numbered(sql), [...params])).rows,
    run: async (sql, params) => void (await client.query(numbered(sql), [...params])),
  };
}
