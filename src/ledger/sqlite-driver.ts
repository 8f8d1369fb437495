/**
 * SQLite's drivers: the TxDriver (prepared statements on the writer
 * connection; each statement runs in-process, so a loop of single-row
 * statements costs about what one multi-row statement would), the StoreDriver
 * of the shared reads and the MigrationDriver. better-sqlite3 is synchronous:
 * each answer is wrapped in a settled promise.
 */
import type Database from 'better-sqlite3';
import type { ChainedEntry } from '../journal/index.js';
import type { Migration, MigrationDriver } from './migration.js';
import { ACCOUNT_COLUMNS, TABLE_COLUMNS, TRANSFER_COLUMNS, USER_COLUMNS } from './sql-columns.js';
import type { SqlDialect, StoreDriver } from './sql-store.js';
import { SQLITE_MIGRATIONS } from './sqlite-schema.js';
import type {
  CommandRow,
  NewUserRow,
  OptimisticDriver,
  TableReadRow,
  TableRow,
  TxDriver,
} from './tx.js';
import type { OptimisticPlan } from './transfer-plan.js';
import type { Account, Transfer } from './types.js';
import type { SessionInput, UserRow } from './users.js';

type Statement = Database.Statement<unknown[], unknown>;

/**
 * Rows per multi-row INSERT. A chunked insert of 10,000 transfers took 20 ms
 * where single-row statements took 31 ms (fewer statement steps and fewer
 * crossings into native code); 256 × 7 parameters stay far below SQLite's
 * limit of 32,766.
 */
const INSERT_CHUNK_ROWS = 256;

const values = (columns: number, rows: number): string =>
  Array<string>(rows)
    .fill(`(${Array<string>(columns).fill('?').join(', ')})`)
    .join(', ');

const TRANSFER_INSERT =
  'INSERT INTO transfers (id, debit_account_id, credit_account_id, amount_minor, kind, reference, created_at_ms) VALUES ';
const COMMAND_INSERT =
  'INSERT INTO commands (key, request_hash, response_json, created_at_ms) VALUES ';
const JOURNAL_INSERT =
  'INSERT INTO journal (seq, table_id, type, payload_json, at_ms, hash) VALUES ';

/** Inserts rows through the chunked statement, then the single-row one for the rest. */
function insertChunked<R>(
  many: Statement,
  one: Statement,
  rows: readonly R[],
  params: (row: R, out: unknown[]) => void,
): void {
  const buffer: unknown[] = [];
  let i = 0;
  for (; i + INSERT_CHUNK_ROWS <= rows.length; i += INSERT_CHUNK_ROWS) {
    buffer.length = 0;
    for (let j = i; j < i + INSERT_CHUNK_ROWS; j++) params(rows[j]!, buffer);
    many.run(buffer);
  }
  for (; i < rows.length; i++) {
    buffer.length = 0;
    params(rows[i]!, buffer);
    one.run(buffer);
  }
}

const transferParams = (t: Transfer, out: unknown[]): void => {
  out.push(
    t.id,
    t.debitAccountId,
    t.creditAccountId,
    t.amountMinor,
    t.kind,
    t.reference,
    t.createdAtMs,
  );
};

const journalParams = ({ entry: e, storedPayload }: ChainedEntry, out: unknown[]): void => {
  // The hash as its 32 bytes; prevHash is the previous entry's hash and is not stored.
  out.push(e.seq, e.tableId, e.type, storedPayload, e.atMs, Buffer.from(e.hash, 'hex'));
};

function prepareStatements(db: Database.Database) {
  const p = (sql: string): Statement => db.prepare(sql);
  return {
    // One statement for a whole batch of ids: json_each unpacks a JSON array inside SQLite.
    accounts: p(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id IN (SELECT value FROM json_each(?))`,
    ),
    insertAccount: p(
      'INSERT INTO accounts (id, kind, balance_minor, created_at_ms) VALUES (?, ?, ?, ?)',
    ),
    transfers: p(
      `SELECT ${TRANSFER_COLUMNS} FROM transfers WHERE id IN (SELECT value FROM json_each(?))`,
    ),
    insertTransfer: p(TRANSFER_INSERT + values(7, 1)),
    insertTransfers: p(TRANSFER_INSERT + values(7, INSERT_CHUNK_ROWS)),
    addToBalance: p('UPDATE accounts SET balance_minor = balance_minor + ? WHERE id = ?'),
    // The optimistic path's preconditions, checked by the update itself (see planOptimistic).
    // Parameters: delta, id, minPrefix, minPrefix, maxPrefix.
    // Returns the new balance, or no row when the account is missing or not covered.
    addToBalanceIfCovered: p(`UPDATE accounts SET balance_minor = balance_minor + ?
      WHERE id = ? AND (kind IN ('bankroll', 'cage') OR balance_minor + ? >= 0)
        AND balance_minor + ? >= -${Number.MAX_SAFE_INTEGER} AND balance_minor + ? <= ${Number.MAX_SAFE_INTEGER}
      RETURNING balance_minor`).pluck(),
    table: p(`SELECT ${TABLE_COLUMNS} FROM tables WHERE id = ?`),
    insertTable:
      p(`INSERT INTO tables (id, config_json, state_json, version, updated_at_ms) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (id) DO NOTHING`),
    updateTable:
      p(`UPDATE tables SET state_json = ?, config_json = COALESCE(?, config_json), version = version + 1,
      updated_at_ms = ? WHERE id = ? AND version = ? RETURNING version`),
    tableVersion: p('SELECT version FROM tables WHERE id = ?').pluck(),
    takeTableLease: p(
      'UPDATE tables SET lease_epoch = lease_epoch + 1, lease_holder = ? WHERE id = ? RETURNING lease_epoch',
    ).pluck(),
    user: p(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`),
    // DO NOTHING on either unique constraint (id or username_key).
    insertUser: p(`INSERT INTO users
      (id, username, username_key, display_name, role, password_hash, created_at_ms, disabled,
      must_change_password)
      VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?) ON CONFLICT DO NOTHING`),
    setUserPassword: p('UPDATE users SET password_hash = ?, must_change_password = ? WHERE id = ?'),
    setUserDisabled: p('UPDATE users SET disabled = ? WHERE id = ?'),
    deleteSessionsOfUser: p('DELETE FROM sessions WHERE user_id = ?'),
    commands: p(
      'SELECT key, request_hash AS "requestHash", response_json AS "responseJson" FROM commands WHERE key IN (SELECT value FROM json_each(?))',
    ),
    insertCommand: p(COMMAND_INSERT + values(4, 1)),
    insertCommands: p(COMMAND_INSERT + values(4, INSERT_CHUNK_ROWS)),
    head: p(
      `SELECT last_seq AS "lastSeq", last_hash AS "lastHash" FROM journal_head WHERE chain = 'global'`,
    ),
    insertJournalEntry: p(JOURNAL_INSERT + values(6, 1)),
    insertJournalEntries: p(JOURNAL_INSERT + values(6, INSERT_CHUNK_ROWS)),
    moveHead: p(`UPDATE journal_head SET last_seq = ?, last_hash = ? WHERE chain = 'global'`),
  };
}

export class SqliteTxDriver implements TxDriver, OptimisticDriver {
  private readonly s: ReturnType<typeof prepareStatements>;
  readonly optimistic: OptimisticDriver = this;

  constructor(private readonly db: Database.Database) {
    this.s = prepareStatements(db);
  }

  /** Returns every balance it wrote: each comes back with its own UPDATE anyway. */
  postIfClean(plan: OptimisticPlan): Promise<Map<string, number> | undefined> {
    this.db.exec('SAVEPOINT cussec_post');
    const balances = this.addToBalancesIfCovered(plan);
    const clean = balances !== undefined && this.insertTransfersIfNew(plan.created);
    this.db.exec(clean ? 'RELEASE cussec_post' : 'ROLLBACK TO cussec_post; RELEASE cussec_post');
    return Promise.resolve(clean ? balances : undefined);
  }

  /** The new balances, or undefined as soon as one account is missing or not covered (the caller rolls back). */
  private addToBalancesIfCovered(plan: OptimisticPlan): Map<string, number> | undefined {
    const update = this.s.addToBalanceIfCovered;
    const { accountIds, deltasMinor } = plan.deltas;
    const balances = new Map<string, number>();
    for (let i = 0; i < accountIds.length; i++) {
      const min = plan.minPrefixMinor[i];
      const balance = update.get(
        deltasMinor[i],
        accountIds[i],
        min,
        min,
        plan.maxPrefixMinor[i],
      ) as number | undefined;
      if (balance === undefined) return undefined;
      balances.set(accountIds[i]!, balance);
    }
    return balances;
  }

  private insertTransfersIfNew(transfers: readonly Transfer[]): boolean {
    try {
      this.insertTransfersNow(transfers);
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
      throw error;
    }
  }

  selectAccounts(ids: readonly string[]): Promise<Account[]> {
    return Promise.resolve(this.s.accounts.all(JSON.stringify(ids)) as Account[]);
  }

  insertAccounts(accounts: readonly Account[]): Promise<void> {
    for (const a of accounts) this.s.insertAccount.run(a.id, a.kind, a.balanceMinor, a.createdAtMs);
    return Promise.resolve();
  }

  selectTransfers(ids: readonly string[]): Promise<Transfer[]> {
    return Promise.resolve(this.s.transfers.all(JSON.stringify(ids)) as Transfer[]);
  }

  insertTransfers(transfers: readonly Transfer[]): Promise<void> {
    this.insertTransfersNow(transfers);
    return Promise.resolve();
  }

  private insertTransfersNow(transfers: readonly Transfer[]): void {
    insertChunked(this.s.insertTransfers, this.s.insertTransfer, transfers, transferParams);
  }

  addToBalances(accountIds: readonly string[], deltasMinor: readonly number[]): Promise<void> {
    for (let i = 0; i < accountIds.length; i++)
      this.s.addToBalance.run(deltasMinor[i], accountIds[i]);
    return Promise.resolve();
  }

  // No lock argument: SQLite has no row locks, and BEGIN IMMEDIATE already holds the write lock.
  selectTable(id: string): Promise<TableReadRow | undefined> {
    return Promise.resolve(this.s.table.get(id) as TableReadRow | undefined);
  }

  insertTable(r: TableRow): Promise<boolean> {
    return Promise.resolve(
      this.s.insertTable.run(r.id, r.configJson, r.stateJson, r.version, r.updatedAtMs).changes ===
        1,
    );
  }

  updateTable(
    id: string,
    expectedVersion: number,
    stateJson: string,
    configJson: string | undefined,
    nowMs: number,
  ): Promise<number | undefined> {
    const row = this.s.updateTable.get(
      stateJson,
      configJson ?? null,
      nowMs,
      id,
      expectedVersion,
    ) as { version: number } | undefined;
    return Promise.resolve(row?.version);
  }

  updateTableLease(id: string, holder: string | null): Promise<number | undefined> {
    return Promise.resolve(this.s.takeTableLease.get(holder, id) as number | undefined);
  }

  // As selectTable: BEGIN IMMEDIATE already holds the write lock, so no lock argument.
  selectTableVersion(id: string): Promise<number | undefined> {
    return Promise.resolve(this.s.tableVersion.get(id) as number | undefined);
  }

  selectUser(id: string): Promise<UserRow | undefined> {
    return Promise.resolve(this.s.user.get(id) as UserRow | undefined);
  }

  insertUser(u: NewUserRow): Promise<boolean> {
    const { changes } = this.s.insertUser.run(
      u.id,
      u.username,
      u.usernameKey,
      u.displayName,
      u.role,
      u.passwordHash,
      u.createdAtMs,
      u.mustChangePassword ? 1 : 0,
    );
    return Promise.resolve(changes === 1);
  }

  updateUserPassword(id: string, passwordHash: string, mustChange: boolean): Promise<boolean> {
    return Promise.resolve(
      this.s.setUserPassword.run(passwordHash, mustChange ? 1 : 0, id).changes === 1,
    );
  }

  updateUserDisabled(id: string, disabled: boolean): Promise<boolean> {
    return Promise.resolve(this.s.setUserDisabled.run(disabled ? 1 : 0, id).changes === 1);
  }

  deleteSessionsOfUser(userId: string): Promise<number> {
    return Promise.resolve(this.s.deleteSessionsOfUser.run(userId).changes);
  }

  selectCommands(keys: readonly string[]): Promise<CommandRow[]> {
    return Promise.resolve(this.s.commands.all(JSON.stringify(keys)) as CommandRow[]);
  }

  insertCommands(rows: readonly CommandRow[], nowMs: number): Promise<void> {
    insertChunked(this.s.insertCommands, this.s.insertCommand, rows, (r, out) => {
      out.push(r.key, r.requestHash, r.responseJson, nowMs);
    });
    return Promise.resolve();
  }

  lockJournalHead(): Promise<{ lastSeq: number; lastHash: string }> {
    return Promise.resolve(this.s.head.get() as { lastSeq: number; lastHash: string });
  }

  all<R>(sql: string, params: readonly unknown[]): Promise<R[]> {
    return Promise.resolve(this.db.prepare(sql).all(...params) as R[]);
  }

  run(sql: string, params: readonly unknown[]): Promise<number> {
    return Promise.resolve(this.db.prepare(sql).run(...params).changes);
  }

  insertJournal(entries: readonly ChainedEntry[]): Promise<void> {
    insertChunked(this.s.insertJournalEntries, this.s.insertJournalEntry, entries, journalParams);
    const last = entries[entries.length - 1]!.entry;
    this.s.moveHead.run(last.seq, last.hash);
    return Promise.resolve();
  }
}

const SQLITE_DIALECT: SqlDialect = {
  // json_each unpacks a JSON array inside SQLite.
  inList: 'IN (SELECT value FROM json_each(?))',
  inListParam: (values) => JSON.stringify(values),
  byteOrder: '',
  // Without the hint SQLite may prefer the primary key and scan a table's whole journal.
  indexedBy: (index) => `INDEXED BY ${index}`,
  jsonText: (column, key) => `json_extract(${column}, '$.${key}')`,
};

/**
 * The StoreDriver of SQLite: reads on the read-only connection (committed data
 * only, never waiting for a writer), writes through `write`, which queues them
 * behind this process's transactions on the writer connection.
 */
export class SqliteStoreDriver implements StoreDriver {
  readonly dialect = SQLITE_DIALECT;

  constructor(
    private readonly reader: Database.Database,
    private readonly write: <R>(fn: (writer: Database.Database) => R) => Promise<R>,
  ) {}

  all<R>(sql: string, params: readonly unknown[]): Promise<R[]> {
    return Promise.resolve(this.reader.prepare(sql).all(...params) as R[]);
  }

  run(sql: string, params: readonly unknown[]): Promise<number> {
    return this.write((db) => db.prepare(sql).run(...params).changes);
  }

  insertSession(input: SessionInput): Promise<boolean> {
    return this.write((db) => {
      db.prepare('DELETE FROM sessions WHERE expires_at_ms <= ?').run(input.createdAtMs);
      // The SELECT makes the insert itself check the user; its WHERE keeps SQLite
      // from reading ON CONFLICT as a join constraint.
      const { changes } = db
        .prepare(
          `INSERT INTO sessions (token_hash, user_id, created_at_ms, expires_at_ms, user_agent, address)
          SELECT ?, id, ?, ?, ?, ? FROM users WHERE id = ? AND disabled = 0 ON CONFLICT DO NOTHING`,
        )
        .run(
          input.tokenHash,
          input.createdAtMs,
          input.expiresAtMs,
          input.userAgent ?? null,
          input.address ?? null,
          input.userId,
        );
      return changes === 1;
    });
  }
}

/**
 * Migrations on SQLite run inside one BEGIN IMMEDIATE transaction: a second
 * process opening the same file waits for the first (busy_timeout) and then
 * finds everything done. Each step is a savepoint within it.
 */
export function sqliteMigrationDriver(
  db: Database.Database,
  migrations: readonly Migration[] = SQLITE_MIGRATIONS,
): MigrationDriver {
  return {
    migrations,
    createVersionsTableSql: `CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL) STRICT`,
    async exclusive(fn) {
      db.exec('BEGIN IMMEDIATE');
      try {
        await fn();
        db.exec('COMMIT');
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
    async atomic(fn) {
      db.exec('SAVEPOINT cussec_migrate');
      try {
        await fn();
        db.exec('RELEASE cussec_migrate');
      } catch (error) {
        db.exec('ROLLBACK TO cussec_migrate; RELEASE cussec_migrate');
        throw error;
      }
    },
    // Migration 13 loosens a CHECK by SQLite's documented schema edit
    // (writable_schema), which better-sqlite3's defensive mode refuses outside unsafe mode.
    exec: (sql) => {
      db.unsafeMode(true);
      try {
        db.exec(sql);
      } finally {
        db.unsafeMode(false);
      }
      return Promise.resolve();
    },
    all: <R>(sql: string, params: readonly unknown[]) =>
      Promise.resolve(db.prepare(sql).all(...params) as R[]),
    run: (sql, params) => Promise.resolve(void db.prepare(sql).run(...params)),
  };
}
