/**
 * Group commit: each table has a lane, a queue of commands with at most one
 * batch running. The lane takes everything queued (up to the batch limit) as
 * one batch; commands that arrive while it commits wait for the next one, so
 * under load one commit carries many commands, each answered once durable.
 */
import { type CommandOutcome, type CommandRequest, refused } from './types.js';

export interface Job {
  readonly request: CommandRequest;
  /** performance.now() when the command reached the service. */
  readonly arrivedMs: number;
  readonly resolve: (outcome: CommandOutcome) => void;
  readonly reject: (error: unknown) => void;
}

interface Lane {
  queue: Job[];
  running: boolean;
}

export interface LaneOptions {
  /** Commands in one batch at most. */
  readonly batchMax: number;
  /** Commands waiting per table at most; beyond it a command is refused at once. */
  readonly queuedMax: number;
  /**
   * Runs one batch and settles each of its jobs; a rejection of the promise
   * fails every job of the batch.
   */
  readonly runBatch: (tableId: string, jobs: readonly Job[]) => Promise<void>;
  /** Called when a batch failed, before its jobs are rejected. */
  readonly onFailure: (tableId: string) => void;
}

export class Lanes {
  private readonly lanes = new Map<string, Lane>();
  private accepting = true;

  constructor(private readonly options: LaneOptions) {}

  /** Queues a command; its promise settles once the batch that takes it commits. */
  enqueue(request: CommandRequest): Promise<CommandOutcome> {
    if (!this.accepting) {
      return Promise.resolve(
        refused('shutting_down', 'the server is shutting down; try again shortly'),
      );
    }
    const lane = this.lane(request.tableId);
    if (lane.queue.length >= this.options.queuedMax) {
      return Promise.resolve(refused('table_busy', 'too many commands are waiting at this table'));
    }
    return new Promise<CommandOutcome>((resolve, reject) => {
      lane.queue.push({ request, arrivedMs: performance.now(), resolve, reject });
      if (!lane.running) this.drain(request.tableId, lane);
    });
  }

  /** Stops taking commands and waits for every queued one to commit (graceful shutdown). */
  async drainAll(): Promise<void> {
    this.accepting = false;
    while ([...this.lanes.values()].some((l) => l.running || l.queue.length > 0)) {
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  private lane(tableId: string): Lane {
    let lane = this.lanes.get(tableId);
    if (lane === undefined) {
      lane = { queue: [], running: false };
      this.lanes.set(tableId, lane);
    }
    return lane;
  }

  /** Runs batches until the lane is empty; each batch is one transaction. */
  private drain(tableId: string, lane: Lane): void {
    lane.running = true;
    // setImmediate lets the commands that arrive in the same turn join the batch.
    setImmediate(() => {
      const jobs = lane.queue.splice(0, this.options.batchMax);
      this.options
        .runBatch(tableId, jobs)
        .catch((error: unknown) => {
          this.options.onFailure(tableId);
          for (const job of jobs) job.reject(error);
        })
        .finally(() => {
          if (lane.queue.length > 0) this.drain(tableId, lane);
          else lane.running = false;
        });
    });
  }
}
