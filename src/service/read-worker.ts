/**
 * A read worker (see read-workers.ts): opens the store it is given as it
 * starts (on PostgreSQL with the server's own timeouts), keeps it, and
 * answers recall and day reads (from a day's running tally when it is given
 * one) with the same code the command line runs. Started by a WorkerPool,
 * never imported.
 */
import { openPgStore, openSqliteStore, type Store } from '../ledger/index.js';
import { foldTableDay } from './daily-report.js';
import type { ReadJob, ReadWorkerInput } from './read-workers.js';
import { recallRounds } from './recall.js';
import { serveJobs, workerInput } from './worker-pool.js';

const { location, currency } = workerInput<ReadWorkerInput>();
let opened: Promise<Store> | undefined;

/** One connection is enough: the worker runs one job at a time. A failed open is tried again. */
function store(): Promise<Store> {
  opened ??= (
    location.engine === 'sqlite'
      ? openSqliteStore({ path: location.path, currency })
      : openPgStore({
          url: location.url,
          currency,
          poolConnectionsMax: 1,
          timeouts: location.timeouts,
          ...(location.schema === undefined ? {} : { schema: location.schema }),
        })
  ).catch((error: unknown) => {
    opened = undefined;
    throw error;
  });
  return opened;
}

serveJobs<ReadJob>(
  async (job) => {
    switch (job.kind) {
      case 'recall':
        return recallRounds(await store(), job.tableId, job.rounds);
      case 'table-day':
        return foldTableDay(await store(), job.tableId, job.date, job.kept);
    }
  },
  async () => {
    // Ready with its connection open: the first read waits for neither.
    await store();
  },
);
