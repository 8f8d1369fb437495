/**
 * Work that would hold the event loop (a day's bets folded into a report, a
 * bisection over a noncentral chi-square) runs on worker threads that stay up
 * between jobs, so the process that asks keeps answering bets meanwhile.
 *
 * A pool starts its workers on first use, at most `size` of them, or all of
 * them at once with `start` (a server, before it says it is ready, so that no
 * read pays for a thread's start), and hands each job to an idle one (the
 * others wait, first come first served). An idle worker does not keep the
 * process alive; a worker that dies fails the jobs it held and is replaced by
 * the next job.
 */
import { extname } from 'node:path';
import { parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * A worker's code, evaluated as CommonJS: from the sources (tests, tsx) it
 * registers tsx first so that the worker module can be TypeScript.
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const ready = workerData.module.endsWith('.ts')
  ? import('tsx/esm/api').then((tsx) => tsx.register())
  : Promise.resolve();
ready.then(() => import(workerData.module));
`;

/** `name` (a module beside `from`, without its extension) as a worker module URL, .ts or .js as `from` is. */
export function siblingModule(from: string, name: string): string {
  return new URL(`./${name}${extname(from)}`, from).href;
}

/** A worker thread running `module` (a URL), which reads `data` from workerData.data. */
export function startWorker(module: string, data: unknown): Worker {
  return new Worker(BOOTSTRAP, { eval: true, workerData: { module, data } });
}

/** What the worker module was started with (inside a worker). */
export function workerInput<T>(): T {
  return (workerData as { data: T }).data;
}

interface PostedError {
  readonly name: string;
  readonly message: string;
}

/**
 * What a worker posts back: a job's value, or its error's name and message;
 * and once, when it has loaded and warmed up, that it is ready (or why not).
 */
type Reply =
  | { readonly id: number; readonly value: unknown }
  | { readonly id: number; readonly error: PostedError }
  | { readonly ready: true }
  | { readonly ready: false; readonly error: PostedError };

function posted(error: unknown): PostedError {
  const { name, message } =
    error instanceof Error ? error : new Error(`worker job failed: ${String(error)}`);
  return { name, message };
}

/**
 * Inside a worker module: answers each job posted to it with `handle`, one at
 * a time (the pool never posts a second before the first is answered), and
 * says it is ready once `warm` (what its first job would otherwise wait for:
 * a connection) is done.
 */
export function serveJobs<J>(
  handle: (job: J) => Promise<unknown>,
  warm: () => Promise<void> = () => Promise.resolve(),
): void {
  parentPort!.on('message', (message: { id: number; job: J }) => {
    handle(message.job).then(
      (value) => parentPort!.postMessage({ id: message.id, value } satisfies Reply),
      (error: unknown) =>
        parentPort!.postMessage({ id: message.id, error: posted(error) } satisfies Reply),
    );
  });
  warm().then(
    () => parentPort!.postMessage({ ready: true } satisfies Reply),
    (error: unknown) =>
      parentPort!.postMessage({ ready: false, error: posted(error) } satisfies Reply),
  );
}

/** A job that failed in its worker: the worker's error name and message. */
export class WorkerJobError extends Error {
  constructor(
    readonly workerErrorName: string,
    message: string,
  ) {
    super(message);
  }
}

interface Pending {
  readonly id: number;
  readonly job: unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  busy: Pending | undefined;
  /** Settles when the worker says it is ready, or fails to be. */
  readonly ready: Promise<void>;
}

export class WorkerPool<J> {
  private readonly slots: Slot[] = [];
  private readonly waiting: Pending[] = [];
  private nextId = 1;
  private closed = false;

  /** `module`: the worker module's URL (see siblingModule); `data`: its workerInput. */
  constructor(
    private readonly module: string,
    private readonly data: unknown,
    private readonly size: number,
  ) {}

  /** Runs `job` on a worker; resolves with what the worker's handler returned. */
  run<R>(job: J): Promise<R> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({
        id: this.nextId++,
        job,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.dispatch();
    });
  }

  /**
   * Starts every worker the pool may have and resolves once each is ready
   * (its modules loaded, its warm-up done); rejects with a worker's
   * WorkerJobError if its warm-up failed (the worker stays: its next job tries again).
   */
  async start(): Promise<void> {
    if (this.closed) throw new Error('the worker pool is closed');
    while (this.slots.length < this.size) this.spawn();
    await Promise.all(
      this.slots.map(async (slot) => {
        // The process waits for a worker it is starting, as for one with a job.
        slot.worker.ref();
        try {
          await slot.ready;
        } finally {
          if (slot.busy === undefined) slot.worker.unref();
        }
      }),
    );
  }

  /** Ends every worker; jobs still waiting or running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const closed = new Error('the worker pool is closed');
    for (const p of this.waiting.splice(0)) p.reject(closed);
    const slots = this.slots.splice(0);
    for (const slot of slots) slot.busy?.reject(closed);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      const slot =
        this.slots.find((s) => s.busy === undefined) ??
        (this.slots.length < this.size ? this.spawn() : undefined);
      if (slot === undefined) return;
      const pending = this.waiting.shift()!;
      slot.busy = pending;
      // A worker with a job keeps the process alive until it answers.
      slot.worker.ref();
      slot.worker.postMessage({ id: pending.id, job: pending.job });
    }
  }

  private spawn(): Slot {
    const worker = startWorker(this.module, this.data);
    let ready!: { resolve: () => void; reject: (error: Error) => void };
    const slot: Slot = {
      worker,
      busy: undefined,
      ready: new Promise<void>((resolve, reject) => (ready = { resolve, reject })),
    };
    // Nobody need wait for it: a worker started by a job answers the job.
    slot.ready.catch(() => undefined);
    worker.on('message', (reply: Reply) => {
      if ('ready' in reply) {
        if (reply.ready) ready.resolve();
        else ready.reject(new WorkerJobError(reply.error.name, reply.error.message));
        return;
      }
      const pending = slot.busy;
      if (pending === undefined || pending.id !== reply.id) return;
      slot.busy = undefined;
      worker.unref();
      if ('error' in reply)
        pending.reject(new WorkerJobError(reply.error.name, reply.error.message));
      else pending.resolve(reply.value);
      this.dispatch();
    });
    const fail = (error: Error): void => {
      ready.reject(error);
      const index = this.slots.indexOf(slot);
      if (index < 0) return;
      this.slots.splice(index, 1);
      slot.busy?.reject(error);
      slot.busy = undefined;
      if (!this.closed) this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`a worker exited with code ${code}`)));
    worker.unref();
    this.slots.push(slot);
    return slot;
  }
}
