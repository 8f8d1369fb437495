/**
 * The Store: everything a table service persists, behind one async interface
 * with a SQLite and a PostgreSQL implementation.
 *
 * A command on a table is one call to `transaction`: load the table (locked),
 * run the pure round machine, save the state, post transfers, append journal
 * entries, record the command's answer — and it all commits or none of it does.
 */
import type { JournalEntry, JournalInput, JournalReader } from '../journal/index.js';
import type {
  Account,
  AccountInput,
  CreateAccountResult,
  Currency,
  PostTransfersResult,
  Transfer,
  TransferInput,
} from './types.js';

export type Engine = 'sqlite' | 'postgres';

export interface TableRecord {
  readonly id: string;
  readonly config: unknown;
  readonly state: unknown;
  /** 1 on creation, +1 on every save. */
  readonly version: number;
  readonly updatedAtMs: number;
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

export type SaveTableResult =
  | { readonly ok: true; readonly version: number }
  | { readonly ok: false; readonly code: 'table-not-found' | 'version-conflict' };

export type CommandLookup =
  /** First time this key is seen: run the command, then putCommand. */
  | { readonly status: 'new' }
  /** A retry: answer with the stored response and do nothing else. */
  | { readonly status: 'replay'; readonly response: unknown }
  /** The key was used for another request: refuse. */
  | { readonly status: 'conflict'; readonly code: 'idempotency-key-conflict' };

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
  /** Posts a batch; see TransferErrorCode for the codes and their precedence. */
  postTransfers(transfers: readonly TransferInput[]): Promise<PostTransfersResult>;

  /** Creates a table at version 1; "exists" leaves the stored one untouched. */
  createTable(id: string, config: unknown, state: unknown): Promise<'created' | 'exists'>;
  loadTable(id: string, options: { readonly lock: TableLock }): Promise<TableRecord | undefined>;
  saveTable(
    id: string,
    expectedVersion: number,
    state: unknown,
    config?: unknown,
  ): Promise<SaveTableResult>;

  findCommand(key: string, requestHash: string): Promise<CommandLookup>;
  /** Records a command's answer. The key must be new (call findCommand first). */
  putCommand(key: string, requestHash: string, response: unknown): Promise<void>;

  /**
   * Appends to the journal's single chain. On PostgreSQL this locks the chain's
   * head until commit, serialising every writer that journals: append last, after
   * the transfers, to hold that lock for the shortest time.
   */
  appendJournal(entries: readonly JournalInput[]): Promise<JournalEntry[]>;
}

export interface TransactionOptions {
  /** The transaction's clock; defaults to the store's clock. */
  readonly nowMs?: number;
}

/** Rows per page, for every list query. */
export const PAGE_ROWS_MAX = 10_000;

export interface Store extends JournalReader {
  readonly engine: Engine;
  readonly currency: Currency;

  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;

  // Reads outside transactions see committed data only.
  getAccount(id: string): Promise<Account | undefined>;
  /** Accounts in id order, after `afterId`. */
  listAccounts(query?: { readonly afterId?: string; readonly limit?: number }): Promise<Account[]>;
  getTransfer(id: string): Promise<Transfer | undefined>;
  transfersByReference(reference: string): Promise<Transfer[]>;
  /**
   * Transfers debiting or crediting an account, oldest first. Indexed on
   * PostgreSQL; on SQLite it scans every transfer (see the schema), so use it
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
  readJournal(query: {
    readonly fromSeq: number;
    readonly limit: number;
    readonly tableId?: string;
  }): Promise<JournalEntry[]>;
  journalHead(): Promise<{ readonly lastSeq: number; readonly lastHash: string }>;
  /** Applied schema versions, ascending. */
  schemaVersions(): Promise<number[]>;

  close(): Promise<void>;
}
