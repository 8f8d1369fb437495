/**
 * Reads by key that go to the database together: every request reads its
 * session, so under load the reads asked in the same turn of the event loop,
 * and those that wait while others are in flight, become one statement for
 * many keys, not a statement (and a round trip, and a database backend's
 * parse and plan) a request.
 *
 * A read is sent after its call, never answered from one sent before it: it
 * sees everything committed before it was asked (a logout on any node).
 */
interface Waiter<R> {
  readonly resolve: (row: R | undefined) => void;
  readonly reject: (error: unknown) => void;
}

export class BatchedReads<R> {
  private waiting = new Map<string, Waiter<R>[]>();
  private inFlight = 0;
  private scheduled = false;

  /**
   * `read` answers the rows of the keys it finds, by key; `inFlightMax`
   * statements run at once at most, each for `batchMax` keys at most.
   */
  constructor(
    private readonly read: (keys: readonly string[]) => Promise<ReadonlyMap<string, R>>,
    private readonly inFlightMax = 2,
    private readonly batchMax = 500,
  ) {}

  /** The row of the key, as read by a statement sent after this call. */
  get(key: string): Promise<R | undefined> {
    return new Promise<R | undefined>((resolve, reject) => {
      const waiters = this.waiting.get(key);
      if (waiters === undefined) this.waiting.set(key, [{ resolve, reject }]);
      else waiters.push({ resolve, reject });
      // The first key waits for the end of this turn of the event loop: the requests
      // whose bytes came in the same turn send one statement, not one each.
      if (!this.scheduled && this.inFlight < this.inFlightMax) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    if (this.inFlight >= this.inFlightMax || this.waiting.size === 0) return;
    let batch = this.waiting;
    if (batch.size <= this.batchMax) this.waiting = new Map();
    else {
      batch = new Map();
      for (const [key, waiters] of this.waiting) {
        if (batch.size === this.batchMax) break;
        batch.set(key, waiters);
        this.waiting.delete(key);
      }
    }
    this.inFlight++;
    const keys = [...batch.keys()];
    Promise.resolve()
      .then(() => this.read(keys))
      .then(
        (rows) => {
          for (const [key, waiters] of batch) for (const w of waiters) w.resolve(rows.get(key));
        },
        (error: unknown) => {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
        },
      )
      .finally(() => {
        this.inFlight--;
        this.flush();
      });
  }
}
