/**
 * Fairness monitoring of one table, roll by roll (Art. 1.1: dice "todos com o
 * mesmo peso e perfeitamente equilibrados").
 *
 * Two spans are watched: the last W rolls (a sliding window) and every roll
 * since the dice were last changed (a `dice-changed` event restarts it). After
 * each roll the faces and totals chi-square tests run on both spans, and a
 * condition (span × test) raises an alert when its p-value falls under
 * `alertPValue`. Alert rule, with hysteresis so a condition is not alerted on
 * every roll: once raised, a condition stays active and silent until its
 * p-value is back at or above `clearPValue` (then `fairness-alert-cleared`,
 * reason "recovered"), or — for the since-change span — until the dice are
 * changed (reason "dice-changed"). It can then be raised again.
 *
 * Pure and deterministic: no clock, no I/O. The state is mutable for speed
 * (a 10,000-roll window updated per roll) and saves to plain JSON with
 * `snapshot()` / `FairnessMonitor.restore()`.
 */
import { type Dice, isDice, outcomeIndex } from '../rules/index.js';
import {
  type DiceChangedEvent,
  type FairnessMonitorConfig,
  type FairnessMonitorEvent,
  type FairnessMonitorSnapshot,
  parseMonitorConfig,
  parseSnapshot,
  SNAPSHOT_FORMAT,
} from './fairness-monitor-data.js';
import { OutcomeWindow } from './outcome-window.js';
import { chiSquareSurvival } from '../math/index.js';
import {
  DEGREES_OF_FREEDOM,
  type FairnessTest,
  pValueIsUnder,
  SpanCounts,
  type SpanTestResult,
} from './span-counts.js';

export type FairnessSpan = 'window' | 'since-dice-change';

export interface SpanEvaluation {
  readonly span: FairnessSpan;
  readonly rolls: number;
  readonly tests: readonly SpanTestResult[];
}

export interface ActiveAlert {
  readonly span: FairnessSpan;
  readonly test: FairnessTest;
  readonly raisedAtRollSeq: number;
  readonly pValue: number;
}

/** An active alert as the rolls stand now. */
export interface AlertReading {
  readonly span: FairnessSpan;
  readonly test: FairnessTest;
  readonly statistic: number;
  readonly df: number;
  readonly pValue: number;
  /** Rolls in the span. */
  readonly rolls: number;
  /** The monitor's roll counter. */
  readonly rollSeq: number;
}

export interface FairnessEvaluation {
  readonly tableId: string;
  /** Rolls recorded since the monitor was created. */
  readonly rollSeq: number;
  readonly diceSetId: string | null;
  readonly spans: readonly SpanEvaluation[];
  readonly activeAlerts: readonly ActiveAlert[];
}

const TESTS: readonly FairnessTest[] = ['faces', 'totals'];
const SPANS: readonly FairnessSpan[] = ['window', 'since-dice-change'];
/** The conditions' keys, built once: they are asked after every roll. */
const KEYS: Readonly<Record<FairnessSpan, Readonly<Record<FairnessTest, string>>>> = {
  window: { faces: 'window/faces', totals: 'window/totals' },
  'since-dice-change': { faces: 'since-dice-change/faces', totals: 'since-dice-change/totals' },
};
/** A condition's key, `span/test`: the same string every time, so asking costs no allocation. */
export const conditionKey = (span: FairnessSpan, test: FairnessTest): string => KEYS[span][test];
const key = conditionKey;

export class FairnessMonitor {
  readonly config: FairnessMonitorConfig;
  private window: OutcomeWindow;
  private readonly sinceChange = new SpanCounts();
  private diceSetId: string | null = null;
  private rollSeq = 0;
  private readonly active = new Map<string, ActiveAlert>();

  /** Throws on a bad configuration (see `parseMonitorConfig` for the limits). */
  constructor(
    readonly tableId: string,
    config: Partial<FairnessMonitorConfig> = {},
  ) {
    this.config = parseMonitorConfig(config);
    this.window = new OutcomeWindow(this.config.windowRolls);
  }

  /** Alerts raised and not cleared. */
  get alertsActive(): number {
    return this.active.size;
  }

  /** Adds a roll without testing: for loading history in bulk before one `check()`. */
  addRoll(dice: Dice): void {
    if (!isDice(dice)) throw new RangeError(`not three faces 1–6: ${JSON.stringify(dice)}`);
    const outcome = outcomeIndex(dice);
    this.window.add(outcome);
    this.sinceChange.update(outcome, 1);
    this.rollSeq++;
  }

  /** Adds a roll and tests: the alerts raised or cleared by it (usually none). */
  recordRoll(dice: Dice): FairnessMonitorEvent[] {
    this.addRoll(dice);
    return this.check();
  }

  /** Both spans' tests, on demand. */
  evaluate(): FairnessEvaluation {
    const spans: SpanEvaluation[] = [
      {
        span: 'window',
        rolls: this.window.rolls,
        tests: TESTS.map((t) => this.window.counts.test(t)),
      },
      {
        span: 'since-dice-change',
        rolls: this.sinceChange.rolls,
        tests: TESTS.map((t) => this.sinceChange.test(t)),
      },
    ];
    const { tableId, rollSeq, diceSetId } = this;
    return { tableId, rollSeq, diceSetId, spans, activeAlerts: [...this.active.values()] };
  }

  /**
   * Applies the alert rule to the current figures and returns what changed.
   * It runs after every roll, so it computes each statistic from the counts
   * and a p-value only near a threshold (`pValueUnder`).
   */
  check(): FairnessMonitorEvent[] {
    const events: FairnessMonitorEvent[] = [];
    for (const span of SPANS) {
      for (const test of TESTS) {
        const event = this.transition(span, test);
        if (event !== null) events.push(event);
      }
    }
    return events;
  }

  /** The alerts raised and not cleared. */
  activeAlerts(): IterableIterator<ActiveAlert> {
    return this.active.values();
  }

  /**
   * An active alert as the rolls stand now, when its p-value is under
   * `pValue`; null otherwise. Cheap enough for every roll: the statistic is
   * compared with the level's critical value, the p-value computed only past it.
   */
  readingUnder(alert: ActiveAlert, pValue: number): AlertReading | null {
    const { span, test } = alert;
    const counts = this.counts(span);
    const statistic = counts.statistic(test);
    if (statistic === null || !pValueIsUnder(statistic, test, pValue)) return null;
    const df = DEGREES_OF_FREEDOM[test];
    const reading = chiSquareSurvival(statistic, df);
    return {
      span,
      test,
      statistic,
      df,
      pValue: reading,
      rolls: counts.rolls,
      rollSeq: this.rollSeq,
    };
  }

  /**
   * An alert read back from the journal: at a restore the rolls go in
   * untested, and the alerts active are those the journal raised and did not
   * clear.
   */
  restoreAlert(event: FairnessMonitorEvent): void {
    const k = key(event.span, event.test);
    if (event.type === 'fairness-alert-cleared') this.active.delete(k);
    else {
      const { span, test, rollSeq, pValue } = event;
      this.active.set(k, { span, test, raisedAtRollSeq: rollSeq, pValue });
    }
  }

  private counts(span: FairnessSpan): SpanCounts {
    return span === 'window' ? this.window.counts : this.sinceChange;
  }

  private transition(span: FairnessSpan, test: FairnessTest): FairnessMonitorEvent | null {
    const counts = this.counts(span);
    const statistic = counts.statistic(test);
    if (statistic === null) return null;
    const { alertPValue, clearPValue } = this.config;
    const k = key(span, test);
    const active = this.active.has(k);
    // The common case, after every roll: nothing to raise, nothing to clear.
    if (active === pValueIsUnder(statistic, test, active ? clearPValue : alertPValue)) return null;
    const df = DEGREES_OF_FREEDOM[test];
    const pValue = chiSquareSurvival(statistic, df);
    const base = {
      tableId: this.tableId,
      span,
      test,
      rolls: counts.rolls,
      rollSeq: this.rollSeq,
      diceSetId: this.diceSetId,
    };
    if (!active) {
      this.active.set(k, { span, test, raisedAtRollSeq: this.rollSeq, pValue });
      return { type: 'fairness-alert-raised', ...base, statistic, df, pValue, alertPValue };
    }
    this.active.delete(k);
    return { type: 'fairness-alert-cleared', ...base, pValue, reason: 'recovered' };
  }

  /**
   * New dice at the table (a journaled `dice-changed` event): the since-change
   * span starts again and its alerts are cleared. The window keeps its rolls —
   * it is the span that watches the table whatever dice it uses.
   */
  onDiceChanged(event: DiceChangedEvent): FairnessMonitorEvent[] {
    if (event.tableId !== this.tableId) {
      throw new Error(`dice-changed for ${event.tableId} sent to the monitor of ${this.tableId}`);
    }
    const events: FairnessMonitorEvent[] = [];
    for (const test of TESTS) {
      if (!this.active.delete(key('since-dice-change', test))) continue;
      events.push({
        type: 'fairness-alert-cleared',
        tableId: this.tableId,
        span: 'since-dice-change',
        test,
        pValue: null,
        rolls: this.sinceChange.rolls,
        rollSeq: this.rollSeq,
        diceSetId: this.diceSetId,
        reason: 'dice-changed',
      });
    }
    this.sinceChange.reset();
    this.diceSetId = event.diceSetId;
    return events;
  }

  /** The whole state as plain JSON (the window as base64 bytes, oldest first). */
  snapshot(): FairnessMonitorSnapshot {
    return {
      format: SNAPSHOT_FORMAT,
      tableId: this.tableId,
      config: this.config,
      rollSeq: this.rollSeq,
      window: Buffer.from(this.window.toBytes()).toString('base64'),
      sinceDiceChange: {
        diceSetId: this.diceSetId,
        rolls: this.sinceChange.rolls,
        faces: [...this.sinceChange.faces],
        totals: [...this.sinceChange.totals],
      },
      activeAlerts: [...this.active.values()],
    };
  }

  /** Rebuilds a monitor from `snapshot()` output (parsed JSON); throws on a corrupt one. */
  static restore(json: unknown): FairnessMonitor {
    const s = parseSnapshot(json);
    const windowBytes = Buffer.from(s.window, 'base64');
    if (windowBytes.length > s.rollSeq || s.sinceDiceChange.rolls > s.rollSeq) {
      throw new RangeError('fairness monitor snapshot: spans hold more rolls than were recorded');
    }
    const monitor = new FairnessMonitor(s.tableId, s.config);
    monitor.window = OutcomeWindow.fromBytes(s.config.windowRolls, windowBytes);
    const { faces, totals, rolls, diceSetId } = s.sinceDiceChange;
    monitor.sinceChange.load(faces, totals, rolls);
    monitor.diceSetId = diceSetId;
    monitor.rollSeq = s.rollSeq;
    for (const a of s.activeAlerts) monitor.active.set(key(a.span, a.test), a);
    return monitor;
  }
}
