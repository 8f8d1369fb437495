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
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { SingleNodeCluster } from './cluster.js';
import { checkWritableFolder, rethrowUnavailable } from './errors.js';
import { KeyedQueue } from './keyed-queue.js';
import { migrate } from './migration.js';
import { SqlStore } from './sql-store.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { SqliteStoreDriver, SqliteTxDriver, sqliteMigrationDriver } from './sqlite-driver.js';
import type { ConnectionStats, Store, StoreLocation, TransactionOptions, Tx } from './store.js';
import { DriverTx } from './tx.js';
import type { Currency } from './types.js';

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
  // SQLite writes beside the file (its -wal and -shm), even to read it: a folder it may not
  // write in fails here, named, not as "unable to open database file".
  checkWritableFolder(dirname(resolve(options.path)));
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
      migrate(sqliteMigrationDriver(writer), options.currency, clock()),
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

class SqliteStore extends SqlStore {
  readonly engine = 'sqlite' as const;
  readonly cluster = new SingleNodeCluster();
  protected readonly sql: SqliteStoreDriver;
  private readonly driver: SqliteTxDriver;
  private closed = false;

  constructor(
    private readonly writer: Database.Database,
    private readonly reader: Database.Database,
    readonly location: StoreLocation,
    readonly currency: Currency,
    clock: () => number,
    private readonly writes: KeyedQueue,
    private readonly checkpointer: SqliteCheckpointer,
  ) {
    super(clock);
    this.sql = new SqliteStoreDriver(reader, (fn) => this.write(fn));
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

  /** One autocommit statement on the writer, queued behind this process's transactions. */
  private write<R>(fn: (db: Database.Database) => R): Promise<R> {
    return this.writes.run(WRITER, () => {
      if (this.closed) throw new Error('store is closed');
      return Promise.resolve(fn(this.writer));
    });
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
