/**
 * The audit's worker thread: opens its own connection, audits one snapshot,
 * stores the checkpoint it verified (when asked) and posts the verdict.
 * Started by audit() in audit-runner.ts, never imported.
 */
import { parentPort } from 'node:worker_threads';
import { asStoreUnavailable, openAuditDb } from '../ledger/index.js';
import { AuditCheckpointError, auditSnapshot } from './audit.js';
import type { AuditJob, AuditReply } from './audit-runner.js';
import { workerInput } from './worker-pool.js';

async function run(job: AuditJob): Promise<AuditReply> {
  try {
    return await audited(job);
  } catch (error) {
    if (error instanceof AuditCheckpointError) return { checkpointError: error.message };
    // A database that went away (restarted, terminated, unreachable) is a retryable answer, not a crash.
    const unavailable = asStoreUnavailable(error);
    if (unavailable !== undefined) return { unavailable: unavailable.message };
    throw error;
  }
}

async function audited(job: AuditJob): Promise<AuditReply> {
  const db = await openAuditDb(job.location);
  try {
    const { result, checkpoint } = await db.snapshot((reader) =>
      auditSnapshot(reader, job.currency, job.from, job.nowMs),
    );
    // The verdict stands without its checkpoint (a read-only database user, a
    // write lock held past the timeout): the next audit then starts further back.
    if (job.saveCheckpoint && checkpoint !== undefined)
      await db.saveAuditCheckpoint(checkpoint).catch(() => undefined);
    return { result };
  } finally {
    await db.close();
  }
}

parentPort!.postMessage(await run(workerInput<AuditJob>()));
