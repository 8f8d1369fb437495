/**
 * WAL checkpoints on a connection of their own, in a worker thread.
 *
 * A checkpoint copies the pages the commits wrote to the WAL back into the
 * database file and syncs it: milliseconds during which, on the writer's
 * thread, every command queued behind it waited, and a settlement or a batch
 * of bets took the blame. In WAL mode a checkpoint takes no write lock, so on
 * another thread (another core) it runs beside the commits; PASSIVE mode never
 * waits for a reader or a writer, and what it cannot copy yet the next one does.
 *
 * The writer keeps its automatic checkpoint as a backstop, far higher, for
 * when the worker cannot keep up or could not start.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** After a commit, wait this long so that one checkpoint serves the commits of the next moment. */
const DELAY_MS = 50;
/** How long close() waits for the worker to close its connection before stopping it. */
const CLOSE_WAIT_MS = 5_000;

/**
 * The worker's code, evaluated as CommonJS so that it runs the same from the
 * sources (tests, tsx) and from dist. It answers every message but "close"
 * with one checkpoint.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  let failed = null;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    failed = String(error && error.message);
  }
  parentPort.postMessage(failed);
});
`;

const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');

export class SqliteCheckpointer {
  private worker: Worker | undefined;
  private exited: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly path: string,
    private readonly busyTimeoutMs: number,
  ) {}

  /** Called after each commit: one checkpoint shortly, for this commit and the next few. */
  schedule(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, DELAY_MS);
    this.timer.unref();
  }

  private run(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.started().postMessage('checkpoint');
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: driverPath, path: this.path, busyTimeoutMs: this.busyTimeoutMs },
    });
    worker.unref();
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', () => {
      // A failed checkpoint (a busy file, say) is retried by the next commit's schedule.
      this.running = false;
      if (this.again) {
        this.again = false;
        this.run();
      }
    });
    // A worker that cannot run leaves the writer's automatic checkpoint to do the work.
    worker.on('error', () => {
      this.stopped = true;
    });
    this.worker = worker;
    return worker;
  }

  /** Stops scheduling and lets the worker close its connection. */
  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const worker = this.worker;
    if (worker === undefined) return;
    worker.postMessage('close');
    const timeout = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS);
    await this.exited;
    clearTimeout(timeout);
  }
}
