/**
 * The export's worker thread: opens its own connection, writes one snapshot's
 * export to the file it is given, and posts what it wrote. Started by
 * exportJournal() in export-runner.ts, never imported.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { asStoreUnavailable, openAuditDb } from '../../ledger/index.js';
import { workerInput } from '../worker-pool.js';
import type { ExportJob, ExportReply } from './export-runner.js';
import type { LineSink } from './records.js';
import { ExportRequestError, writeExport } from './write-export.js';

/** Bytes gathered before a write: lines are small, system calls are not. */
const BUFFER_BYTES = 1 << 20;

/** A file written in large pieces; `flush` writes what is left. */
function fileSink(fd: number): LineSink & { flush(): void } {
  let parts: Buffer[] = [];
  let size = 0;
  const flush = (): void => {
    const bytes = Buffer.concat(parts, size);
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
    parts = [];
    size = 0;
  };
  return {
    write(bytes) {
      parts.push(bytes);
      size += bytes.length;
      if (size >= BUFFER_BYTES) flush();
    },
    flush,
  };
}

async function run(job: ExportJob): Promise<ExportReply> {
  try {
    return await exported(job);
  } catch (error) {
    if (error instanceof ExportRequestError)
      return { requestError: { code: error.code, message: error.message } };
    // A database that went away (restarted, terminated, unreachable) is a retryable answer, not a crash.
    const unavailable = asStoreUnavailable(error);
    if (unavailable !== undefined) return { unavailable: unavailable.message };
    throw error;
  }
}

async function exported(job: ExportJob): Promise<ExportReply> {
  const db = await openAuditDb(job.location);
  const fd = openSync(job.path, 'wx', 0o600);
  try {
    const sink = fileSink(fd);
    const summary = await db.snapshot((reader) =>
      writeExport(reader, job.currency, job.request, sink),
    );
    sink.flush();
    return { summary };
  } finally {
    closeSync(fd);
    await db.close();
  }
}

parentPort!.postMessage(await run(workerInput<ExportJob>()));
