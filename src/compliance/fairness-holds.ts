/**
 * Art. 1.1: which alerts hold the table. An active alert whose p-value is now
 * under `holdPValue` is severe, and a severe alert holds the table between
 * rounds. The decision is taken again after every roll while an alert is
 * active: an alert raised at p = 10⁻³ whose p-value keeps falling holds the
 * table on the roll that takes it under the level, not only if it was already
 * there when raised.
 *
 * Each severe alert holds the table once. A hold set, and its release (a
 * supervisor's acknowledgement or new dice), "cover" every alert severe at
 * that moment: a covered alert holds the table no more until it clears and is
 * raised anew. So an acknowledged hold is not set again by the evidence the
 * supervisor has just seen, while an alert that becomes severe afterwards
 * holds the table again.
 *
 * Pure: the covered alerts are plain keys (`span/test`), kept beside the
 * monitor and rebuilt from the journal's alerts, holds and releases.
 */
import {
  type AlertReading,
  conditionKey,
  type FairnessMonitor,
  type FairnessSpan,
} from './fairness-monitor.js';
import type { FairnessTest } from './span-counts.js';

type Condition = { readonly span: FairnessSpan; readonly test: FairnessTest };
const alertKey = (a: Condition): string => conditionKey(a.span, a.test);

export class FairnessHolds {
  private readonly covered: Set<string>;

  constructor(
    readonly holdPValue: number,
    covered: Iterable<string> = [],
  ) {
    if (!(holdPValue > 0 && holdPValue < 1)) throw new RangeError(`holdPValue ${holdPValue}`);
    this.covered = new Set(covered);
  }

  /**
   * After a roll: the severe alerts no hold has covered, most severe first
   * (none: no hold). Costs nothing while no alert is active, and a
   * comparison for each active alert not covered.
   */
  due(monitor: FairnessMonitor): AlertReading[] {
    if (monitor.alertsActive === 0) return [];
    const due: AlertReading[] = [];
    for (const alert of monitor.activeAlerts()) {
      if (this.covered.has(alertKey(alert))) continue;
      const reading = monitor.readingUnder(alert, this.holdPValue);
      if (reading !== null) due.push(reading);
    }
    return due.sort((a, b) => a.pValue - b.pValue);
  }

  /** A hold set or released: every alert severe now is covered. */
  coverSevere(monitor: FairnessMonitor): void {
    for (const alert of monitor.activeAlerts())
      if (monitor.readingUnder(alert, this.holdPValue) !== null) this.covered.add(alertKey(alert));
  }

  /** An alert raised or cleared: its next severity is news again. */
  forget(alert: Condition): void {
    this.covered.delete(alertKey(alert));
  }

  /** The covered alerts' keys, to keep beside the monitor. */
  keys(): string[] {
    return [...this.covered].sort();
  }
}
