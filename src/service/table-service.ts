/**
 * The table service: runs commands against tables. For each batch of commands
 * on a table it loads the state, runs the pure round machine, and writes the
 * new state, the transfers and the journal entries in ONE transaction; only
 * after the commit does it answer and publish the events.
 *
 * This class is the façade; each job is its own module under ./table/:
 * lanes.ts queues commands per table for group commit, run-batch.ts runs a
 * batch's transaction and what follows its commit, batch.ts applies the
 * commands inside it, idempotency.ts replays keyed commands, cache.ts keeps
 * the loaded tables, settings-changes.ts applies the table's own changes.
 */
import type { JournalEntry, JournalInput } from '../journal/index.js';
import { bankrollAccount, CAGE_ACCOUNT_ID, inPlayAccount, type Store } from '../ledger/index.js';
import { cryptoRandomSource } from '../dice/index.js';
import { processRollKeyring } from '../dice/roll-key.js';
import type { TableHold } from '../table/index.js';
import { initialHeader } from './round-snapshot.js';
import type { TableSettings } from './table-settings.js';
import { TableCache } from './table/cache.js';
import { Lanes } from './table/lanes.js';
import { runBatch } from './table/run-batch.js';
import type {
  BetAdmission,
  BetweenRoundsRecord,
  CommandOutcome,
  CommandRequest,
  CommandPlacement,
  CommitListener,
  HouseOptionsChange,
  LimitsChange,
  TableServiceOptions,
  TableSnapshot,
} from './table/types.js';

export type {
  BetAdmission,
  BatchTiming,
  BetweenRoundsRecord,
  CommandOutcome,
  CommandPlacement,
  CommandRequest,
  CommitListener,
  HoldRequest,
  HouseOptionsChange,
  LimitsChange,
  OpenRequest,
  PublishedEvent,
  ReleaseRequest,
  ServiceRejection,
  TableServiceOptions,
  TableSnapshot,
} from './table/types.js';

export class TableService {
  readonly store: Store;
  private readonly cache: TableCache;
  private readonly lanes: Lanes;
  private readonly commitListeners = new Set<CommitListener>();
  private readonly placement: CommandPlacement | undefined;
  private readonly admission: BetAdmission | undefined;
  private readonly clock: () => number;

  constructor(options: TableServiceOptions) {
    this.store = options.store;
    this.placement = options.placement;
    this.admission = options.admission;
    this.clock = options.clock ?? Date.now;
    const rollKeys = options.rollKeys ?? processRollKeyring();
    this.cache = new TableCache(options.store, rollKeys);
    const context = {
      store: options.store,
      clock: this.clock,
      random: options.random ?? cryptoRandomSource,
      rollKeys,
      cache: this.cache,
      publish: options.publish ?? (() => undefined),
      notifyCommit: (tableId: string, entries: readonly JournalEntry[]) =>
        this.notifyCommit(tableId, entries),
      observe: options.observe,
      placement: options.placement,
      admission: options.admission,
    };
    this.lanes = new Lanes({
      batchMax: options.batchCommandsMax ?? 2_000,
      queuedMax: options.queuedCommandsMax ?? 50_000,
      runBatch: (tableId, jobs) => runBatch(context, tableId, jobs),
      onFailure: (tableId) => this.cache.forget(tableId),
    });
  }

  /**
   * Creates a table with its in-play and bankroll accounts; "exists" leaves it
   * as it is. The journal names who created it when `createdBy` is given.
   */
  async createTable(settings: TableSettings, createdBy?: string): Promise<'created' | 'exists'> {
    return this.store.transaction(async (tx) => {
      await tx.createAccounts([
        { id: CAGE_ACCOUNT_ID, kind: 'cage' },
        inPlayAccount(settings.tableId),
        bankrollAccount(settings.tableId),
      ]);
      const created = await tx.createTable(settings.tableId, settings, initialHeader());
      if (created === 'created') {
        await tx.appendJournal([
          {
            tableId: settings.tableId,
            type: 'table-created',
            payload: createdBy === undefined ? { settings } : { settings, createdBy },
          },
        ]);
      }
      return created;
    });
  }

  /**
   * Runs a command once durable; a refusal is a value, a database failure
   * throws. On a floor it runs where the table's lease is held (placement).
   */
  execute(request: CommandRequest): Promise<CommandOutcome> {
    const { command } = request;
    const placement = this.placement;
    const here = placement === undefined || placement.epoch(request.tableId) !== undefined;
    if (command.type !== 'place-bet' || this.admission === undefined)
      return here ? this.executeHere(request) : this.placed(request, placement);
    // A bet asks who may play at once; here it queues meanwhile, keeping its place.
    const admitted = this.admission.admit(command.playerId, this.clock());
    admitted.catch(() => undefined);
    if (here) return this.executeHere({ ...request, admitted });
    return admitted.then((rejection) =>
      rejection === undefined ? this.placed(request, placement) : { ok: false, rejection },
    );
  }

  /** Passes the command to the lease holder, or runs it here when this node takes the lease. */
  private placed(request: CommandRequest, placement: CommandPlacement): Promise<CommandOutcome> {
    return placement
      .place(request)
      .then((placed) => (placed === 'here' ? this.executeHere(request) : placed));
  }

  /**
   * Runs a command on this node: a command another node passed here as the
   * lease holder, never passed on again. Its batch commits only under this
   * node's lease (the fence in run-batch.ts).
   */
  executeHere(request: CommandRequest): Promise<CommandOutcome> {
    return this.lanes.enqueue(request);
  }

  /** Changes a table's limits between rounds; journaled as table-settings-changed. */
  changeLimits(
    tableId: string,
    limits: LimitsChange['limits'],
    supervisorId: string,
  ): Promise<CommandOutcome> {
    return this.execute({ tableId, command: { type: 'change-limits', limits, supervisorId } });
  }

  /** Adopts house options between rounds (Art. 8); refused mid-round with `table_mid_round`. */
  changeHouseOptions(
    tableId: string,
    change: Omit<HouseOptionsChange, 'type'>,
  ): Promise<CommandOutcome> {
    return this.execute({ tableId, command: { type: 'change-house-options', ...change } });
  }

  /**
   * Journals entries between rounds, ordered with the table's events; refused
   * mid-round. With `releasesHold`, a held table is released in the same commit.
   */
  recordBetweenRounds(
    tableId: string,
    entries: readonly JournalInput[],
    releasesHold?: JournalInput,
  ): Promise<CommandOutcome> {
    const command: BetweenRoundsRecord = {
      type: 'record-between-rounds',
      entries,
      ...(releasesHold === undefined ? {} : { releasesHold }),
    };
    return this.execute({ tableId, command });
  }

  /** Holds the table between rounds (Art. 1.1), journaling `entries` when it was not held. */
  hold(
    tableId: string,
    hold: TableHold,
    entries: readonly JournalInput[],
  ): Promise<CommandOutcome> {
    return this.execute({ tableId, command: { type: 'hold-table', hold, entries } });
  }

  /** Opens or closes the table for play (see OpenRequest). */
  setOpen(tableId: string, open: boolean, supervisorId: string): Promise<CommandOutcome> {
    return this.execute({ tableId, command: { type: 'set-open', open, supervisorId } });
  }

  /** Releases a held table, journaling `entries`; refused with `table_not_held` otherwise. */
  release(tableId: string, entries: readonly JournalInput[]): Promise<CommandOutcome> {
    return this.execute({ tableId, command: { type: 'release-hold', entries } });
  }

  /** Subscribes to every commit's journal entries (see CommitListener); returns the unsubscribe. */
  onCommit(listener: CommitListener): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** The table's settings, state and exposure as of the last commit this node saw. */
  snapshot(tableId: string): Promise<TableSnapshot | undefined> {
    return this.cache.snapshot(tableId);
  }

  /** Stops taking commands and waits for every queued one to commit (graceful shutdown). */
  drainAll(): Promise<void> {
    return this.lanes.drainAll();
  }

  /** A listener's failure must not fail a batch that has committed. */
  private notifyCommit(tableId: string, entries: readonly JournalEntry[]): void {
    for (const listener of this.commitListeners) {
      try {
        listener(tableId, entries);
      } catch {
        // The listener owns its errors; the commands of the batch are durable either way.
      }
    }
  }
}
