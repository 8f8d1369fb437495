/**
 * The fairness monitor's work after every roll, as the service does it
 * (`recordRoll`, then the holds' re-decision, Art. 1.1), against computing
 * every figure after every roll (`addRoll` then `evaluate`: the four
 * chi-square p-values), on the same rolls: fair dice (no alert active) and
 * loaded dice (alerts active, so the hold is decided again on every roll).
 */
import { FairnessHolds, FairnessMonitor } from '../src/compliance/index.js';
import { loadedDice } from '../src/compliance/testing.js';
import type { Dice } from '../src/rules/index.js';
import { type Benchmark, compare, round } from './harness.js';

const ROLLS = 20_000;

function rolls(seed: string, loaded: 0 | 3): Dice[] {
  const roll = loadedDice(seed, 6, loaded === 0 ? 1 / 6 : 0.25, loaded);
  return Array.from({ length: ROLLS }, roll);
}

/** The service's work a roll; a new monitor each pass, so the spans look the same every pass. */
function serviceWork(dice: readonly Dice[]): () => number {
  return () => {
    const monitor = new FairnessMonitor('B1');
    const holds = new FairnessHolds(1e-9);
    let due = 0;
    for (const d of dice) {
      for (const event of monitor.recordRoll(d)) holds.forget(event);
      const severe = holds.due(monitor).length;
      // The service holds the table, and the hold covers them.
      if (severe > 0) holds.coverSevere(monitor);
      due += severe;
    }
    return due;
  };
}

function everyFigure(dice: readonly Dice[]): () => number {
  return () => {
    const monitor = new FairnessMonitor('B1');
    let figures = 0;
    for (const d of dice) {
      monitor.addRoll(d);
      figures += monitor.evaluate().spans.length;
    }
    return figures;
  };
}

export const fairnessMonitorBenchmark: Benchmark = {
  name: 'fairness-monitor',
  description: `the monitor and hold decision after each of ${ROLLS.toLocaleString('en')} rolls vs every p-value computed after each`,
  run: (log) => {
    const out: Record<string, number> = {};
    for (const [name, loaded] of [
      ['fair', 0],
      ['loaded', 3],
    ] as const) {
      const dice = rolls(`bench-${name}`, loaded);
      const r = compare(serviceWork(dice), everyFigure(dice), ROLLS, { samples: 5 });
      log(
        `fairness-monitor (${name} dice): ${Math.round(r.subject).toLocaleString('en')} rolls/s, ` +
          `every figure ${Math.round(r.baseline).toLocaleString('en')} rolls/s, ratio ${round(r.ratio)}`,
      );
      out[`${name}RollsPerSecond`] = Math.round(r.subject);
      out[`${name}BaselineRollsPerSecond`] = Math.round(r.baseline);
      out[`${name}Ratio`] = round(r.ratio);
    }
    return out;
  },
};
