/**
 * Runs the audit on a worker thread with a connection of its own, so the
 * process that asks (a serving node) keeps answering while it reads and hashes
 * the journal: on SQLite the reads are synchronous and would otherwise hold the
 * event loop for the whole audit.
 */
import type { ChainPoint } from '../journal/index.js';
import {
  type Currency,
  type Store,
  type StoreLocation,
  StoreUnavailableError,
} from '../ledger/index.js';
import { checkReadModels } from './read-model-check.js';
import { AuditCheckpointError, type AuditFrom, type AuditResult } from './audit.js';
import { siblingModule, startWorker } from './worker-pool.js';

export interface AuditOptions {
  /** Default 'genesis': the whole journal. */
  readonly from?: AuditFrom;
  /** Store the checkpoint a passing audit reached (default true). */
  readonly saveCheckpoint?: boolean;
}

/** What the worker is given. */
export interface AuditJob {
  readonly location: StoreLocation;
  readonly currency: Currency;
  readonly from: AuditFrom;
  readonly saveCheckpoint: boolean;
  readonly nowMs: number;
}

export type AuditReply =
  | { readonly result: AuditResult }
  | { readonly checkpointError: string }
  /** The database went away mid-audit: StoreUnavailableError, retryable. */
  | { readonly unavailable: string };

/** Audits running at once in this process; one more is refused (AuditBusyError). */
export const AUDITS_RUNNING_MAX = 2;

export class AuditBusyError extends Error {
  readonly code = 'audit_busy';
}

let running = 0;

const WORKER_MODULE = siblingModule(import.meta.url, 'audit-worker');

export async function audit(store: Store, options: AuditOptions = {}): Promise<AuditResult> {
  if (running >= AUDITS_RUNNING_MAX)
    throw new AuditBusyError(`${AUDITS_RUNNING_MAX} audits are running already; try again later`);
  running++;
  try {
    const job: AuditJob = {
      location: store.location,
      currency: store.currency,
      from: options.from ?? 'genesis',
      saveCheckpoint: options.saveCheckpoint ?? true,
      nowMs: Date.now(),
    };
    const reply = await inWorker(job);
    if ('checkpointError' in reply) throw new AuditCheckpointError(reply.checkpointError);
    if ('unavailable' in reply) throw new StoreUnavailableError(reply.unavailable, undefined);
    if (!reply.result.ok) return reply.result;
    // The kept read models (read_models) are checked against the journal up to
    // the seq each was kept at; the journal below the head never changes, so
    // this needs no snapshot of its own.
    const readModel = await checkReadModels(store);
    return readModel === null ? reply.result : { ok: false, failure: readModel };
  } finally {
    running--;
  }
}

function inWorker(job: AuditJob): Promise<AuditReply> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(WORKER_MODULE, job);
    let replied = false;
    worker.once('message', (reply: AuditReply) => {
      replied = true;
      resolve(reply);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!replied)
        reject(new Error(`the audit worker exited with code ${code} without a verdict`));
    });
  });
}

/** Parses `SEQ:HASH`, `latest` or `genesis` as given on a command line or in a query. */
export function parseAuditFrom(text: string): AuditFrom | undefined {
  if (text === 'latest' || text === 'genesis') return text;
  const match = /^(\d{1,15}):([0-9a-f]{64})$/.exec(text);
  if (match === null) return undefined;
  const point: ChainPoint = { seq: Number(match[1]), hash: match[2]! };
  return point;
}
