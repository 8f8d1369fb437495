/**
 * Runs async critical sections one after another. better-sqlite3 has one
 * connection per handle, so two transactions in flight at once would
 * interleave their statements inside a single SQLite transaction.
 */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly waitingMax: number) {}

  /** Critical sections running or waiting. */
  get queued(): number {
    return this.waiting;
  }

  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.waiting >= this.waitingMax) {
      return Promise.reject(new Error(`store busy: ${this.waiting} transactions already waiting`));
    }
    this.waiting++;
    const result = this.tail.then(fn).finally(() => {
      this.waiting--;
    });
    this.tail = result.catch(() => undefined);
    return result;
  }
}
