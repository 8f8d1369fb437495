/**
 * Runs an export on a worker thread with a connection of its own, over one
 * snapshot, like the audit: a serving node keeps answering bets while the
 * journal is read, and on SQLite the reads would otherwise hold its event
 * loop. The file is written beside its destination under another name and
 * renamed into place once whole, so a failed export leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, renameSync } from 'node:fs';
import { type Currency, type StoreLocation, StoreUnavailableError } from '../../ledger/index.js';
import { siblingModule, startWorker } from '../worker-pool.js';
import { CUSSEC_VERSION } from '../../version.js';
import { type ExportRequest, ExportRequestError, type ExportSummary } from './write-export.js';

/** What the worker is given. */
export interface ExportJob {
  readonly location: StoreLocation;
  readonly currency: Currency;
  readonly request: ExportRequest;
  /** Where the worker writes; it creates the file and refuses one that exists. */
  readonly path: string;
}

export type ExportReply =
  | { readonly summary: ExportSummary }
  | {
      readonly requestError: {
        readonly code: ExportRequestError['code'];
        readonly message: string;
      };
    }
  /** The database went away mid-export: StoreUnavailableError, retryable. */
  | { readonly unavailable: string };

/** Exports running at once in this process; one more is refused (ExportBusyError). */
export const EXPORTS_RUNNING_MAX = 2;

export class ExportBusyError extends Error {
  readonly code = 'export_busy';
}

let running = 0;

const WORKER_MODULE = siblingModule(import.meta.url, 'export-worker');

/** What the caller chooses of an export; the time and the generator are the runner's. */
export type ExportOptions = Pick<ExportRequest, 'fromSeq' | 'toSeq' | 'tableId'>;

/** Writes the export of `store`'s database to `path` (replacing a file there once it is whole). */
export async function exportJournal(
  store: { readonly location: StoreLocation; readonly currency: Currency },
  options: ExportOptions,
  path: string,
): Promise<ExportSummary> {
  if (running >= EXPORTS_RUNNING_MAX)
    throw new ExportBusyError(
      `${EXPORTS_RUNNING_MAX} exports are running already; try again later`,
    );
  running++;
  const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
  try {
    const request: ExportRequest = {
      ...options,
      exportedAtMs: Date.now(),
      generator: `cussec ${CUSSEC_VERSION}`,
    };
    const { location, currency } = store;
    const reply = await inWorker({ location, currency, request, path: partial });
    if ('requestError' in reply)
      throw new ExportRequestError(reply.requestError.code, reply.requestError.message);
    if ('unavailable' in reply) throw new StoreUnavailableError(reply.unavailable, undefined);
    renameSync(partial, path);
    return reply.summary;
  } finally {
    rmSync(partial, { force: true });
    running--;
  }
}

function inWorker(job: ExportJob): Promise<ExportReply> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(WORKER_MODULE, job);
    let replied = false;
    worker.once('message', (reply: ExportReply) => {
      replied = true;
      resolve(reply);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!replied) reject(new Error(`the export worker exited with code ${code} without a file`));
    });
  });
}
