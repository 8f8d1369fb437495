/**
 * The audit's own connection to a store's data: one consistent snapshot to
 * read, and the table of verified checkpoints to write afterwards.
 *
 * A live floor commits while an audit reads. Reads outside a transaction each
 * see the newest commit, so an audit that reads the journal, then the ledger,
 * then the balances compares three different moments and reports false
 * failures (a head past the last entry it read, a transfer whose journal entry
 * came after its page). Every read here runs inside one read transaction: on
 * SQLite (WAL) a deferred transaction on a connection of its own, whose
 * snapshot is fixed by its first read and which never blocks the writer; on
 * PostgreSQL REPEATABLE READ, READ ONLY.
 *
 * The connection is opened by whoever runs the audit (a worker thread, off the
 * server's event loop), never shared with the store's writer.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import type { JournalEntry, JournalReader } from '../journal/index.js';
import { types as pgTypes } from './pg-store.js';
import {
  ACCOUNT_COLUMNS,
  JOURNAL_COLUMNS,
  type JournalRow,
  pageLimit,
  toJournalEntry,
  TRANSFER_COLUMNS,
} from './sql-columns.js';
import {
  type IndexedJournalQuery,
  indexedTypesSql,
  PAGE_ROWS_MAX,
  type StoreLocation,
} from './store.js';
import type { Account, Transfer } from './types.js';

export type SeqTransfer = Transfer & { readonly seq: number };

/** A verified audit's end: the last entry it checked and the replay's state after it. */
export interface AuditCheckpointRow {
  readonly seq: number;
  readonly hash: string;
  readonly stateJson: string;
  readonly verifiedAtMs: number;
}

/** Reads of one snapshot; valid only inside AuditDb.snapshot's callback. */
export interface SnapshotReader extends JournalReader {
  readJournal(query: { readonly fromSeq: number; readonly limit: number }): Promise<JournalEntry[]>;
  journalHead(): Promise<{ readonly lastSeq: number; readonly lastHash: string }>;
  /** The transfers with these ids (in no particular order); absent ids are left out. */
  transfersByIds(ids: readonly string[]): Promise<Transfer[]>;
  countTransfers(): Promise<number>;
  /** All transfers in posting order, after `afterSeq`. */
  listTransfers(query: {
    readonly afterSeq: number;
    readonly limit: number;
  }): Promise<SeqTransfer[]>;
  /** Accounts in id order (byte order), after `afterId`. */
  listAccounts(query: { readonly afterId: string; readonly limit: number }): Promise<Account[]>;
  /** The checkpoint at `seq`, or the newest one; undefined when there is none. */
  auditCheckpoint(seq: number | 'latest'): Promise<AuditCheckpointRow | undefined>;
  /** A table's entries with afterSeq < seq < beforeSeq, by the index of the journal by table. */
  readTableJournal(query: TableJournalQuery): Promise<JournalEntry[]>;
  /** Entries of the indexed types, as Store.readIndexedJournal reads them. */
  readIndexedJournal(query: IndexedJournalQuery): Promise<JournalEntry[]>;
  /** The transfers with these references, in posting order. */
  transfersByReferences(references: readonly string[]): Promise<SeqTransfer[]>;
  /** Ids of every table, in id order. */
  listTables(): Promise<string[]>;
}

export interface TableJournalQuery {
  readonly tableId: string;
  readonly afterSeq: number;
  readonly beforeSeq: number;
  readonly limit: number;
  /** Newest first instead of oldest first. */
  readonly newestFirst?: boolean;
}

export interface AuditDb {
  snapshot<T>(fn: (reader: SnapshotReader) => Promise<T>): Promise<T>;
  /** Records a verified checkpoint; one already recorded at that seq is kept. */
  saveAuditCheckpoint(row: AuditCheckpointRow): Promise<void>;
  close(): Promise<void>;
}

/** The audit's PostgreSQL connection, as pg_stat_activity shows it. */
export const AUDIT_APPLICATION_NAME = 'cussec audit';

/** How long the audit's SQLite connection waits for the writer's lock when it saves a checkpoint. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** One query text for both engines: `?` placeholders, numbered for PostgreSQL. */
type Query = <R>(sql: string, ...params: unknown[]) => Promise<R[]>;

/** What differs between the engines' SQL. */
interface Dialect {
  /** Appended to `id` so that accounts page in byte order, as SQLite sorts. */
  readonly byteOrder: string;
  /** `id` is one of a list given as one parameter. */
  readonly idIn: string;
  readonly idList: (ids: readonly string[]) => unknown;
  /** SQLite uses a partial index only when told (as the store's reads do). */
  readonly indexedBy: (index: string) => string;
}

const SQLITE_DIALECT: Dialect = {
  byteOrder: '',
  idIn: 'IN (SELECT value FROM json_each(?))',
  idList: (ids) => JSON.stringify(ids),
  indexedBy: (index) => `INDEXED BY ${index}`,
};

const PG_DIALECT: Dialect = {
  byteOrder: ' COLLATE "C"',
  idIn: '= ANY(?::text[])',
  idList: (ids) => ids,
  indexedBy: () => '',
};

function snapshotReader(all: Query, dialect: Dialect): SnapshotReader {
  const { byteOrder, idIn, idList } = dialect;
  return {
    ...exportReads(all, dialect),
    async readJournal({ fromSeq, limit }) {
      const rows = await all<JournalRow>(
        `SELECT ${JOURNAL_COLUMNS} FROM journal WHERE seq >= ? ORDER BY seq LIMIT ?`,
        fromSeq,
        pageLimit(limit, PAGE_ROWS_MAX),
      );
      return rows.map(toJournalEntry);
    },
    async journalHead() {
      const rows = await all<{ lastSeq: number; lastHash: string }>(
        `SELECT last_seq AS "lastSeq", last_hash AS "lastHash" FROM journal_head WHERE chain = 'global'`,
      );
      return rows[0]!;
    },
    transfersByIds: (ids) =>
      all<Transfer>(`SELECT ${TRANSFER_COLUMNS} FROM transfers WHERE id ${idIn}`, idList(ids)),
    async countTransfers() {
      const rows = await all<{ n: number }>('SELECT count(*) AS n FROM transfers');
      return Number(rows[0]!.n);
    },
    listTransfers: ({ afterSeq, limit }) =>
      all<SeqTransfer>(
        `SELECT seq, ${TRANSFER_COLUMNS} FROM transfers WHERE seq > ? ORDER BY seq LIMIT ?`,
        afterSeq,
        pageLimit(limit, PAGE_ROWS_MAX),
      ),
    listAccounts: ({ afterId, limit }) =>
      all<Account>(
        `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id${byteOrder} > ? ORDER BY id${byteOrder} LIMIT ?`,
        afterId,
        pageLimit(limit, PAGE_ROWS_MAX),
      ),
    async auditCheckpoint(seq) {
      const columns = `seq, hash, state_json AS "stateJson", verified_at_ms AS "verifiedAtMs"`;
      const rows =
        seq === 'latest'
          ? await all<AuditCheckpointRow>(
              `SELECT ${columns} FROM audit_checkpoints ORDER BY seq DESC LIMIT 1`,
            )
          : await all<AuditCheckpointRow>(
              `SELECT ${columns} FROM audit_checkpoints WHERE seq = ?`,
              seq,
            );
      return rows[0];
    },
  };
}

/** The reads an export adds to the audit's: a table's entries, indexed ones, transfers by reference. */
function exportReads(
  all: Query,
  { byteOrder, idIn, idList, indexedBy }: Dialect,
): Pick<
  SnapshotReader,
  'readTableJournal' | 'readIndexedJournal' | 'transfersByReferences' | 'listTables'
> {
  return {
    async readTableJournal({ tableId, afterSeq, beforeSeq, limit, newestFirst }) {
      const rows = await all<JournalRow>(
        `SELECT ${JOURNAL_COLUMNS} FROM journal WHERE table_id = ? AND seq > ? AND seq < ?
          ORDER BY seq ${newestFirst === true ? 'DESC' : 'ASC'} LIMIT ?`,
        tableId,
        afterSeq,
        beforeSeq,
        pageLimit(limit, PAGE_ROWS_MAX),
      );
      return rows.map(toJournalEntry);
    },
    async readIndexedJournal(query) {
      const table = query.tableId === null ? 'table_id IS NULL' : 'table_id = ?';
      const rows = await all<JournalRow>(
        `SELECT ${JOURNAL_COLUMNS} FROM journal ${indexedBy('journal_by_table_type')}
          WHERE ${table} AND ${indexedTypesSql(query.types)} AND seq > ? AND seq < ?
          ORDER BY seq ${query.newestFirst === true ? 'DESC' : 'ASC'} LIMIT ?`,
        ...(query.tableId === null ? [] : [query.tableId]),
        query.afterSeq ?? 0,
        query.beforeSeq ?? Number.MAX_SAFE_INTEGER,
        pageLimit(query.limit, PAGE_ROWS_MAX),
      );
      return rows.map(toJournalEntry);
    },
    transfersByReferences: (references) =>
      all<SeqTransfer>(
        `SELECT seq, ${TRANSFER_COLUMNS} FROM transfers WHERE reference ${idIn} ORDER BY seq`,
        idList(references),
      ),
    async listTables() {
      const rows = await all<{ id: string }>(`SELECT id FROM tables ORDER BY id${byteOrder}`);
      return rows.map((r) => r.id);
    },
  };
}

export function openAuditDb(location: StoreLocation): Promise<AuditDb> {
  return location.engine === 'sqlite' ? openSqliteAuditDb(location.path) : openPgAuditDb(location);
}

function openSqliteAuditDb(path: string): Promise<AuditDb> {
  const db = new Database(path, { fileMustExist: true });
  db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  const all: Query = <R>(sql: string, ...params: unknown[]) =>
    Promise.resolve(db.prepare(sql).all(...params) as R[]);
  const reader = snapshotReader(all, SQLITE_DIALECT);
  const save = db.prepare(
    'INSERT INTO audit_checkpoints (seq, hash, state_json, verified_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT (seq) DO NOTHING',
  );
  return Promise.resolve({
    async snapshot<T>(fn: (r: SnapshotReader) => Promise<T>): Promise<T> {
      // Deferred: the snapshot is taken by the first read and takes no write lock.
      db.exec('BEGIN');
      try {
        return await fn(reader);
      } finally {
        db.exec('COMMIT');
      }
    },
    saveAuditCheckpoint(row: AuditCheckpointRow): Promise<void> {
      save.run(row.seq, row.hash, row.stateJson, row.verifiedAtMs);
      return Promise.resolve();
    },
    close(): Promise<void> {
      db.close();
      return Promise.resolve();
    },
  });
}

async function openPgAuditDb(
  location: Extract<StoreLocation, { engine: 'postgres' }>,
): Promise<AuditDb> {
  const client = new pg.Client({
    connectionString: location.url,
    // Named, so that an operator (and the fault tests) tell the audit apart in pg_stat_activity.
    application_name: AUDIT_APPLICATION_NAME,
    types: pgTypes,
    ...(location.schema === undefined ? {} : { options: `-c search_path=${location.schema}` }),
  });
  // A dropped connection fails the audit's next query; without a listener it would end the process.
  client.on('error', () => undefined);
  await client.connect();
  const all: Query = async <R>(sql: string, ...params: unknown[]) => {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    return (await client.query(text, params)).rows as R[];
  };
  const reader = snapshotReader(all, PG_DIALECT);
  return {
    async snapshot<T>(fn: (r: SnapshotReader) => Promise<T>): Promise<T> {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      try {
        return await fn(reader);
      } finally {
        await client.query('COMMIT');
      }
    },
    async saveAuditCheckpoint(row: AuditCheckpointRow): Promise<void> {
      await client.query(
        'INSERT INTO audit_checkpoints (seq, hash, state_json, verified_at_ms) VALUES ($1, $2, $3, $4) ON CONFLICT (seq) DO NOTHING',
        [row.seq, row.hash, row.stateJson, row.verifiedAtMs],
      );
    },
    close: () => client.end(),
  };
}
