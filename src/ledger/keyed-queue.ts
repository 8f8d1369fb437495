/**
 * Runs async tasks one after another per key, and tasks of different keys
 * side by side. A key is what must not interleave: a table, whose decision
 * reads the state, decides and journals before the next one reads it; or a
 * SQLite file, whose one writer connection would otherwise mix the statements
 * of two transactions into one (a mutex is the one-key case).
 *
 * A task that fails rejects its own promise only: the next task of the key
 * still runs.
 */
export interface KeyedQueueOptions {
  /** Tasks of one key, running or waiting, beyond which run() refuses more. */
  readonly queuedMax?: number;
  /** The error a refused task rejects with, given how many are queued. */
  readonly busyError?: (queued: number) => Error;
}

interface Lane {
  tail: Promise<unknown>;
  queued: number;
}

export class KeyedQueue {
  private readonly lanes = new Map<string, Lane>();
  private readonly queuedMax: number;
  private readonly busyError: (queued: number) => Error;

  constructor(options: KeyedQueueOptions = {}) {
    this.queuedMax = options.queuedMax ?? Number.POSITIVE_INFINITY;
    this.busyError = options.busyError ?? ((n) => new Error(`queue busy: ${n} tasks waiting`));
  }

  /** Tasks of the key running or waiting. */
  queued(key: string): number {
    return this.lanes.get(key)?.queued ?? 0;
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const lane = this.lanes.get(key) ?? { tail: Promise.resolve(), queued: 0 };
    if (lane.queued >= this.queuedMax) return Promise.reject(this.busyError(lane.queued));
    this.lanes.set(key, lane);
    lane.queued++;
    const result = lane.tail.then(task).finally(() => {
      lane.queued--;
    });
    const tail = result.catch(() => undefined);
    lane.tail = tail;
    // Forget an idle key, so the map holds only keys with work in flight.
    void tail.then(() => {
      if (lane.queued === 0 && this.lanes.get(key) === lane) this.lanes.delete(key);
    });
    return result;
  }

  /** Resolves once every task queued so far for the key has finished. */
  async idle(key: string): Promise<void> {
    await this.lanes.get(key)?.tail;
  }
}
