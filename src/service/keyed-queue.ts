/**
 * Runs async tasks one after another per key (a table): a decision reads the
 * state, decides and journals before the next one reads it.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    // Forget an idle key, so the map holds only tables with work in flight.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once every task queued so far for the key has finished. */
  async idle(key: string): Promise<void> {
    await this.tails.get(key);
  }
}
