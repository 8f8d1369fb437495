/**
 * The Store: everything a table service persists, behind one async interface
 * with a SQLite and a PostgreSQL implementation.
 *
 * A command on a table is one call to `transaction`: load the table (locked),
 * run the pure round machine, save the state, post transfers, append journal
 * entries, record the command's answer — and it all commits or none of it does.
 */
import type { JournalEntry, JournalInput, JournalReader } from '../journal/index.js';
import type { Cluster } from './cluster.js';
import type { PgTimeouts } from './pg-store.js';
import type { Registers } from './registers.js';
import type {
  Account,
  AccountInput,
  CreateAccountResult,
  Currency,
  PostTransfersResult,
  Transfer,
  TransferInput,
} from './types.js';
import type {
  CreateSessionResult,
  CreateUserResult,
  Role,
  Session,
  SessionInput,
  User,
  UserInput,
  UserWithSecret,
} from './users.js';

export type Engine = 'sqlite' | 'postgres';

/**
 * Where a store's data lives: what another connection (a worker's, say) opens
 * to read it; on PostgreSQL, with the timeouts the store was opened with, so
 * that the other connection waits no longer for the database than the store.
 */
export type StoreLocation =
  | { readonly engine: 'sqlite'; readonly path: string }
  | {
      readonly engine: 'postgres';
      readonly url: string;
      readonly schema?: string;
      readonly timeouts: PgTimeouts;
    };

export interface TableRecord {
  readonly id: string;
  readonly config: unknown;
  readonly state: unknown;
  /** 1 on creation, +1 on every save. */
  readonly version: number;
  readonly updatedAtMs: number;
  /** 0 until a node takes the table's lease, +1 on every taking (takeTableLease). */
  readonly leaseEpoch: number;
  /**
   * Where the node that took the lease last takes the other nodes' commands
   * (its URL); null before any, or when the last taker takes none (`cussec play`).
   */
  readonly leaseHolder: string | null;
}

/**
 * - exclusive: PostgreSQL `FOR UPDATE` — the one lock to take before saving.
 * - shared: PostgreSQL `FOR SHARE` — others may share it, nobody may save the row
 *   until it is released (a save under it waits for or deadlocks with other sharers).
 * - none: a plain read; a later save relies on the version check alone.
 * On SQLite every write transaction holds the database's single write lock
 * (BEGIN IMMEDIATE) from its start, so all three read the same.
 */
export type TableLock = 'exclusive' | 'shared' | 'none';

export const SAVE_TABLE_ERROR_CODES = ['table_not_found', 'version_conflict'] as const;

export type SaveTableResult =
  | { readonly ok: true; readonly version: number }
  | { readonly ok: false; readonly code: (typeof SAVE_TABLE_ERROR_CODES)[number] };

/** An idempotency key and the hash of the request it came with. */
export interface CommandKey {
  readonly key: string;
  readonly requestHash: string;
}

/** A command's answer as its idempotency record keeps it. */
export interface CommandRecord extends CommandKey {
  readonly response: unknown;
}

export type CommandLookup =
  /** First time this key is seen: run the command, then putCommands. */
  | { readonly status: 'new' }
  /** A retry: answer with the stored response and do nothing else. */
  | { readonly status: 'replay'; readonly response: unknown }
  /** The key was used for another request: refuse. */
  | { readonly status: 'conflict'; readonly code: 'idempotency_key_conflict' };

/**
 * The handle a transaction callback works with. It is valid only while the
 * callback runs; using it afterwards throws.
 *
 * The callback must have no effect outside the database (no network calls, no
 * publishing, no timers): on PostgreSQL it is run again after a serialization
 * failure or a deadlock.
 */
export interface Tx {
  /** The time every row written by this transaction carries (ms since the epoch). */
  readonly nowMs: number;
  readonly currency: Currency;

  createAccounts(accounts: readonly AccountInput[]): Promise<CreateAccountResult[]>;
  getAccount(id: string): Promise<Account | undefined>;
  /** Balance as this transaction sees it, or undefined when there is no such account. */
  balance(id: string): Promise<number | undefined>;
  /** Balances of several accounts in one read, keyed by id; accounts that do not exist are left out. */
  balances(ids: readonly string[]): Promise<Map<string, number>>;
  /**
   * Posts a batch; see TransferErrorCode for the codes and their precedence.
   * `balancesOf`: accounts whose balance the caller will ask next (`balances`),
   * which the engine may then answer from its writes rather than a read.
   */
  postTransfers(
    transfers: readonly TransferInput[],
    options?: { readonly balancesOf?: readonly string[] },
  ): Promise<PostTransfersResult>;

  /** Creates a table at version 1; "exists" leaves the stored one untouched. */
  createTable(id: string, config: unknown, state: unknown): Promise<'created' | 'exists'>;
  loadTable(id: string, options: { readonly lock: TableLock }): Promise<TableRecord | undefined>;
  saveTable(
    id: string,
    expectedVersion: number,
    state: unknown,
    config?: unknown,
  ): Promise<SaveTableResult>;
  /**
   * The table's version alone, locked like loadTable, without reading or
   * parsing its state: a service that caches the state reloads only when the
   * version moved. Undefined when there is no such table.
   */
  tableVersion(id: string, options: { readonly lock: TableLock }): Promise<number | undefined>;
  /**
   * A node took the table's lease: the epoch goes up by one and `holder` is
   * recorded as where the table's commands go now (null: nowhere, a process
   * that takes no other node's commands, `cussec play`). Returns the new epoch, or
   * undefined when there is no such table. The version does not move: caches
   * of the state stay good.
   */
  takeTableLease(id: string, holder: string | null): Promise<number | undefined>;

  /**
   * Creates a user, so that the creation and its journal entry commit together.
   * Users are never deleted; see CreateUserResult for the codes.
   */
  createUser(user: UserInput): Promise<CreateUserResult>;
  /** The user as this transaction sees it (no password hash). */
  getUser(id: string): Promise<User | undefined>;
  /**
   * Replaces the password hash, and says whether the user must change it at the
   * next sign-in (a password somebody else chose); false when there is no such user.
   */
  setUserPassword(id: string, passwordHash: string, mustChange?: boolean): Promise<boolean>;
  /**
   * Disables or enables a user; false when there is no such user. Disabling
   * also deletes the user's sessions, so enabling again revives none of them.
   */
  setUserDisabled(id: string, disabled: boolean): Promise<boolean>;

  /**
   * What each idempotency key is, in order: new, a replay of the same request
   * (with its stored answer) or a conflict. One statement for the whole batch.
   */
  findCommands(lookups: readonly CommandKey[]): Promise<CommandLookup[]>;
  /** Records the commands' answers. Each key must be new (call findCommands first). */
  putCommands(records: readonly CommandRecord[]): Promise<void>;

  /**
   * Appends to the journal's single chain. On PostgreSQL this locks the chain's
   * head until commit, serialising every writer that journals: append last, after
   * the transfers, to hold that lock for the shortest time.
   */
  appendJournal(entries: readonly JournalInput[]): Promise<JournalEntry[]>;

  /** The registers of who may play, written in this transaction (registers.ts). */
  readonly registers: Registers;
}

export interface ConnectionStats {
  readonly open: number;
  readonly inUse: number;
  readonly waiting: number;
}

export interface TransactionOptions {
  /** The transaction's clock; defaults to the store's clock. */
  readonly nowMs?: number;
}

/** Rows per page, for every list query. */
export const PAGE_ROWS_MAX = 10_000;

/**
 * The journal entry types indexed by table and type (migration 5): the few
 * entries that reads look up without scanning a table's journal. A new type
 * needs a new migration before it can be added here.
 */
export const INDEXED_JOURNAL_TYPES = [
  'table-created',
  'table-settings-changed',
  'house-options-proposed',
  'dicj-authorization-recorded',
  'house-options-adopted',
  'house-options-withdrawn',
  'house-options-refused',
  'fairness-alert-raised',
  'fairness-alert-cleared',
  'table-held',
  'table-hold-released',
  'dice-changed',
  'holiday-year-loaded',
  'round-settled',
] as const;
export type IndexedJournalType = (typeof INDEXED_JOURNAL_TYPES)[number];

/**
 * Staff actions on accounts and tables, with who did them (migration 8's
 * partial index): what the inspector's staff view lists, newest first.
 */
export const STAFF_ACTION_TYPES = [
  'user-created',
  'user-disabled',
  'user-enabled',
  'password-reset',
  'password-changed',
  'session-revoked',
  'table-created',
  'table-settings-changed',
  'table-opened',
  'table-closed',
] as const;

/** The SQL condition of the staff actions' index, word for word (SQLite uses a partial index only then). */
export const STAFF_ACTIONS_SQL = `type IN (${STAFF_ACTION_TYPES.map((t) => `'${t}'`).join(', ')})`;

export interface IndexedJournalQuery {
  /** null: the floor's entries (no table), such as holiday lists. */
  readonly tableId: string | null;
  readonly types: readonly IndexedJournalType[];
  /** Entries after this seq (default 0). */
  readonly afterSeq?: number;
  /** Entries before this seq (default: none). */
  readonly beforeSeq?: number;
  readonly limit: number;
  /** Newest first instead of oldest first. */
  readonly newestFirst?: boolean;
}

/** A wallet movement with the balance it left, for game recall. */
export interface AccountMove {
  readonly seq: number;
  readonly accountId: string;
  readonly reference: string;
  /** Positive when the account was credited. */
  readonly deltaMinor: number;
  readonly balanceAfterMinor: number;
}

/** State folded from the journal up to `seq`, kept so that a restart reads only what follows. */
export interface ReadModel {
  readonly seq: number;
  readonly value: unknown;
}

/**
 * The SQL condition on `type` for the types asked for, checked against the
 * indexed ones. Literals, not parameters, and the index's own list beside the
 * one asked for: a partial index is used only when the query's condition
 * implies the index's, and SQLite proves that only by an identical term.
 * The list asked for comes first: SQLite searches the index by the first of
 * the two, and by the index's list it would walk every indexed entry of the
 * table, its settlements included (a cost that grows with its history).
 */
export function indexedTypesSql(types: readonly IndexedJournalType[]): string {
  if (types.length === 0) throw new RangeError('at least one journal type');
  for (const t of types)
    if (!(INDEXED_JOURNAL_TYPES as readonly string[]).includes(t))
      throw new RangeError(`journal type ${t} is not indexed`);
  const list = (ts: readonly string[]): string => ts.map((t) => `'${t}'`).join(', ');
  return `type IN (${list(types)}) AND type IN (${list(INDEXED_JOURNAL_TYPES)})`;
}

/**
 * What a database is for its whole life, recorded once (meta `database_kind`,
 * which no statement may update or delete): a demonstration (`cussec serve
 * --demo`, `cussec play`: tables whose options carry a demonstration or
 * simulation mark instead of the DICJ's authorization, users with a published
 * password, simulated players) or a casino floor. See src/service/database-kind.ts.
 */
export const DATABASE_KINDS = ['demonstration', 'casino-floor'] as const;
export type DatabaseKind = (typeof DATABASE_KINDS)[number];

export interface Store extends JournalReader {
  readonly engine: Engine;
  readonly currency: Currency;
  readonly location: StoreLocation;
  /** Signals and leases shared by the nodes of a floor (a single node on SQLite). */
  readonly cluster: Cluster;
  /** The registers of who may play, committed reads (write them in a transaction, with their journal entry). */
  readonly registers: Registers;

  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** The database connections now: open, busy, and callers waiting for one (the metrics). */
  connections(): ConnectionStats;

  // Reads outside transactions see committed data only.
  getAccount(id: string): Promise<Account | undefined>;
  /** Accounts in id order, after `afterId`. */
  listAccounts(query?: { readonly afterId?: string; readonly limit?: number }): Promise<Account[]>;
  getTransfer(id: string): Promise<Transfer | undefined>;
  transfersByReference(reference: string): Promise<Transfer[]>;
  /**
   * Transfers debiting or crediting an account, oldest first. It scans every
   * transfer after `afterSeq` (no index by account: migration 10), so use it
   * for audits and support, not on a hot path.
   */
  transfersOfAccount(
    accountId: string,
    query?: { readonly afterSeq?: number; readonly limit?: number },
  ): Promise<(Transfer & { readonly seq: number })[]>;
  /** All transfers in posting order, after `afterSeq` (keyset paging for audits). */
  listTransfers(query?: {
    readonly afterSeq?: number;
    readonly limit?: number;
  }): Promise<(Transfer & { readonly seq: number })[]>;
  getTable(id: string): Promise<TableRecord | undefined>;
  /** Ids of every table, in id order. */
  listTables(): Promise<string[]>;
  readJournal(query: {
    readonly fromSeq: number;
    readonly limit: number;
    readonly tableId?: string;
  }): Promise<JournalEntry[]>;
  journalHead(): Promise<{ readonly lastSeq: number; readonly lastHash: string }>;
  /** Entries of the indexed types (INDEXED_JOURNAL_TYPES), by the index: cost grows with the rows returned. */
  readIndexedJournal(query: IndexedJournalQuery): Promise<JournalEntry[]>;
  /** Staff actions (STAFF_ACTION_TYPES) before `beforeSeq` (default: all), newest first. */
  readStaffActions(query: { beforeSeq?: number; limit: number }): Promise<JournalEntry[]>;
  /** The newest floor-settings-changed entry: the floor's settings in force (migration 12's index). */
  readNewestFloorSettings(): Promise<JournalEntry | undefined>;
  /** A player's deposits and withdrawals at the cage, newest first (migration 12's index). */
  readCageMoves(query: {
    playerId: string;
    beforeSeq?: number;
    limit: number;
  }): Promise<JournalEntry[]>;
  /** A table's `round-settled` entries with fromAtMs <= atMs < untilAtMs, in seq order. */
  readSettlements(query: {
    readonly tableId: string;
    readonly fromAtMs: number;
    readonly untilAtMs: number;
    readonly limit: number;
  }): Promise<JournalEntry[]>;
  /**
   * Every movement of the accounts from the first transfer carrying one of the
   * references on, with the balance each left (the current balance less the
   * later movements, in one statement: one consistent snapshot), then kept only
   * where the reference is one of those asked for. Cost grows with the
   * transfers since the first of them, not with the ledger's history.
   */
  accountMovesSince(
    accountIds: readonly string[],
    references: readonly string[],
  ): Promise<AccountMove[]>;
  getReadModel(name: string): Promise<ReadModel | undefined>;
  /** Stores the model unless a later one (greater seq) is stored already. */
  putReadModel(name: string, model: ReadModel): Promise<void>;
  /**
   * Deletes the idempotency records made before `beforeMs`, at most `limit`
   * of them (oldest first); how many it deleted.
   */
  sweepCommands(beforeMs: number, limit: number): Promise<number>;

  // Users. Only findUserByUsername returns the password hash (to check a login).
  getUser(id: string): Promise<User | undefined>;
  /** Case-insensitive (see usernameKey); undefined when no user has this name. */
  findUserByUsername(username: string): Promise<UserWithSecret | undefined>;
  /** Users in id order (byte order), after `afterId`, of one role if given. */
  listUsers(query?: {
    readonly role?: Role;
    readonly afterId?: string;
    readonly limit?: number;
  }): Promise<User[]>;
  countUsers(role?: Role): Promise<number>;

  // Login sessions: each call is its own transaction (they are not journaled).
  /**
   * A login. It also deletes the sessions expired at its createdAtMs, in the
   * same commit: expired rows never pile up (1,513 rows after 1,500 logins
   * before), and the sweep costs a range of the expiry index, usually empty.
   */
  createSession(session: SessionInput): Promise<CreateSessionResult>;
  /**
   * The live session with this token hash and its user; undefined when there is
   * none, it has expired (nowMs >= expiresAtMs) or its user is disabled.
   */
  findSession(
    tokenHash: string,
    nowMs: number,
  ): Promise<{ readonly session: Session; readonly user: User } | undefined>;
  /**
   * Records activity on a live session, and moves its expiry when
   * `expiresAtMs` is given (sliding sessions). False when it is gone or expired.
   */
  touchSession(tokenHash: string, nowMs: number, expiresAtMs?: number): Promise<boolean>;
  /** Logout: false when there was no such session. */
  deleteSession(tokenHash: string): Promise<boolean>;
  /** The user's live sessions at nowMs, newest first. */
  listUserSessions(userId: string, nowMs: number): Promise<Session[]>;
  /** Ends every session of a user (e.g. after a password change); how many there were. */
  deleteUserSessions(userId: string): Promise<number>;
  /** Deletes the sessions expired at nowMs; how many there were. */
  deleteExpiredSessions(nowMs: number): Promise<number>;

  /** The kind recorded for this database; undefined while none is. */
  databaseKind(): Promise<DatabaseKind | undefined>;
  /**
   * Records the kind unless one is recorded already, and returns the kind
   * recorded: a first writer's wins, and it never changes.
   */
  recordDatabaseKind(kind: DatabaseKind): Promise<DatabaseKind>;

  /** Applied schema versions, ascending. */
  schemaVersions(): Promise<number[]>;

  close(): Promise<void>;
}
