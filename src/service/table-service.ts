/**
 * The table service: runs commands against tables. For each batch of commands
 * on a table it loads the state, runs the pure round machine, and writes the
 * new state, the transfers and the journal entries in ONE transaction; only
 * after the commit does it answer and publish the events.
 *
 * Commands on a table queue up while a batch commits, and the next batch takes
 * them all (group commit): under load a commit carries many bets, each
 * acknowledged only once durable.
 */
import {
  hashRequest,
  isRoundEventEntry,
  type JournalEntry,
  type JournalInput,
  typedRecord,
} from '../journal/index.js';
import {
  bankrollAccount,
  CAGE_ACCOUNT_ID,
  type CommandKey,
  type CommandLookup,
  inPlayAccount,
  type Store,
  type TableRecord,
  type TransferInput,
  type Tx,
  walletAccount,
} from '../ledger/index.js';
import { ExposureBook } from '../math/index.js';
import { cryptoRandomSource, type RandomSource, type SealedRoll, sealRoll } from '../dice/index.js';
import {
  type Command,
  holdTable,
  releaseHold,
  type RoundEvent,
  type RoundState,
  type TableConfig,
  type TableHold,
  transition,
} from '../table/index.js';
import { processRollKeyring, type RollKeyring } from '../dice/roll-key.js';
import { transfersFor } from './money.js';
import {
  initialHeader,
  loadRoundState,
  RECENT_ROUNDS_MAX,
  type RoundHeader,
  toHeader,
} from './round-snapshot.js';
import { loadedHeader, parseStoredHeader, storedHeader } from './stored-header.js';
import {
  type OptionsAuthorization,
  parseTableSettings,
  readStoredSettings,
  settingsDocument,
  type TableSettings,
  toTableConfig,
} from './table-settings.js';

/** A refusal as clients see it: a stable code, a sentence and, where a rule applies, its article. */
export interface ServiceRejection {
  readonly code: string;
  readonly message: string;
  readonly article?: string;
}

export interface PublishedEvent {
  /** The journal seq of the event: clients resume after it. */
  readonly seq: number;
  readonly event: RoundEvent;
}

export type CommandOutcome =
  | {
      readonly ok: true;
      readonly events: readonly PublishedEvent[];
      /**
       * For a placed or withdrawn bet: the player's wallet balance right after
       * it, in ledger order, even when later bets of the player share its commit.
       */
      readonly balanceMinor?: number;
    }
  | { readonly ok: false; readonly rejection: ServiceRejection };

/** A change of a table's limits, which takes effect between rounds only. */
export interface LimitsChange {
  readonly type: 'change-limits';
  readonly limits: Partial<
    Pick<TableSettings, 'stakeMinorMin' | 'stakeMinorMax' | 'liabilityMinorMax' | 'bettingTimerMs'>
  >;
  readonly supervisorId: string;
}

/**
 * Art. 8: house options adopted by the compliance workflow take effect between
 * rounds only. The workflow's entries (house-options-adopted) are journaled in
 * the same transaction as the table-settings-changed they cause.
 */
export interface HouseOptionsChange {
  readonly type: 'change-house-options';
  readonly options: Pick<TableSettings, 'shaker' | 'displayBoard' | 'paytable'>;
  /** The recorded DICJ authorization of the adopted proposal: the options carry it from now on. */
  readonly authorization: OptionsAuthorization;
  readonly changedBy: string;
  readonly entries: readonly JournalInput[];
}

/** Entries that belong between two rounds, in the table's order of events (a change of dice). */
export interface BetweenRoundsRecord {
  readonly type: 'record-between-rounds';
  readonly entries: readonly JournalInput[];
  /** Journaled, and the table's hold released, when the table is held (new dice, Art. 1.1). */
  readonly releasesHold?: JournalInput;
}

/**
 * Art. 1.1: a severe fairness alert holds the table (see src/table/hold.ts).
 * Accepted in any phase: the round in progress is finished, no new one starts.
 * A table already held keeps its first hold and nothing is journaled.
 */
export interface HoldRequest {
  readonly type: 'hold-table';
  readonly hold: TableHold;
  readonly entries: readonly JournalInput[];
}

/** Releases a held table (a supervisor's acknowledgement); `table_not_held` when it is not. */
export interface ReleaseRequest {
  readonly type: 'release-hold';
  readonly entries: readonly JournalInput[];
}

/** Called after every commit of a table with all the journal entries it wrote, in seq order. */
export type CommitListener = (tableId: string, entries: readonly JournalEntry[]) => void;

export interface CommandRequest {
  readonly tableId: string;
  /** A round command; `trigger-shaker` needs no sealed roll: the service draws and seals it. */
  readonly command:
    | Command
    | { readonly type: 'trigger-shaker'; readonly croupierId?: string }
    | LimitsChange
    | HouseOptionsChange
    | BetweenRoundsRecord
    | HoldRequest
    | ReleaseRequest;
  /** A client's key for retries: the same key returns the first outcome. */
  readonly idempotencyKey?: string;
}

export interface TableServiceOptions {
  readonly store: Store;
  readonly clock?: () => number;
  /** The electronic shaker's randomness (Art. 2.1); the CSPRNG unless a test injects one. */
  readonly random?: RandomSource;
  /**
   * Seals the stored roll (docs/dice.md). Every node of a floor needs the same;
   * without one, a key for this process only.
   */
  readonly rollKeys?: RollKeyring;
  /** Called after every commit with the events it made durable, in journal order. */
  readonly publish?: (tableId: string, events: readonly PublishedEvent[]) => void;
  /** Commands in one transaction at most. */
  readonly batchCommandsMax?: number;
  /** Commands waiting per table at most; beyond it a command is refused at once. */
  readonly queuedCommandsMax?: number;
  /** Told the timings of every committed batch (the metrics). */
  readonly observe?: (timing: BatchTiming) => void;
}

/** How long a committed batch took: its transaction, and each command from arrival to answer. */
export interface BatchTiming {
  readonly tableId: string;
  readonly commitMs: number;
  readonly commands: readonly { readonly type: string; readonly answeredMs: number }[];
}

interface Loaded {
  readonly version: number;
  readonly settings: TableSettings;
  readonly config: TableConfig;
  readonly state: RoundState;
  readonly header: RoundHeader;
  readonly book: ExposureBook;
}

interface Job {
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

export class TableService {
  readonly store: Store;
  private readonly clock: () => number;
  private readonly random: RandomSource;
  private readonly rollKeys: RollKeyring;
  private readonly publish: NonNullable<TableServiceOptions['publish']>;
  private readonly observe: TableServiceOptions['observe'];
  private readonly batchMax: number;
  private readonly queuedMax: number;
  private readonly cache = new Map<string, Loaded>();
  private readonly lanes = new Map<string, Lane>();
  private readonly commitListeners = new Set<CommitListener>();
  private accepting = true;

  constructor(options: TableServiceOptions) {
    this.store = options.store;
    this.clock = options.clock ?? Date.now;
    this.random = options.random ?? cryptoRandomSource;
    this.rollKeys = options.rollKeys ?? processRollKeyring();
    this.publish = options.publish ?? (() => undefined);
    this.observe = options.observe;
    this.batchMax = options.batchCommandsMax ?? 2_000;
    this.queuedMax = options.queuedCommandsMax ?? 50_000;
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

  /** Runs a command once durable; a refusal is a value, a database failure throws. */
  execute(request: CommandRequest): Promise<CommandOutcome> {
    if (!this.accepting) {
      return Promise.resolve(
        refused('shutting_down', 'the server is shutting down; try again shortly'),
      );
    }
    const lane = this.lane(request.tableId);
    if (lane.queue.length >= this.queuedMax) {
      return Promise.resolve(refused('table_busy', 'too many commands are waiting at this table'));
    }
    return new Promise<CommandOutcome>((resolve, reject) => {
      lane.queue.push({ request, arrivedMs: performance.now(), resolve, reject });
      if (!lane.running) this.drain(request.tableId, lane);
    });
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
  async snapshot(tableId: string): Promise<Loaded | undefined> {
    const cached = this.cache.get(tableId);
    const record = await this.store.getTable(tableId);
    if (record === undefined) return undefined;
    if (cached !== undefined && cached.version === record.version) return cached;
    const loaded = await this.load(record);
    this.cache.set(tableId, loaded);
    return loaded;
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
      const jobs = lane.queue.splice(0, this.batchMax);
      this.runBatch(tableId, jobs)
        .catch((error: unknown) => {
          this.cache.delete(tableId);
          for (const job of jobs) job.reject(error);
        })
        .finally(() => {
          if (lane.queue.length > 0) this.drain(tableId, lane);
          else lane.running = false;
        });
    });
  }

  private async runBatch(tableId: string, jobs: readonly Job[]): Promise<void> {
    const now = this.clock();
    // A second attempt of the batch shakes the same dice as the first.
    const seals = new Map<number, SealedRoll>();
    const attempt = (deferMoney: boolean) =>
      this.store.transaction(
        (tx) => this.batchInTx(tx, tableId, jobs, now, { deferMoney, seals }),
        { nowMs: now },
      );
    let result: Awaited<ReturnType<typeof attempt>>;
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
    await this.rebuildReplays(result.outcomes, result.replays);
    if (result.loaded !== undefined) {
      // The betting timer (Art. 3.1) runs in the Floor, on the node holding the table's lease.
      this.cache.set(tableId, result.loaded);
    }
    if (result.published.length > 0) this.publish(tableId, result.published);
    if (result.journaled.length > 0) this.notifyCommit(tableId, result.journaled);
    jobs.forEach((job, i) => job.resolve(result.outcomes[i]!));
    if (this.observe !== undefined) {
      const answered = performance.now();
      this.observe({
        tableId,
        commitMs: committed - began,
        commands: jobs.map((j) => ({
          type: j.request.command.type,
          answeredMs: answered - j.arrivedMs,
        })),
      });
    }
  }

  /**
   * Turns each replayed record of seqs back into the answer it was: the events
   * are the journal's entries at those seqs, which never change once written.
   */
  private async rebuildReplays(
    outcomes: CommandOutcome[],
    replays: readonly Replay[],
  ): Promise<void> {
    for (const { index, eventSeqs, balanceMinor } of replays) {
      const events: PublishedEvent[] = [];
      if (eventSeqs.length > 0) {
        const fromSeq = Math.min(...eventSeqs);
        const limit = Math.max(...eventSeqs) - fromSeq + 1;
        const bySeq = new Map(
          (await this.store.readJournal({ fromSeq, limit })).map((e) => [e.seq, e]),
        );
        for (const seq of eventSeqs) {
          const entry = bySeq.get(seq);
          if (entry === undefined || !isRoundEventEntry(entry))
            throw new Error(`replay: journal entry ${seq} is missing or not a round event`);
          events.push({ seq, event: entry.payload });
        }
      }
      outcomes[index] =
        balanceMinor === undefined ? { ok: true, events } : { ok: true, events, balanceMinor };
    }
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

  private async batchInTx(
    tx: Tx,
    tableId: string,
    jobs: readonly Job[],
    now: number,
    options: BatchOptions,
  ): Promise<{
    outcomes: CommandOutcome[];
    published: PublishedEvent[];
    journaled: readonly JournalEntry[];
    replays: readonly Replay[];
    loaded?: Loaded;
  }> {
    const record = await tx.loadTable(tableId, { lock: 'exclusive' });
    if (record === undefined) {
      return {
        outcomes: jobs.map(() => refused('unknown_table', `there is no table "${tableId}"`)),
        published: [],
        journaled: [],
        replays: [],
      };
    }
    const before = await this.loadCached(record);
    const run = new BatchRun(tx, before, now, this.random, options);
    await run.lookUpKeys(jobs.map((job) => job.request));
    const outcomes: CommandOutcome[] = [];
    for (const job of jobs) outcomes.push(await run.apply(job.request));
    const published = await run.commit(outcomes);
    const loaded = await run.save(record.version, this.rollKeys);
    return { outcomes, published, journaled: run.journaled, replays: run.replays, loaded };
  }

  private async loadCached(record: TableRecord): Promise<Loaded> {
    const cached = this.cache.get(record.id);
    return cached !== undefined && cached.version === record.version ? cached : this.load(record);
  }

  private async load(record: TableRecord): Promise<Loaded> {
    const settings = readStoredSettings(record.config, `table ${record.id}`);
    const config = toTableConfig(settings);
    const header = loadedHeader(parseStoredHeader(record.state, record.id), this.rollKeys);
    const state = await loadRoundState(this.store, record.id, header);
    return {
      version: record.version,
      settings,
      config,
      header,
      state,
      book: ExposureBook.of(config.paytable, state.bets),
    };
  }
}

interface BatchOptions {
  /**
   * Post the transfers of all the batch's commands in one call at the end
   * rather than one call a command: far fewer statements under load. When any
   * transfer fails, DeferredMoneyRefused rolls the transaction back and the
   * batch runs again without deferring, which refuses exactly the commands a
   * command-by-command run refuses.
   */
  readonly deferMoney: boolean;
  /** Seals drawn by trigger-shaker, by position in the batch, kept across attempts. */
  readonly seals: Map<number, SealedRoll>;
}

class DeferredMoneyRefused extends Error {
  constructor() {
    super('a deferred transfer of the batch failed; the batch runs again command by command');
  }
}

/**
 * What an idempotency record keeps of an answer. An accepted command's events
 * are in the journal already (a reveal's round-settled holds a return for each
 * bet of the round): the record keeps their seqs and a replay reads them back.
 * Refusals are small and kept whole, and so are records written before this
 * form, which hold the whole answer.
 */
type StoredOutcome =
  | CommandOutcome
  | { readonly ok: true; readonly eventSeqs: readonly number[]; readonly balanceMinor?: number };

function storedOutcome(outcome: CommandOutcome): StoredOutcome {
  if (!outcome.ok) return outcome;
  const eventSeqs = outcome.events.map((e) => e.seq);
  const { balanceMinor } = outcome;
  return balanceMinor === undefined
    ? { ok: true, eventSeqs }
    : { ok: true, eventSeqs, balanceMinor };
}

/** A replayed command whose record names its events by seq (see StoredOutcome). */
interface Replay {
  readonly index: number;
  readonly eventSeqs: readonly number[];
  readonly balanceMinor?: number;
}

/** A command's events, waiting for the journal, with what they move in and out of wallets. */
interface Pending {
  readonly outcomeIndex: number;
  readonly events: RoundEvent[];
  /** The wallet of the player whose bet this is, who is told its balance right after it. */
  readonly wallet: string | undefined;
  /** Each wallet's change by this command's transfers. */
  readonly walletDeltas: ReadonlyMap<string, number>;
}

/** What each wallet gains (or loses) by a command's transfers. */
function walletDeltas(transfers: readonly TransferInput[]): Map<string, number> {
  const deltas = new Map<string, number>();
  for (const t of transfers) {
    if (t.creditAccountId.startsWith(WALLET_PREFIX))
      deltas.set(t.creditAccountId, (deltas.get(t.creditAccountId) ?? 0) + t.amountMinor);
    if (t.debitAccountId.startsWith(WALLET_PREFIX))
      deltas.set(t.debitAccountId, (deltas.get(t.debitAccountId) ?? 0) - t.amountMinor);
  }
  return deltas;
}

const WALLET_PREFIX = walletAccount('').id;

const refused = (code: string, message: string, article?: string): CommandOutcome => ({
  ok: false,
  rejection: article === undefined ? { code, message } : { code, message, article },
});

/**
 * One batch inside its transaction: applies commands one after another to the
 * state, posts their transfers (all at once at the end, or each as it goes
 * when a first attempt found a wallet short: see BatchOptions), and journals
 * all events at the end.
 */
class BatchRun {
  private state: RoundState;
  private book: ExposureBook;
  private settings: TableSettings;
  private config: TableConfig;
  private settingsChanged = false;
  /** The hold was set or released: the header is saved even without round events. */
  private stateChanged = false;
  /** Journal entries that are not round events (settings changes), written before the batch's events. */
  private readonly extraEntries: JournalInput[] = [];
  /** Every entry the batch journaled, once committed. */
  journaled: readonly JournalEntry[] = [];
  private index = 0;
  private readonly pending: Pending[] = [];
  /** By position in the batch: a keyed command's request hash and what its key holds. */
  private readonly lookups = new Map<number, { hash: string; found: CommandLookup }>();
  /** Idempotency keys first seen in this batch, in order. */
  private readonly keys = new Map<string, { index: number; hash: string }>();
  /** With deferMoney: every command's transfers, posted together by commit(). */
  private readonly deferred: TransferInput[] = [];
  /** Replayed commands whose record names their events by seq (see StoredOutcome). */
  readonly replays: Replay[] = [];
  /** Commands of this batch that repeat an earlier one's key: they get its answer. */
  private readonly repeats: { index: number; of: number }[] = [];
  private header: RoundHeader;

  constructor(
    private readonly tx: Tx,
    private readonly before: Loaded,
    private readonly now: number,
    private readonly random: RandomSource,
    private readonly options: BatchOptions,
  ) {
    this.state = before.state;
    this.settings = before.settings;
    this.config = before.config;
    this.book = before.book.clone();
    this.header = before.header;
  }

  /** Each keyed command's request hash, and what its key holds already: one lookup a batch. */
  async lookUpKeys(requests: readonly CommandRequest[]): Promise<void> {
    const keyed: { index: number; key: CommandKey }[] = [];
    requests.forEach((request, index) => {
      if (request.idempotencyKey === undefined) return;
      const requestHash = hashRequest({ tableId: request.tableId, command: request.command });
      keyed.push({ index, key: { key: request.idempotencyKey, requestHash } });
    });
    const found = await this.tx.findCommands(keyed.map((k) => k.key));
    keyed.forEach((k, i) =>
      this.lookups.set(k.index, { hash: k.key.requestHash, found: found[i]! }),
    );
  }

  async apply(request: CommandRequest): Promise<CommandOutcome> {
    const index = this.index++;
    const lookup = this.lookups.get(index);
    if (request.idempotencyKey !== undefined && lookup !== undefined) {
      const { hash, found } = lookup;
      if (found.status === 'replay') return this.replay(index, found.response as StoredOutcome);
      if (found.status === 'conflict') {
        return refused(
          'idempotency_key_conflict',
          'this idempotency key was used for another request',
        );
      }
      const earlier = this.keys.get(request.idempotencyKey);
      if (earlier !== undefined) {
        if (earlier.hash !== hash) {
          return refused(
            'idempotency_key_conflict',
            'this idempotency key was used for another request',
          );
        }
        this.repeats.push({ index, of: earlier.index });
        return { ok: true, events: [] };
      }
      this.keys.set(request.idempotencyKey, { index, hash });
    }
    if (request.command.type === 'change-limits') return this.changeLimits(request.command, index);
    if (request.command.type === 'hold-table' || request.command.type === 'release-hold') {
      return this.holdOrRelease(request.command);
    }
    if (
      request.command.type === 'change-house-options' ||
      request.command.type === 'record-between-rounds'
    ) {
      return this.betweenRounds(request.command);
    }
    const command = this.prepare(request.command, index);
    // The round's own refusals come first (Arts. 2.1, 5: betting not open, stake out of
    // limits); only a bet the round would take is measured against the liability cap.
    const result = transition(this.config, this.state, command, this.now);
    if (!result.ok) return { ok: false, rejection: result.rejection };
    const cap = this.liabilityRefusal(command);
    if (cap !== null) return cap;
    if (result.events.length === 0) return { ok: true, events: [] };
    const transfers = result.events.flatMap((e) => transfersFor(e, result.state, this.tx.currency));
    if (transfers.length > 0) {
      // A command's transfers are one event's: a bet's one, or a round's payouts, linked (Art. 4).
      if (this.options.deferMoney) {
        // A loop, not push(...transfers): a round's payouts can outnumber the arguments a call takes.
        for (const t of transfers) this.deferred.push(t);
      } else {
        const posted = await this.tx.postTransfers(transfers);
        if (!posted.ok) return this.moneyRefusal(posted.results);
      }
    }
    this.state = result.state;
    for (const e of result.events) {
      if (e.type === 'bet-placed') this.book.add(e.bet.spot, e.bet.stakeMinor);
      if (e.type === 'bet-withdrawn') this.book.add(e.bet.spot, -e.bet.stakeMinor);
      // A new round starts with an empty layout.
      if (e.type === 'dome-covered' && e.newRound)
        this.book = new ExposureBook(this.config.paytable);
    }
    const wallet =
      command.type === 'place-bet' || command.type === 'withdraw-bet'
        ? walletAccount(command.playerId).id
        : undefined;
    this.pending.push({
      outcomeIndex: index,
      events: [...result.events],
      wallet,
      walletDeltas: walletDeltas(transfers),
    });
    return { ok: true, events: [] };
  }

  /** The recorded answer; one recorded by seqs is filled in after the commit (rebuildReplays). */
  private replay(index: number, stored: StoredOutcome): CommandOutcome {
    if (!('eventSeqs' in stored)) return stored;
    this.replays.push({ index, ...stored });
    return { ok: true, events: [] };
  }

  private changeLimits(change: LimitsChange, index: number): CommandOutcome {
    if (this.state.phase !== 'idle' && this.state.phase !== 'paid') {
      return refused(
        'table_mid_round',
        'limits change between rounds only: finish the round first',
      );
    }
    const parsed = parseTableSettings(
      { ...settingsDocument(this.settings), ...change.limits },
      this.settings.authorization ?? null,
    );
    if (!parsed.ok) return { ok: false, rejection: parsed.error };
    this.settings = parsed.value;
    this.config = toTableConfig(parsed.value);
    this.settingsChanged = true;
    this.extraEntries.push({
      tableId: this.config.tableId,
      type: 'table-settings-changed',
      payload: {
        type: 'table-settings-changed',
        settings: parsed.value,
        changedBy: change.supervisorId,
      },
    });
    void index;
    return { ok: true, events: [] };
  }

  /**
   * Art. 8: adopted options never change a round in progress; neither do new
   * dice. The entries go to the journal with the batch, before its round events.
   */
  private betweenRounds(change: HouseOptionsChange | BetweenRoundsRecord): CommandOutcome {
    const isOptions = change.type === 'change-house-options';
    if (this.state.phase !== 'idle' && this.state.phase !== 'paid') {
      const what = isOptions ? 'house options change' : 'this is recorded';
      const message = `${what} between rounds only, never mid-round: finish the round first`;
      return refused('table_mid_round', message, isOptions ? '8' : undefined);
    }
    if (isOptions) {
      // Art. 8: the adopted options carry the authorization of their proposal.
      const parsed = parseTableSettings(
        { ...settingsDocument(this.settings), ...change.options },
        change.authorization,
      );
      if (!parsed.ok) return { ok: false, rejection: parsed.error };
      this.settings = parsed.value;
      this.config = toTableConfig(parsed.value);
      this.settingsChanged = true;
      // As a reload would rebuild it: the last round's stakes under the new paytable.
      this.book = ExposureBook.of(this.config.paytable, this.state.bets);
    }
    this.extraEntries.push(...change.entries);
    if (!isOptions && change.releasesHold !== undefined && this.state.hold !== null) {
      this.state = releaseHold(this.state);
      this.stateChanged = true;
      this.extraEntries.push(change.releasesHold);
    }
    if (isOptions) {
      this.extraEntries.push({
        tableId: this.config.tableId,
        type: 'table-settings-changed',
        payload: {
          type: 'table-settings-changed',
          settings: this.settings,
          changedBy: change.changedBy,
        },
      });
    }
    return { ok: true, events: [] };
  }

  /** Art. 1.1: a hold takes effect in any phase and stops the next round (src/table/hold.ts). */
  private holdOrRelease(change: HoldRequest | ReleaseRequest): CommandOutcome {
    if (change.type === 'hold-table') {
      if (this.state.hold !== null) return { ok: true, events: [] };
      this.state = holdTable(this.state, change.hold);
    } else {
      if (this.state.hold === null)
        return refused('table_not_held', 'the table is not held: there is nothing to release');
      this.state = releaseHold(this.state);
    }
    this.stateChanged = true;
    this.extraEntries.push(...change.entries);
    return { ok: true, events: [] };
  }

  /** The electronic shaker draws and seals the roll now, before betting opens (Art. 2.1). */
  private prepare(
    command: Exclude<
      CommandRequest['command'],
      LimitsChange | HouseOptionsChange | BetweenRoundsRecord | HoldRequest | ReleaseRequest
    >,
    index: number,
  ): Command {
    if (command.type !== 'trigger-shaker' || 'sealedRoll' in command) return command;
    const ref = {
      tableId: this.config.tableId,
      roundNo: this.state.roundNo,
      rollNo: this.state.rollNo,
    };
    let sealedRoll = this.options.seals.get(index);
    if (sealedRoll === undefined) {
      sealedRoll = sealRoll(ref, this.random);
      this.options.seals.set(index, sealedRoll);
    }
    return { ...command, sealedRoll };
  }

  private liabilityRefusal(command: Command): CommandOutcome | null {
    if (
      command.type !== 'place-bet' ||
      typeof command.stakeMinor !== 'number' ||
      typeof command.spot !== 'string'
    ) {
      return null;
    }
    if (!this.config.paytable.paytable.spots.includes(command.spot)) return null;
    const worst = this.book.worstLossWithMinor(command.spot, command.stakeMinor);
    const cap = this.settings.liabilityMinorMax;
    if (worst <= cap) return null;
    return refused(
      'liability_cap_exceeded',
      `this bet would raise the table's worst-case loss this round to ${worst}, over its cap of ${cap} (minor units)`,
    );
  }

  private moneyRefusal(results: readonly { status: string; code?: string }[]): CommandOutcome {
    const failed = results.find((r) => r.status === 'failed' && r.code !== 'linked_event_failed');
    if (failed?.code === 'insufficient_funds') {
      return refused('insufficient_funds', 'the wallet does not hold enough for this bet');
    }
    if (failed?.code === 'account_not_found') {
      return refused(
        'no_wallet',
        'this player has no wallet yet: the cage opens it with a first deposit',
      );
    }
    throw new Error(`ledger refused a round transfer: ${JSON.stringify(failed)}`);
  }

  /** Journals the batch's events, fills in their seqs, and records idempotent answers. */
  async commit(outcomes: CommandOutcome[]): Promise<PublishedEvent[]> {
    if (this.deferred.length > 0 && !(await this.tx.postTransfers(this.deferred)).ok)
      throw new DeferredMoneyRefused();
    const inputs: JournalInput[] = this.pending.flatMap((p) =>
      p.events.map((event) => ({ tableId: event.tableId, ...typedRecord(event) })),
    );
    // Read before the journal's append, which on PostgreSQL holds the chain's head until commit.
    const balances = await this.balancesAfter();
    const all = [...this.extraEntries, ...inputs];
    this.journaled = all.length > 0 ? await this.tx.appendJournal(all) : [];
    const entries = this.journaled.slice(this.extraEntries.length);
    const published: PublishedEvent[] = [];
    let at = 0;
    this.pending.forEach((p, i) => {
      const events = p.events.map((event) => ({ seq: entries[at++]!.seq, event }));
      const balanceMinor = balances[i];
      outcomes[p.outcomeIndex] =
        balanceMinor === undefined ? { ok: true, events } : { ok: true, events, balanceMinor };
      published.push(...events);
      this.trackRounds(events);
    });
    for (const r of this.repeats) outcomes[r.index] = outcomes[r.of]!;
    await this.tx.putCommands(
      [...this.keys].map(([key, k]) => ({
        key,
        requestHash: k.hash,
        response: storedOutcome(outcomes[k.index]!),
      })),
    );
    return published;
  }

  /**
   * For each pending bet, its player's balance right after it in ledger order:
   * the balance once all the batch's transfers are posted, less what the
   * batch's later commands moved in or out of that wallet.
   */
  private async balancesAfter(): Promise<(number | undefined)[]> {
    const wallets = this.pending.flatMap((p) => (p.wallet === undefined ? [] : [p.wallet]));
    const running = await this.tx.balances(wallets);
    const balances: (number | undefined)[] = [];
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const p = this.pending[i]!;
      balances[i] = p.wallet === undefined ? undefined : running.get(p.wallet);
      for (const [wallet, delta] of p.walletDeltas) {
        const balance = running.get(wallet);
        if (balance !== undefined) running.set(wallet, balance - delta);
      }
    }
    return balances;
  }

  private trackRounds(events: readonly PublishedEvent[]): void {
    for (const { seq, event } of events) {
      if (event.type !== 'dome-covered' || !event.newRound) continue;
      const recent = [...this.header.recentRoundSeqs, { roundNo: event.roundNo, seq }].slice(
        -RECENT_ROUNDS_MAX,
      );
      this.header = { ...this.header, roundJournalSeq: seq, recentRoundSeqs: recent };
    }
  }

  /** Saves the header when anything changed and returns what the cache should hold. */
  async save(version: number, rollKeys: RollKeyring): Promise<Loaded> {
    if (this.pending.length === 0 && !this.settingsChanged && !this.stateChanged)
      return this.before;
    const header = toHeader(this.state, this.header.roundJournalSeq, this.header.recentRoundSeqs);
    const saved = await this.tx.saveTable(
      this.config.tableId,
      version,
      // Art. 2.1: the database holds the roll only sealed, until the reveal.
      storedHeader(header, rollKeys),
      this.settingsChanged ? this.settings : undefined,
    );
    if (!saved.ok) throw new Error(`table ${this.config.tableId}: ${saved.code}`);
    return {
      version: saved.version,
      settings: this.settings,
      config: this.config,
      state: this.state,
      header,
      book: this.book,
    };
  }
}
