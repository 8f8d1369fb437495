/**
 * Fairness monitoring (Art. 1.1) of every table, running: a FairnessMonitor of
 * src/compliance per table, fed with the dice of every `round-settled` entry
 * and reset by every `dice-changed` entry, in journal order.
 *
 * Live, the monitor reads the entries each commit of the table's queue made
 * (TableService.onCommit), so it costs no database read. At start — lazily, on
 * a table's first use — it is rebuilt from the monitor kept every
 * KEEP_EVERY_ROLLS rolls (a read model the journal can always rebuild) and the
 * table's indexed entries after it: the rolls go back in without testing, the
 * dice changes reset the since-change span, and the active alerts are those
 * the journal raised and did not clear. Then one check catches an alert whose
 * entry a crash lost.
 *
 * Alerts (`fairness-alert-raised` / `-cleared`) are journaled with the table
 * and handed to `onAlert` (the server logs and counts them). A change of dice
 * is journaled through the table's queue, between rounds, so it falls exactly
 * between two rolls in the journal and in the monitor.
 *
 * A severe alert (an active alert whose p-value is now under `holdPValue`)
 * also holds the table between rounds (`table-held`): no new round is
 * covered and betting does not open until a supervisor acknowledges it or
 * the dice are changed at a lever table (`table-hold-released`). Severity is
 * decided again after every roll while an alert is active (FairnessHolds of
 * src/compliance), from the monitor's counts: no database read. A hold a
 * crash lost is set at the table's next load.
 */
import {
  type ActiveAlert,
  type AlertReading,
  type DiceChangedEvent,
  type FairnessEvaluation,
  FairnessMonitor,
  type FairnessMonitorConfig,
  FairnessHolds,
  type FairnessMonitorEvent,
  type FairnessMonitorSnapshot,
  type IsoDate,
  macauDate,
  parseDiceChangedEvent,
  type SpanEvaluation,
} from '../compliance/index.js';
import { type JournalEntry, typedRecord } from '../journal/index.js';
import { KeyedQueue, type ReadModel, type Store } from '../ledger/index.js';
import { readIndexedEntries } from './indexed-journal.js';
import type { ServiceResult } from './house-options.js';
import type { TableService } from './table-service.js';
import { siblingModule, WorkerPool } from './worker-pool.js';

export const DICE_CHANGED = 'dice-changed';
export const TABLE_HELD = 'table-held';
export const TABLE_HOLD_RELEASED = 'table-hold-released';

/**
 * Art. 1.1: an alert this unlikely under fair dice holds the table. One in a
 * billion: fair dice tested after every roll reach it far less than once in a
 * table's life, while ten rolls of 1-1-1 (p ≈ 1e-30) or a die loaded enough to
 * matter within a shift get there (docs/compliance.md, "The alert policy", with
 * the rolls that loaded dice take to get there).
 */
export const HOLD_P_VALUE = 1e-9;

export interface FairnessServiceOptions {
  readonly store: Store;
  readonly tables: TableService;
  readonly clock?: () => number;
  readonly config?: Partial<FairnessMonitorConfig>;
  /** An alert whose p-value is under this holds the table (default HOLD_P_VALUE). */
  readonly holdPValue?: number;
  /** Called with the journal entries of alerts raised or cleared, and of holds set. */
  readonly onAlert?: (tableId: string, entries: readonly JournalEntry[]) => void;
  /** Called when feeding a monitor fails (a database error journaling an alert). */
  readonly onError?: (tableId: string, error: unknown) => void;
}

export interface DiceChangeInput {
  readonly reason: string | null;
  /** The new set's id (serial numbers, or the house's set id); made up when absent. */
  readonly diceSetId?: string;
  readonly changedBy: string;
}

/** A power figure: rolls the faces test needs to catch one loaded face. */
export interface PowerRow {
  readonly excess: number;
  readonly loadedDice: 1 | 2 | 3;
  readonly significance: number;
  readonly power: number;
  readonly rolls: number;
}

export interface FairnessReport {
  readonly tableId: string;
  readonly config: FairnessMonitorConfig;
  /** Rolls the monitor has seen at this table since it was created. */
  readonly rollSeq: number;
  readonly diceSetId: string | null;
  /** Both spans, as FairnessMonitor.evaluate gives them (the window, then since the dice changed). */
  readonly spans: readonly SpanEvaluation[];
  readonly window: SpanEvaluation;
  readonly sinceDiceChange: SpanEvaluation;
  readonly activeAlerts: readonly ActiveAlert[];
  /** Rolls the faces test needs to catch a loaded face, at the alert level, 90% power. */
  readonly detectionPower: readonly PowerRow[];
  /**
   * The smallest excess each span catches with 90% power at the alert level
   * (null: no rolls), for the span's length rounded down to two significant digits.
   */
  readonly smallestDetectableExcess: {
    readonly window: { readonly oneDie: number | null; readonly allDice: number | null };
    readonly sinceDiceChange: { readonly oneDie: number | null; readonly allDice: number | null };
  };
}

export interface Tracked {
  readonly monitor: FairnessMonitor;
  /** The last journal entry fed in. */
  seq: number;
  diceChanges: number;
  /** Which of the monitor's alerts hold the table (Art. 1.1). */
  readonly holds: FairnessHolds;
}

/** A severe alert's hold, as journaled (`table-held`). */
export interface TableHeldEvent {
  readonly type: typeof TABLE_HELD;
  readonly tableId: string;
  readonly on: IsoDate;
  readonly reason: string;
  readonly article: '1.1';
  /** The alert that caused it. */
  readonly alert: {
    readonly span: string;
    readonly test: string;
    /** The p-value when it held the table. */
    readonly pValue: number;
    /** The monitor's roll counter at the roll that made the alert severe. */
    readonly rollSeq: number;
  };
  readonly holdPValue: number;
}

/** How a hold ended, as journaled (`table-hold-released`). */
export interface TableHoldReleasedEvent {
  readonly type: typeof TABLE_HOLD_RELEASED;
  readonly tableId: string;
  readonly on: IsoDate;
  readonly how: 'acknowledged' | 'dice-changed';
  readonly by: string;
  /** The supervisor's note, or the new dice set's id. */
  readonly note: string | null;
}

const alertKey = (a: { span: string; test: string }): string => `${a.span}/${a.test}`;

export class FairnessService {
  private readonly store: Store;
  private readonly tables: TableService;
  private readonly clock: () => number;
  private readonly config: Partial<FairnessMonitorConfig>;
  private readonly holdPValue: number;
  private readonly onAlert: NonNullable<FairnessServiceOptions['onAlert']>;
  private readonly onError: NonNullable<FairnessServiceOptions['onError']>;
  private readonly tracked = new Map<string, Tracked>();
  private readonly queue = new KeyedQueue();
  private readonly unsubscribe: () => void;

  constructor(options: FairnessServiceOptions) {
    this.store = options.store;
    this.tables = options.tables;
    this.clock = options.clock ?? Date.now;
    this.config = options.config ?? {};
    this.holdPValue = options.holdPValue ?? HOLD_P_VALUE;
    this.onAlert = options.onAlert ?? (() => undefined);
    this.onError = options.onError ?? (() => undefined);
    // Fails fast on a bad configuration, before any table is monitored.
    new FairnessMonitor('config-check', this.config);
    new FairnessHolds(this.holdPValue);
    this.unsubscribe = this.tables.onCommit((tableId, entries) => this.observe(tableId, entries));
  }

  /** Stops following the table service's commits. */
  close(): void {
    this.unsubscribe();
  }

  /** Feeds a commit's entries to the table's monitor, in order, after any earlier ones. */
  observe(tableId: string, entries: readonly JournalEntry[]): void {
    if (!entries.some((e) => (FED_TYPES as readonly string[]).includes(e.type))) return;
    void this.queue
      .run(tableId, async () => {
        const tracked = await this.load(tableId);
        if (tracked === undefined) return;
        const events: FairnessMonitorEvent[] = [];
        for (const entry of entries) {
          if (entry.seq <= tracked.seq) continue; // already read from the journal at load
          tracked.seq = entry.seq;
          events.push(...feed(tracked, entry, true));
        }
        await this.journalAlerts(tableId, events);
        await this.holdIfSevere(tableId, tracked);
        await this.keep(tableId, tracked);
      })
      .catch((error: unknown) => this.onError(tableId, error));
  }

  /** Both spans' figures, the active alerts and what the spans can detect; undefined for no table. */
  async evaluate(tableId: string): Promise<FairnessReport | undefined> {
    const evaluated = await this.queue.run(tableId, async () => {
      const tracked = await this.load(tableId);
      if (tracked === undefined) return undefined;
      return { evaluation: tracked.monitor.evaluate(), config: tracked.monitor.config };
    });
    // The power figures outside the table's queue: its commits need not wait for them.
    return evaluated === undefined ? undefined : report(evaluated);
  }

  /** Alerts raised and not cleared over every table; a table not yet followed is read from the journal. */
  async openAlerts(): Promise<number> {
    let open = 0;
    for (const tableId of await this.store.listTables()) {
      const tracked = await this.queue.run(tableId, () => this.load(tableId));
      open += tracked?.monitor.alertsActive ?? 0;
    }
    return open;
  }

  /**
   * New dice at a table whose dice are physical (lever shaker): journaled
   * between rounds through the table's queue, it restarts the since-change span.
   */
  async changeDice(
    tableId: string,
    input: DiceChangeInput,
  ): Promise<ServiceResult<DiceChangedEvent>> {
    const snapshot = await this.tables.snapshot(tableId);
    if (snapshot === undefined) {
      return {
        ok: false,
        rejection: { code: 'unknown_table', message: `there is no table "${tableId}"` },
      };
    }
    if (snapshot.settings.shaker !== 'lever') {
      return {
        ok: false,
        rejection: {
          code: 'dice_not_physical',
          message:
            'the electronic shaker draws its rolls itself (Art. 2.1): there are no dice to change; test its source with cussec rng-test',
          article: '1.2',
        },
      };
    }
    const tracked = await this.queue.run(tableId, () => this.load(tableId));
    const on: IsoDate = macauDate(this.clock());
    const event = parseDiceChangedEvent({
      type: DICE_CHANGED,
      tableId,
      diceSetId: input.diceSetId ?? `${on}#${(tracked?.diceChanges ?? 0) + 1}`,
      changedBy: input.changedBy,
      on,
      reason: input.reason,
    });
    // Art. 1.1: new dice end a hold, in the same commit as their change.
    const released: TableHoldReleasedEvent = {
      type: TABLE_HOLD_RELEASED,
      tableId,
      on,
      how: 'dice-changed',
      by: input.changedBy,
      note: event.diceSetId,
    };
    const outcome = await this.tables.recordBetweenRounds(
      tableId,
      [{ tableId, type: DICE_CHANGED, payload: event }],
      { tableId, type: TABLE_HOLD_RELEASED, payload: released },
    );
    if (!outcome.ok) return { ok: false, rejection: outcome.rejection };
    // The monitor takes the change from the commit; wait for it, so a read after this sees it.
    await this.queue.idle(tableId);
    return { ok: true, value: event };
  }

  /**
   * A supervisor acknowledges the severe alert that holds the table: the table
   * may play again (the alert itself stays active until it clears).
   */
  async acknowledgeHold(
    tableId: string,
    by: string,
    note: string | null,
  ): Promise<ServiceResult<TableHoldReleasedEvent>> {
    const event: TableHoldReleasedEvent = {
      type: TABLE_HOLD_RELEASED,
      tableId,
      on: macauDate(this.clock()),
      how: 'acknowledged',
      by,
      note,
    };
    const outcome = await this.tables.release(tableId, [
      { tableId, type: TABLE_HOLD_RELEASED, payload: event },
    ]);
    if (!outcome.ok) return { ok: false, rejection: outcome.rejection };
    return { ok: true, value: event };
  }

  /** The table's monitor, rebuilt from the journal on first use; undefined for no table. */
  private async load(tableId: string): Promise<Tracked | undefined> {
    const known = this.tracked.get(tableId);
    if (known !== undefined) return known;
    const restored = await this.restore(tableId);
    if (restored === undefined) return undefined;
    this.tracked.set(tableId, restored);
    // An alert whose entry a crash lost between the roll and its journaling is raised now,
    await this.journalAlerts(tableId, checked(restored, restored.monitor.check()));
    // and a hold a crash lost between a severe alert and its entry is set.
    await this.holdIfSevere(tableId, restored);
    await this.keep(tableId, restored, true);
    return restored;
  }

  /**
   * The monitor as kept (read model `fairness/<table>`, when it was kept with
   * this configuration) plus the table's indexed entries after it: a restart
   * reads the rolls since the last keep, not the table's history.
   */
  private async restore(tableId: string): Promise<Tracked | undefined> {
    const model = await this.store.getReadModel(fairnessModel(tableId));
    // A monitor kept before the holds' covered alerts were kept beside it is rebuilt from the journal.
    const current = model !== undefined && (model.value as KeptMonitor).coveredAlerts !== undefined;
    const kept = current ? keptMonitor(model, this.config, this.holdPValue) : undefined;
    return rebuildMonitor(this.store, tableId, this.config, this.holdPValue, kept);
  }

  /**
   * Art. 1.1: after every roll while an alert is active, a severe alert that
   * no hold has covered holds the table (the most severe is named). A table
   * held already keeps its hold; the alert is covered either way.
   */
  private async holdIfSevere(tableId: string, tracked: Tracked): Promise<void> {
    const [severest] = tracked.holds.due(tracked.monitor);
    if (severest === undefined) return;
    await this.holdFor(tableId, severest);
    tracked.holds.coverSevere(tracked.monitor);
  }

  /** Holds the table for a severe alert (Art. 1.1); a table held already keeps its hold. */
  private async holdFor(tableId: string, alert: AlertReading): Promise<void> {
    const pValue = alert.pValue.toExponential(1);
    const event: TableHeldEvent = {
      type: TABLE_HELD,
      tableId,
      on: macauDate(this.clock()),
      reason: `fairness alert: ${alert.test} test over the ${alert.span} span, p = ${pValue}`,
      article: '1.1',
      alert: { span: alert.span, test: alert.test, pValue: alert.pValue, rollSeq: alert.rollSeq },
      holdPValue: this.holdPValue,
    };
    const held = await this.tables.hold(
      tableId,
      { reason: event.reason, article: event.article, sinceMs: this.clock() },
      [{ tableId, type: TABLE_HELD, payload: event }],
    );
    if (!held.ok) throw new Error(`table ${tableId}: hold refused: ${held.rejection.code}`);
  }

  /** Keeps the monitor every KEEP_EVERY_ROLLS rolls (the journal can always rebuild it). */
  private async keep(tableId: string, tracked: Tracked, force = false): Promise<void> {
    const rollSeq = tracked.monitor.snapshot().rollSeq;
    if (!force && rollSeq % KEEP_EVERY_ROLLS !== 0) return;
    const value: KeptMonitor = {
      monitor: tracked.monitor.snapshot(),
      diceChanges: tracked.diceChanges,
      coveredAlerts: tracked.holds.keys(),
    };
    await this.store.putReadModel(fairnessModel(tableId), { seq: tracked.seq, value });
  }

  /**
   * Journals the alerts under the table row's lock, less those another node
   * journaled first (an alert already raised, or already cleared): the
   * journaling of a table's alerts is serialised across every node of a floor.
   */
  private async journalAlerts(
    tableId: string,
    events: readonly FairnessMonitorEvent[],
  ): Promise<void> {
    if (events.length === 0) return;
    const entries = await this.store.transaction(async (tx) => {
      if ((await tx.tableVersion(tableId, { lock: 'exclusive' })) === undefined) return [];
      const active = new Set<string>();
      for await (const entry of readIndexedEntries(this.store, tableId, ALERT_TYPES)) {
        if (entry.type === 'fairness-alert-raised') active.add(alertKey(entry.payload));
        else active.delete(alertKey(entry.payload));
      }
      const fresh = events.filter((e) =>
        e.type === 'fairness-alert-raised' ? !active.has(alertKey(e)) : active.has(alertKey(e)),
      );
      return fresh.length === 0
        ? []
        : tx.appendJournal(fresh.map((e) => ({ tableId, ...typedRecord(e) })));
    });
    if (entries.length > 0) this.onAlert(tableId, entries);
  }
}

/**
 * A table's monitor from `from` (or from nothing) and the table's entries
 * after it up to `untilSeq`: the rolls untested, the dice changes, the alerts
 * the journal raised and did not clear, and the holds and releases that
 * covered them. Undefined for no table.
 */
export async function rebuildMonitor(
  store: Store,
  tableId: string,
  config: Partial<FairnessMonitorConfig>,
  holdPValue: number,
  from?: Tracked,
  untilSeq = Number.MAX_SAFE_INTEGER,
): Promise<Tracked | undefined> {
  let tracked = from;
  for await (const entry of readIndexedEntries(store, tableId, RESTORE_TYPES, from?.seq)) {
    if (entry.seq > untilSeq) break;
    tracked ??= {
      monitor: new FairnessMonitor(tableId, config),
      seq: 0,
      diceChanges: 0,
      holds: new FairnessHolds(holdPValue),
    };
    tracked.seq = entry.seq;
    feed(tracked, entry, false);
  }
  return tracked;
}

/** Rolls between two keeps of a table's monitor: a restart reads at most this many settlements. */
export const KEEP_EVERY_ROLLS = 100;
const ALERT_TYPES = ['fairness-alert-raised', 'fairness-alert-cleared'] as const;
/** The entries a live monitor is fed: rolls, new dice, and the holds that cover alerts. */
const FED_TYPES = ['round-settled', DICE_CHANGED, TABLE_HELD, TABLE_HOLD_RELEASED] as const;
/** Creation tells that the table exists; the others feed the monitor. */
const RESTORE_TYPES = ['table-created', ...FED_TYPES, ...ALERT_TYPES] as const;

export const fairnessModel = (tableId: string): string => `fairness/${tableId}`;

/** A table's monitor as kept (read model `fairness/<table>`). */
interface KeptMonitor {
  readonly monitor: FairnessMonitorSnapshot;
  readonly diceChanges: number;
  /** The alerts a hold covered (FairnessHolds); absent from monitors kept before it. */
  readonly coveredAlerts?: readonly string[];
}

/** The kept monitor, if there is one and it was kept with this configuration. */
export function keptMonitor(
  model: ReadModel | undefined,
  config: Partial<FairnessMonitorConfig>,
  holdPValue: number,
): Tracked | undefined {
  if (model === undefined) return undefined;
  const value = model.value as KeptMonitor;
  const wanted = new FairnessMonitor('config-check', config).config;
  if (JSON.stringify(value.monitor.config) !== JSON.stringify(wanted)) return undefined;
  return {
    monitor: FairnessMonitor.restore(value.monitor),
    seq: model.seq,
    diceChanges: value.diceChanges,
    holds: new FairnessHolds(holdPValue, value.coveredAlerts ?? []),
  };
}

/**
 * One journal entry into a monitor: a settled round's dice, new dice, or a
 * hold or its release, which cover the alerts severe then. Live (`test`),
 * each roll is tested and the alerts it raises or clears returned; at restore
 * the rolls go in untested and the alerts are read back from the journal.
 */
function feed(tracked: Tracked, entry: JournalEntry, test: boolean): FairnessMonitorEvent[] {
  const { monitor, holds } = tracked;
  switch (entry.type) {
    case 'round-settled':
      if (!test) monitor.addRoll(entry.payload.dice);
      return test ? checked(tracked, monitor.recordRoll(entry.payload.dice)) : [];
    case DICE_CHANGED: {
      tracked.diceChanges++;
      const cleared = checked(tracked, monitor.onDiceChanged(entry.payload));
      return test ? cleared : [];
    }
    case TABLE_HELD:
    case TABLE_HOLD_RELEASED:
      holds.coverSevere(monitor);
      return [];
    case 'fairness-alert-raised':
    case 'fairness-alert-cleared':
      // Live, the monitor made these itself; at restore they tell which alerts are active.
      if (!test) {
        holds.forget(entry.payload);
        monitor.restoreAlert(entry.payload);
      }
      return [];
    default:
      return [];
  }
}

/** Alerts raised or cleared: the holds forget them (a new alert's severity is news). */
function checked(tracked: Tracked, events: FairnessMonitorEvent[]): FairnessMonitorEvent[] {
  for (const event of events) tracked.holds.forget(event);
  return events;
}

/** Two significant digits, rounded down: 12,345 → 12,000. */
function bucketDown(rolls: number): number {
  const scale = 10 ** Math.max(0, Math.floor(Math.log10(rolls)) - 1);
  return Math.floor(rolls / scale) * scale;
}

/** A power figure computed on the worker (detection-power-worker.ts). */
export type PowerJob =
  | { readonly kind: 'table'; readonly significance: number }
  | {
      readonly kind: 'excess';
      readonly rolls: number;
      readonly loadedDice: 1 | 3;
      readonly significance: number;
    };

/**
 * The power figures take tens of milliseconds each (a bisection over a
 * noncentral chi-square), so they are computed on a worker thread, off the
 * event loop, and kept: the table once per significance, and the smallest
 * detectable excess per span length rounded down to two significant digits —
 * a slightly shorter span, so a slightly larger excess: the figure errs on
 * the side of claiming less. One worker serves the process.
 */
const powerWorkers = new WorkerPool<PowerJob>(
  siblingModule(import.meta.url, 'detection-power-worker'),
  null,
  1,
);

/** Starts the power figures' worker, so that the first fairness answer does not wait for it. */
export function startPowerWorkers(): Promise<void> {
  return powerWorkers.start();
}

const powerTables = new Map<number, Promise<PowerRow[]>>();
const excesses = new Map<string, Promise<number>>();
const EXCESS_CACHE_MAX = 10_000;

/** A figure kept once asked for; a computation that failed is asked for again next time. */
function kept<K, V>(cache: Map<K, Promise<V>>, key: K, compute: () => Promise<V>): Promise<V> {
  let figure = cache.get(key);
  if (figure === undefined) {
    figure = compute();
    cache.set(key, figure);
    figure.catch(() => cache.delete(key));
  }
  return figure;
}

function powerTable(significance: number): Promise<PowerRow[]> {
  return kept(powerTables, significance, () =>
    powerWorkers.run<PowerRow[]>({ kind: 'table', significance }),
  );
}

async function excessFor(
  rolls: number,
  loadedDice: 1 | 3,
  significance: number,
): Promise<number | null> {
  if (rolls === 0) return null;
  const basis = bucketDown(rolls);
  if (excesses.size >= EXCESS_CACHE_MAX) excesses.clear();
  return kept(excesses, `${basis}/${loadedDice}/${significance}`, () =>
    powerWorkers.run<number>({ kind: 'excess', rolls: basis, loadedDice, significance }),
  );
}

/** The answer of `evaluate`: a monitor's evaluation and its configuration, with the power figures. */
async function report({
  evaluation,
  config,
}: {
  readonly evaluation: FairnessEvaluation;
  readonly config: FairnessMonitorConfig;
}): Promise<FairnessReport> {
  const [window, sinceDiceChange] = evaluation.spans as [SpanEvaluation, SpanEvaluation];
  const significance = config.alertPValue;
  const excess = async (rolls: number) => {
    const [oneDie, allDice] = await Promise.all([
      excessFor(rolls, 1, significance),
      excessFor(rolls, 3, significance),
    ]);
    return { oneDie, allDice };
  };
  const [detectionPower, windowExcess, sinceChangeExcess] = await Promise.all([
    powerTable(significance),
    excess(window.rolls),
    excess(sinceDiceChange.rolls),
  ]);
  return {
    tableId: evaluation.tableId,
    config,
    rollSeq: evaluation.rollSeq,
    diceSetId: evaluation.diceSetId,
    spans: evaluation.spans,
    window,
    sinceDiceChange,
    activeAlerts: evaluation.activeAlerts,
    detectionPower,
    smallestDetectableExcess: { window: windowExcess, sinceDiceChange: sinceChangeExcess },
  };
}
