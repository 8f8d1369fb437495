/**
 * Idempotency records are kept as long as a retry can come, and no longer: a
 * client retries a command within seconds to minutes (a lost answer, a node
 * restart, a lease moving), so a record older than the retry window is swept.
 * A retry older than the window is a new command (docs/ledger.md).
 */
import type { Store } from '../ledger/index.js';

/** How long an idempotency key answers with its first answer. */
export const COMMAND_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How often the sweep runs. */
export const COMMAND_SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** Records deleted per statement: a sweep never holds the write lock long. */
const SWEEP_BATCH_ROWS = 1_000;

/** Deletes every record older than the window, a batch at a time; how many it deleted. */
export async function sweepExpiredCommands(store: Store, nowMs: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await store.sweepCommands(nowMs - COMMAND_RETRY_WINDOW_MS, SWEEP_BATCH_ROWS);
    deleted += n;
    if (n < SWEEP_BATCH_ROWS) return deleted;
    // Between batches the table's commands get the write lock.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Sweeps now and every COMMAND_SWEEP_INTERVAL_MS; the stop function waits for a sweep under way. */
export function startCommandSweeper(
  store: Store,
  options: { readonly clock?: () => number; readonly onError: (error: unknown) => void },
): () => Promise<void> {
  const clock = options.clock ?? Date.now;
  let running: Promise<void> = Promise.resolve();
  let sweeping = false;
  const sweep = (): void => {
    // A sweep slower than the interval is not started twice.
    if (sweeping) return;
    sweeping = true;
    running = sweepExpiredCommands(store, clock())
      .then(() => undefined, options.onError)
      .finally(() => {
        sweeping = false;
      });
  };
  sweep();
  const timer = setInterval(sweep, COMMAND_SWEEP_INTERVAL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    return running;
  };
}
