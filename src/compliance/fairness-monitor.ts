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
import { type FairnessTest, SpanCounts, type SpanTestResult } from './span-counts.js';

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

export interface FairnessEvaluation {
  readonly tableId: string;
  /** Rolls recorded since the monitor was created. */
  readonly rollSeq: number;
  readonly diceSetId: string | null;
  readonly spans: readonly SpanEvaluation[];
  readonly activeAlerts: readonly ActiveAlert[];
}

const TESTS: readonly FairnessTest[] = ['faces', 'totals'];
const key = (span: FairnessSpan, test: FairnessTest): string => `${span}/${test}`;

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

  /** Applies the alert rule to the current figures and returns what changed. */
  check(): FairnessMonitorEvent[] {
    const events: FairnessMonitorEvent[] = [];
    for (const { span, rolls, tests } of this.evaluate().spans) {
      for (const result of tests) {
        const event = this.transition(span, rolls, result);
        if (event !== null) events.push(event);
      }
    }
    return events;
  }

  private transition(
    span: FairnessSpan,
    rolls: number,
    result: SpanTestResult,
  ): FairnessMonitorEvent | null {
    const { pValue, statistic, df, test } = result;
    if (pValue === null || statistic === null) return null;
    const k = key(span, test);
    const base = {
      tableId: this.tableId,
      span,
      test,
      rolls,
      rollSeq: this.rollSeq,
      diceSetId: this.diceSetId,
    };
    if (!this.active.has(k) && pValue < this.config.alertPValue) {
      this.active.set(k, { span, test, raisedAtRollSeq: this.rollSeq, pValue });
      const alertPValue = this.config.alertPValue;
      return { type: 'fairness-alert-raised', ...base, statistic, df, pValue, alertPValue };
    }
    if (this.active.has(k) && pValue >= this.config.clearPValue) {
      this.active.delete(k);
      return { type: 'fairness-alert-cleared', ...base, pValue, reason: 'recovered' };
    }
    return null;
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
