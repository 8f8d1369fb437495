/**
 * The server's reads that cost more than a few milliseconds (game recall, a
 * table's day) run on worker threads with connections of their own
 * (read-worker.ts), never on the event loop that takes the bets: on SQLite a
 * read is synchronous and a day's report folds tens of thousands of bets.
 * Each worker opens its store on its first job and keeps it.
 */
import type { IsoDate } from '../compliance/index.js';
import { type Currency, StoreUnavailableError, type StoreLocation } from '../ledger/index.js';
import type { TableDayView } from './daily-report.js';
import type { RecalledRound } from './recall.js';
import { siblingModule, WorkerJobError, WorkerPool } from './worker-pool.js';

export type ReadJob =
  | { readonly kind: 'recall'; readonly tableId: string; readonly rounds: number }
  | { readonly kind: 'table-day'; readonly tableId: string; readonly date: IsoDate };

/** What a read worker is started with. */
export interface ReadWorkerInput {
  readonly location: StoreLocation;
  readonly currency: Currency;
}

/** Reads running at once in a process (one core each); more wait their turn. */
export const READ_WORKERS_MAX = 2;

export class ReadWorkers {
  private readonly pool: WorkerPool<ReadJob>;

  constructor(input: ReadWorkerInput, size = READ_WORKERS_MAX) {
    this.pool = new WorkerPool(siblingModule(import.meta.url, 'read-worker'), input, size);
  }

  /** recallRounds (recall.ts) on a worker. */
  recall(tableId: string, rounds: number): Promise<RecalledRound[] | undefined> {
    return this.run({ kind: 'recall', tableId, rounds });
  }

  /** readTableDay (daily-report.ts) on a worker, without the plain input it folded. */
  tableDay(tableId: string, date: IsoDate): Promise<TableDayView | undefined> {
    return this.run({ kind: 'table-day', tableId, date });
  }

  private async run<R>(job: ReadJob): Promise<R> {
    try {
      return await this.pool.run<R>(job);
    } catch (error) {
      // A database the worker cannot reach answers as one the server cannot: 503, retryable.
      if (error instanceof WorkerJobError && error.workerErrorName === 'StoreUnavailableError')
        throw new StoreUnavailableError(error.message, error);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
