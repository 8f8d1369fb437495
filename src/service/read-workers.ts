/**
 * The server's reads that cost more than a few milliseconds (game recall, a
 * table's day) run on worker threads with connections of their own
 * (read-worker.ts), never on the event loop that takes the bets: on SQLite a
 * read is synchronous and a day's report folds tens of thousands of bets.
 * Each worker opens its store as it starts (`start`, before the server says
 * it is ready) and keeps it.
 *
 * A table's day changes only with a settlement or a change of its settings,
 * so the last days read are kept with the seq of the table's newest such
 * entry (one indexed read) and read again only once a newer one is
 * journaled: the floor asks for every table's day after every burst of bets.
 * Read again, a day is not folded anew: its running tally (DayFold) goes to
 * the worker, which folds only the settlements since.
 */
import type { IsoDate } from '../compliance/index.js';
import { type IndexedJournalType, type Store, StoreUnavailableError } from '../ledger/index.js';
import type { DayFold, TableDay } from './daily-report.js';
import { lastIndexedEntry } from './indexed-journal.js';
import type { RecalledRound } from './recall.js';
import { siblingModule, WorkerJobError, WorkerPool } from './worker-pool.js';

export type ReadJob =
  | { readonly kind: 'recall'; readonly tableId: string; readonly rounds: number }
  | {
      readonly kind: 'table-day';
      readonly tableId: string;
      readonly date: IsoDate;
      /** The day's fold kept from its last read, if any: only what followed is folded. */
      readonly kept?: DayFold;
    };

/** A table-day job's answer: the day, and its fold to give the next job. */
export interface FoldedDay {
  readonly day: TableDay;
  readonly fold: DayFold;
}

/** What a read worker is started with: where the store is, and its currency. */
export type ReadWorkerInput = Pick<Store, 'location' | 'currency'>;

/** Reads running at once in a process (one core each); more wait their turn. */
export const READ_WORKERS_MAX = 2;

/** The entries that change a table's day once journaled (all in the index of migration 5). */
const DAY_CHANGES: readonly IndexedJournalType[] = [
  'round-settled',
  'table-created',
  'table-settings-changed',
];
/** Days kept (table and date); past it the oldest goes. */
const DAYS_KEPT_MAX = 256;

interface KeptDay {
  /** The seq of the table's newest DAY_CHANGES entry when the day was read. */
  readonly seq: number;
  readonly read: Promise<FoldedDay | undefined>;
}

export class ReadWorkers {
  private readonly pool: WorkerPool<ReadJob>;
  private readonly days = new Map<string, KeptDay>();

  /** `store`: the server's own, for the one indexed read that tells a kept day is current. */
  constructor(
    private readonly store: Store,
    size = READ_WORKERS_MAX,
  ) {
    const input: ReadWorkerInput = { location: store.location, currency: store.currency };
    this.pool = new WorkerPool(siblingModule(import.meta.url, 'read-worker'), input, size);
  }

  /**
   * Starts every worker and waits until each has its connection open: a
   * server does this before it says it is ready, so that no read after it
   * pays for a thread's start (which holds the event loop for tens of ms).
   */
  start(): Promise<void> {
    return unavailableAsStore(this.pool.start());
  }

  /** recallRounds (recall.ts) on a worker. */
  recall(tableId: string, rounds: number): Promise<RecalledRound[] | undefined> {
    return this.run({ kind: 'recall', tableId, rounds });
  }

  /** readTableDay (daily-report.ts) on a worker, from the day's running tally when one is kept. */
  async tableDay(tableId: string, date: IsoDate): Promise<TableDay | undefined> {
    // One type a query: the newest of several would sort every settlement of the table.
    const newest = await Promise.all(
      DAY_CHANGES.map((type) => lastIndexedEntry(this.store, tableId, [type])),
    );
    const seq = Math.max(0, ...newest.map((entry) => entry?.seq ?? 0));
    const key = `${tableId}\n${date}`;
    const kept = this.days.get(key);
    if (kept !== undefined && kept.seq === seq) return (await kept.read)?.day;
    // From the tally kept, once its read is done; from nothing if it failed or found no table.
    const read = (kept?.read ?? Promise.resolve(undefined))
      .catch(() => undefined)
      .then((last) =>
        this.run<FoldedDay | undefined>({
          kind: 'table-day',
          tableId,
          date,
          ...(last === undefined ? {} : { kept: last.fold }),
        }),
      );
    this.days.delete(key);
    if (this.days.size >= DAYS_KEPT_MAX) this.days.delete(this.days.keys().next().value!);
    this.days.set(key, { seq, read });
    // A failed read is not kept.
    read.catch(() => {
      if (this.days.get(key)?.read === read) this.days.delete(key);
    });
    return (await read)?.day;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private run<R>(job: ReadJob): Promise<R> {
    return unavailableAsStore(this.pool.run<R>(job));
  }
}

/** A database the worker cannot reach answers as one the server cannot: 503, retryable. */
async function unavailableAsStore<R>(work: Promise<R>): Promise<R> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof WorkerJobError && error.workerErrorName === 'StoreUnavailableError')
      throw new StoreUnavailableError(error.message, error);
    throw error;
  }
}
