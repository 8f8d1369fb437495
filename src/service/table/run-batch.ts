/**
 * Runs one lane's batch: the transaction (a second attempt posting money
 * command by command when the first found a wallet short), then, once
 * committed, the cache, the published events, the commit listeners, the
 * answers and the timings, in that order.
 */
import { DEFAULT_LARGE_CASH_THRESHOLD_MINOR } from '../../compliance/index.js';
import type { JournalEntry } from '../../journal/index.js';
import type { RandomSource, SealedRoll } from '../../dice/index.js';
import type { RollKeyring } from '../../dice/roll-key.js';
import { type Store, StoreUnavailableError, type Tx } from '../../ledger/index.js';
import { BatchRun, type BatchOptions, DeferredMoneyRefused } from './batch.js';
import type { TableCache } from './cache.js';
import { rebuildReplays, type Replay } from './idempotency.js';
import type { Job } from './lanes.js';
import {
  type BetAdmission,
  type BatchTiming,
  type CommandOutcome,
  type CommandPlacement,
  type PublishedEvent,
  refused,
  type TableSnapshot,
} from './types.js';

export interface BatchContext {
  readonly store: Store;
  readonly clock: () => number;
  readonly random: RandomSource;
  readonly rollKeys: RollKeyring;
  readonly cache: TableCache;
  readonly publish: (tableId: string, events: readonly PublishedEvent[]) => void;
  readonly notifyCommit: (tableId: string, entries: readonly JournalEntry[]) => void;
  readonly observe: ((timing: BatchTiming) => void) | undefined;
  readonly placement: CommandPlacement | undefined;
  /** Who is barred when a round is paid (Lei 10/2012, art. 11); none without it. */
  readonly admission: BetAdmission | undefined;
}

interface BatchResult {
  readonly outcomes: CommandOutcome[];
  readonly published: readonly PublishedEvent[];
  readonly journaled: readonly JournalEntry[];
  readonly replays: readonly Replay[];
  readonly saved?: TableSnapshot;
}

export async function runBatch(
  ctx: BatchContext,
  tableId: string,
  jobs: readonly Job[],
): Promise<void> {
  const now = ctx.clock();
  // A second attempt of the batch shakes the same dice as the first.
  const seals = new Map<number, SealedRoll>();
  const largeCashThresholdMinor =
    ctx.admission === undefined
      ? DEFAULT_LARGE_CASH_THRESHOLD_MINOR[ctx.store.currency]
      : await ctx.admission.largeCashThresholdMinor();
  const attempt = (deferMoney: boolean) =>
    ctx.store.transaction(
      (tx) =>
        batchInTx(ctx, tx, tableId, jobs, now, {
          deferMoney,
          seals,
          barred:
            ctx.admission === undefined ? undefined : (ids) => ctx.admission!.barred(ids, now),
          largeCashThresholdMinor,
        }),
      { nowMs: now },
    );
  let result: BatchResult;
  const began = performance.now();
  try {
    result = await attempt(true);
  } catch (error) {
    if (!(error instanceof DeferredMoneyRefused)) throw error;
    // A wallet could not pay: post command by command, so that only its bet is refused.
    result = await attempt(false);
  }
  const committed = performance.now();
  // Replayed answers name their events by journal seq; read them now the batch has committed.
  await rebuildReplays(ctx.store, result.outcomes, result.replays);
  // The betting timer (Art. 3.1) runs in the Floor, on the node holding the table's lease.
  if (result.saved !== undefined) ctx.cache.set(result.saved);
  if (result.published.length > 0) ctx.publish(tableId, result.published);
  if (result.journaled.length > 0) ctx.notifyCommit(tableId, result.journaled);
  jobs.forEach((job, i) => job.resolve(result.outcomes[i]!));
  if (ctx.observe !== undefined) {
    const answered = performance.now();
    ctx.observe({
      tableId,
      commitMs: committed - began,
      commands: jobs.map((j) => ({
        type: j.request.command.type,
        answeredMs: answered - j.arrivedMs,
      })),
    });
  }
}

async function batchInTx(
  ctx: BatchContext,
  tx: Tx,
  tableId: string,
  jobs: readonly Job[],
  now: number,
  options: BatchOptions,
): Promise<BatchResult> {
  const record = await tx.loadTable(tableId, { lock: 'exclusive' });
  if (record !== undefined && ctx.placement !== undefined) {
    // The fence: the row is locked until commit, so a lease taken by another node since
    // (a higher epoch) cannot be missed, and a holder that lost it writes nothing.
    const epoch = ctx.placement.epoch(tableId);
    if (epoch !== record.leaseEpoch)
      throw new StoreUnavailableError(
        `table ${tableId}: this node no longer holds its lease (epoch ${String(epoch)}, table at ${record.leaseEpoch}); retry`,
        undefined,
        'table_moving',
      );
  }
  if (record === undefined) {
    return {
      outcomes: jobs.map(() => refused('unknown_table', `there is no table "${tableId}"`)),
      published: [],
      journaled: [],
      replays: [],
    };
  }
  const before = await ctx.cache.of(record);
  const run = new BatchRun(tx, before, now, ctx.random, options);
  await run.keys.lookUp(
    tx,
    jobs.map((job) => job.request),
  );
  const outcomes: CommandOutcome[] = [];
  for (const job of jobs) outcomes.push(await run.apply(job.request));
  const published = await run.commit(outcomes);
  const saved = await run.save(record.version, ctx.rollKeys);
  return { outcomes, published, journaled: run.journaled, replays: run.keys.replays, saved };
}
