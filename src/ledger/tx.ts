/**
 * The one Tx implementation, over a small engine-specific driver: the rules
 * (transfer planning, idempotency, version checks, chaining) live here once, and
 * each engine only says how to read and write rows.
 */
import {
  chainEntries,
  type ChainedEntry,
  check,
  type JournalEntry,
  type JournalInput,
} from '../journal/index.js';
import type {
  CommandKey,
  CommandLookup,
  CommandRecord,
  SaveTableResult,
  TableLock,
  TableRecord,
  Tx,
} from './store.js';
import { Registers } from './registers.js';
import { type OptimisticPlan, planOptimistic, planTransfers } from './transfer-plan.js';
import {
  type Account,
  type AccountInput,
  ACCOUNT_KINDS,
  type CreateAccountResult,
  type Currency,
  LEDGER_KEY_LENGTH_MAX,
  type PostTransfersResult,
  type Transfer,
  type TransferInput,
} from './types.js';
import {
  assertPasswordHash,
  assertUserInput,
  type CreateUserResult,
  toUser,
  type User,
  type UserInput,
  type UserRow,
  usernameKey,
} from './users.js';

/** A user as inserted: the input, its username key and the creation time. */
export interface NewUserRow extends UserInput {
  readonly usernameKey: string;
  readonly createdAtMs: number;
  readonly mustChangePassword: boolean;
}

export interface CommandRow {
  readonly key: string;
  readonly requestHash: string;
  readonly responseJson: string;
}

export interface TableRow {
  readonly id: string;
  readonly configJson: string;
  readonly stateJson: string;
  readonly version: number;
  readonly updatedAtMs: number;
}

/** A table's row as read, with its lease (columns written by takeTableLease only). */
export interface TableReadRow extends TableRow {
  readonly leaseEpoch: number;
  readonly leaseHolder: string | null;
}

/**
 * The optimistic path of postTransfers (see planOptimistic): instead of reading
 * every account and transfer id of a batch under lock, the engine checks while
 * writing, and undoes the writes when a check fails.
 */
export interface OptimisticDriver {
  /**
   * Inserts the plan's transfers and adds its deltas to the balances if, for
   * every account, the account exists, balance + minPrefix is not below zero
   * (unless the account may go negative) and balance + minPrefix and
   * balance + maxPrefix are safe integers, and if no id of the plan is stored,
   * and returns the new balance of each `wanted` account it changed (read back
   * by the writes themselves; an engine may return more). Otherwise it leaves no trace and returns undefined (the
   * caller takes the careful path), or throws, and the store rolls the
   * transaction back and runs it again without this path (PostgreSQL: no
   * savepoint to undo to).
   */
  postIfClean(
    plan: OptimisticPlan,
    wanted: readonly string[],
  ): Promise<ReadonlyMap<string, number> | undefined>;
}

/** Row-level operations an engine provides inside a transaction. */
export interface TxDriver {
  readonly optimistic?: OptimisticDriver | undefined;
  /** With `lock`, the rows stay locked until commit (PostgreSQL FOR UPDATE, in id order). */
  selectAccounts(ids: readonly string[], lock: boolean): Promise<Account[]>;
  insertAccounts(accounts: readonly Account[]): Promise<void>;
  selectTransfers(ids: readonly string[]): Promise<Transfer[]>;
  insertTransfers(transfers: readonly Transfer[]): Promise<void>;
  /** balance += delta for each account, in one statement where the engine allows. */
  addToBalances(accountIds: readonly string[], deltasMinor: readonly number[]): Promise<void>;
  selectTable(id: string, lock: TableLock): Promise<TableReadRow | undefined>;
  /** False when the id exists already. */
  insertTable(row: TableRow): Promise<boolean>;
  /** The new version, or undefined when no row has this id and version. */
  updateTable(
    id: string,
    expectedVersion: number,
    stateJson: string,
    configJson: string | undefined,
    nowMs: number,
  ): Promise<number | undefined>;
  /** The version column alone (PostgreSQL reads no TOASTed state for it). */
  selectTableVersion(id: string, lock: TableLock): Promise<number | undefined>;
  /** The new lease epoch, or undefined when there is no such table. */
  updateTableLease(id: string, holder: string | null): Promise<number | undefined>;
  selectUser(id: string): Promise<UserRow | undefined>;
  /** False when the id or the username key is taken (the row is then left as it was). */
  insertUser(row: NewUserRow): Promise<boolean>;
  /** False when there is no such user. */
  updateUserPassword(id: string, passwordHash: string, mustChange: boolean): Promise<boolean>;
  /** False when there is no such user. */
  updateUserDisabled(id: string, disabled: boolean): Promise<boolean>;
  deleteSessionsOfUser(userId: string): Promise<number>;
  /** The stored records of these keys (in no particular order; a key not stored has none). */
  selectCommands(keys: readonly string[]): Promise<CommandRow[]>;
  insertCommands(rows: readonly CommandRow[], nowMs: number): Promise<void>;
  /** Reads the chain's head, locking it until commit. */
  lockJournalHead(): Promise<{ readonly lastSeq: number; readonly lastHash: string }>;
  /** Writes the entries and moves the head to the last of them. */
  insertJournal(entries: readonly ChainedEntry[]): Promise<void>;
  /** Rows of one statement of the registers (registers.ts), same SQL on both engines; placeholders are `?`. */
  all<R>(sql: string, params: readonly unknown[]): Promise<R[]>;
  /** One write statement of the registers; how many rows it changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
}

export function toTableRecord(row: TableReadRow): TableRecord {
  return {
    id: row.id,
    config: JSON.parse(row.configJson) as unknown,
    state: JSON.parse(row.stateJson) as unknown,
    version: row.version,
    updatedAtMs: row.updatedAtMs,
    leaseEpoch: row.leaseEpoch,
    leaseHolder: row.leaseHolder,
  };
}

function toJson(value: unknown, what: string): string {
  const json = JSON.stringify(value) as string | undefined;
  check(typeof json === 'string', () => `${what} has no JSON form`);
  return json;
}

function assertKey(key: string, what: string): void {
  check(
    typeof key === 'string' && key.length > 0 && key.length <= LEDGER_KEY_LENGTH_MAX,
    () => `${what}: bad id ${JSON.stringify(key)}`,
  );
}

export class DriverTx implements Tx {
  private open = true;
  /**
   * The balances this transaction's transfers left, which it holds until
   * commit (PostgreSQL: row locks; SQLite: the one writer): balances() answers
   * from them without a read.
   */
  private readonly written = new Map<string, number>();

  readonly registers: Registers;

  constructor(
    private readonly driver: TxDriver,
    readonly currency: Currency,
    readonly nowMs: number,
  ) {
    this.registers = new Registers({
      all: (sql, params) => this.live().all(sql, params),
      run: (sql, params) => this.live().run(sql, params),
    });
  }

  /** Called by the store when the callback returns or throws; the handle is dead from then on. */
  close(): void {
    this.open = false;
  }

  private live(): TxDriver {
    check(
      this.open,
      () => 'the transaction is over: a Tx must not be used after its callback returns',
    );
    return this.driver;
  }

  async createAccounts(inputs: readonly AccountInput[]): Promise<CreateAccountResult[]> {
    const driver = this.live();
    for (const a of inputs) {
      assertKey(a.id, 'account');
      check(ACCOUNT_KINDS.includes(a.kind), () => `account ${a.id}: bad kind ${String(a.kind)}`);
    }
    const known = new Map(
      (await driver.selectAccounts(unique(inputs.map((a) => a.id)), false)).map((a) => [a.id, a]),
    );
    const fresh: Account[] = [];
    const results = inputs.map((input): CreateAccountResult => {
      const before = known.get(input.id);
      if (before !== undefined) {
        return before.kind === input.kind
          ? { status: 'exists', account: before }
          : { status: 'failed', id: input.id, code: 'id_conflict' };
      }
      const account: Account = {
        id: input.id,
        kind: input.kind,
        balanceMinor: 0,
        createdAtMs: this.nowMs,
      };
      known.set(account.id, account);
      fresh.push(account);
      return { status: 'created', account };
    });
    if (fresh.length > 0) await driver.insertAccounts(fresh);
    return results;
  }

  async getAccount(id: string): Promise<Account | undefined> {
    const [account] = await this.live().selectAccounts([id], false);
    return account;
  }

  async balance(id: string): Promise<number | undefined> {
    return (await this.getAccount(id))?.balanceMinor;
  }

  async balances(ids: readonly string[]): Promise<Map<string, number>> {
    const driver = this.live();
    if (ids.length === 0) return new Map();
    if (ids.every((id) => this.written.has(id)))
      return new Map(ids.map((id) => [id, this.written.get(id)!]));
    const accounts = await driver.selectAccounts(unique(ids), false);
    return new Map(accounts.map((a) => [a.id, a.balanceMinor]));
  }

  async postTransfers(
    transfers: readonly TransferInput[],
    options?: { readonly balancesOf?: readonly string[] },
  ): Promise<PostTransfersResult> {
    const driver = this.live();
    if (transfers.length === 0) return { ok: true, results: [] };
    if (driver.optimistic !== undefined) {
      const plan = planOptimistic({ currency: this.currency, nowMs: this.nowMs, transfers });
      const balances =
        plan && (await driver.optimistic.postIfClean(plan, options?.balancesOf ?? []));
      if (plan !== undefined && balances !== undefined) {
        for (const [id, balance] of balances) this.written.set(id, balance);
        return { ok: true, results: plan.results };
      }
    }
    const accountIds = new Set<string>();
    const transferIds = new Set<string>();
    for (const t of transfers) {
      accountIds.add(t.debitAccountId).add(t.creditAccountId);
      transferIds.add(t.id);
    }
    // Locking every account the batch names (the driver locks in id order, so two
    // batches cannot deadlock on each other) makes the balances read here the
    // ones the updates below will change.
    const accounts = await driver.selectAccounts([...accountIds], true);
    const existing = await driver.selectTransfers([...transferIds]);
    const plan = planTransfers({
      currency: this.currency,
      nowMs: this.nowMs,
      transfers,
      existing: new Map(existing.map((t) => [t.id, t])),
      accounts: new Map(accounts.map((a) => [a.id, a])),
    });
    if (plan.created.length > 0) {
      await driver.insertTransfers(plan.created);
      await driver.addToBalances(plan.deltas.accountIds, plan.deltas.deltasMinor);
      // The accounts are locked: their balances now are the ones read plus the deltas.
      const read = new Map(accounts.map((a) => [a.id, a.balanceMinor]));
      plan.deltas.accountIds.forEach((id, i) =>
        this.written.set(id, read.get(id)! + plan.deltas.deltasMinor[i]!),
      );
    }
    return { ok: plan.results.every((r) => r.status !== 'failed'), results: plan.results };
  }

  async createTable(id: string, config: unknown, state: unknown): Promise<'created' | 'exists'> {
    const driver = this.live();
    assertKey(id, 'table');
    const row = {
      id,
      configJson: toJson(config, 'table config'),
      stateJson: toJson(state, 'table state'),
      version: 1,
      updatedAtMs: this.nowMs,
    };
    return (await driver.insertTable(row)) ? 'created' : 'exists';
  }

  async loadTable(
    id: string,
    options: { readonly lock: TableLock },
  ): Promise<TableRecord | undefined> {
    const row = await this.live().selectTable(id, options.lock);
    return row === undefined ? undefined : toTableRecord(row);
  }

  async saveTable(
    id: string,
    expectedVersion: number,
    state: unknown,
    config?: unknown,
  ): Promise<SaveTableResult> {
    const driver = this.live();
    const configJson = config === undefined ? undefined : toJson(config, 'table config');
    const version = await driver.updateTable(
      id,
      expectedVersion,
      toJson(state, 'table state'),
      configJson,
      this.nowMs,
    );
    if (version !== undefined) return { ok: true, version };
    const current = await driver.selectTable(id, 'none');
    return { ok: false, code: current === undefined ? 'table_not_found' : 'version_conflict' };
  }

  async tableVersion(
    id: string,
    options: { readonly lock: TableLock },
  ): Promise<number | undefined> {
    return this.live().selectTableVersion(id, options.lock);
  }

  async takeTableLease(id: string, holder: string | null): Promise<number | undefined> {
    return this.live().updateTableLease(id, holder);
  }

  async createUser(input: UserInput): Promise<CreateUserResult> {
    const driver = this.live();
    assertUserInput(input);
    const row: NewUserRow = {
      id: input.id,
      username: input.username,
      displayName: input.displayName,
      role: input.role,
      passwordHash: input.passwordHash,
      usernameKey: usernameKey(input.username),
      createdAtMs: this.nowMs,
      mustChangePassword: input.mustChangePassword ?? false,
    };
    // Insert first and ask why only when it failed: the unique constraints decide,
    // so two transactions racing for one username cannot both win.
    if (await driver.insertUser(row))
      return {
        status: 'created',
        user: toUser({ ...row, disabled: false, mustChangePassword: row.mustChangePassword }),
      };
    const byId = await driver.selectUser(input.id);
    return { status: 'failed', code: byId === undefined ? 'username_taken' : 'id_conflict' };
  }

  async getUser(id: string): Promise<User | undefined> {
    const row = await this.live().selectUser(id);
    return row === undefined ? undefined : toUser(row);
  }

  async setUserPassword(id: string, passwordHash: string, mustChange = false): Promise<boolean> {
    const driver = this.live();
    assertPasswordHash(passwordHash, id);
    check(typeof mustChange === 'boolean', () => `user ${id}: mustChange must be a boolean`);
    return driver.updateUserPassword(id, passwordHash, mustChange);
  }

  async setUserDisabled(id: string, disabled: boolean): Promise<boolean> {
    const driver = this.live();
    check(typeof disabled === 'boolean', () => `user ${id}: disabled must be a boolean`);
    const found = await driver.updateUserDisabled(id, disabled);
    if (found && disabled) await driver.deleteSessionsOfUser(id);
    return found;
  }

  async findCommands(lookups: readonly CommandKey[]): Promise<CommandLookup[]> {
    const driver = this.live();
    if (lookups.length === 0) return [];
    for (const l of lookups) assertKey(l.key, 'command');
    const stored = new Map(
      (await driver.selectCommands(unique(lookups.map((l) => l.key)))).map((r) => [r.key, r]),
    );
    return lookups.map(({ key, requestHash }): CommandLookup => {
      const row = stored.get(key);
      if (row === undefined) return { status: 'new' };
      if (row.requestHash !== requestHash)
        return { status: 'conflict', code: 'idempotency_key_conflict' };
      return { status: 'replay', response: JSON.parse(row.responseJson) as unknown };
    });
  }

  async putCommands(records: readonly CommandRecord[]): Promise<void> {
    const driver = this.live();
    if (records.length === 0) return;
    const rows = records.map(({ key, requestHash, response }): CommandRow => {
      assertKey(key, 'command');
      check(
        typeof requestHash === 'string' && requestHash.length > 0,
        () => 'command: empty request hash',
      );
      return { key, requestHash, responseJson: toJson(response, 'command response') };
    });
    await driver.insertCommands(rows, this.nowMs);
  }

  async appendJournal(inputs: readonly JournalInput[]): Promise<JournalEntry[]> {
    const driver = this.live();
    if (inputs.length === 0) return [];
    const chained = chainEntries(inputs, await driver.lockJournalHead(), this.nowMs);
    await driver.insertJournal(chained);
    return chained.map((c) => c.entry);
  }
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}
