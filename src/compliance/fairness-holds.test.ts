import { describe, expect, it } from 'vitest';
import { seededDiceSource } from '../dice/index.js';
import type { Dice } from '../rules/index.js';
import { FairnessHolds } from './fairness-holds.js';
import { FairnessMonitor } from './fairness-monitor.js';
import { loadedDice } from './testing.js';

/** The service's hold level (HOLD_P_VALUE of src/service/fairness.ts). */
const HOLD = 1e-9;

interface Run {
  /** The roll of the first alert, and of the hold (null: none within the rolls). */
  readonly firstAlert: number | null;
  readonly heldAt: number | null;
  readonly alerts: number;
}

/**
 * Rolls dice through a monitor and its holds, as FairnessService does after
 * every roll (the table is held on the first roll with an alert due), until
 * the table is held or `rolls` have been rolled.
 */
function play(roll: () => Dice, rolls: number, onRoll?: (m: FairnessMonitor) => void): Run {
  const monitor = new FairnessMonitor('T-07');
  const holds = new FairnessHolds(HOLD);
  let firstAlert: number | null = null;
  let alerts = 0;
  for (let n = 1; n <= rolls; n++) {
    for (const event of monitor.recordRoll(roll())) {
      holds.forget(event);
      if (event.type !== 'fairness-alert-raised') continue;
      alerts++;
      firstAlert ??= n;
    }
    onRoll?.(monitor);
    if (holds.due(monitor).length > 0) return { firstAlert, heldAt: n, alerts };
  }
  return { firstAlert, heldAt: null, alerts };
}

/** Reference: the first roll at which any test of any span has a p-value under the hold level. */
function firstSevereRoll(roll: () => Dice, rolls: number): number | null {
  let n = 0;
  let first: number | null = null;
  play(roll, rolls, (monitor) => {
    n++;
    const severe = monitor
      .evaluate()
      .spans.some((s) => s.tests.some((t) => t.pValue !== null && t.pValue < HOLD));
    if (severe) first ??= n;
  });
  return first;
}

describe('loaded dice are held on the roll their evidence becomes overwhelming (Art. 1.1)', () => {
  // The trials of issue 25, replayed with seeds that give the same figures: three dice with 6
  // at probability 0.25 alerted at round 107 and were under 1e-9 from round 190, yet held only
  // at round 1,080; one such die was under 1e-9 from round 3,750 and never held in 4,500.
  it.each([
    ['three dice', 250, 'issue-25-three-86', 3, 106, 191],
    ['one die', 4_000, 'issue-25-one-111', 1, 1_166, 3_775],
  ] as const)(
    '%s with 6 at 0.25: held by roll %i, on the first roll under 1e-9 (seed %s)',
    (_, goal, seed, dice, firstAlert, heldAt) => {
      const run = play(loadedDice(seed, 6, 0.25, dice), 5_000);
      expect(run).toMatchObject({ firstAlert, heldAt });
      expect(run.heldAt).toBeLessThanOrEqual(goal);
      expect(firstSevereRoll(loadedDice(seed, 6, 0.25, dice), 5_000)).toBe(heldAt);
    },
  );

  it.each([
    // docs/compliance.md, "How soon loaded dice are held": the rolls to a hold over 20 seeds.
    ['three dice', 3, { by: 250, heldBy: 5, median: 341, max: 529 }],
    ['one die', 1, { by: 4_000, heldBy: 19, median: 2_676, max: 4_666 }],
  ] as const)('%s with 6 at 0.25 over 20 seeds: the documented figures', (_, dice, figures) => {
    const runs = Array.from({ length: 20 }, (_, seed) =>
      play(loadedDice(`held-${dice}-${seed}`, 6, 0.25, dice), 10_000),
    );
    expect(runs.every((r) => r.heldAt !== null)).toBe(true);
    const heldAt = runs.map((r) => r.heldAt!).sort((a, b) => a - b);
    // The median is the 11th of the 20.
    expect({
      by: figures.by,
      heldBy: heldAt.filter((n) => n <= figures.by).length,
      median: heldAt[10],
      max: heldAt[19],
    }).toEqual(figures);
  });
});

describe('fair dice are not held', () => {
  // 20 seeds × 200,000 rolls: no hold; the alerts they raise are the false-alert rate documented
  // in docs/compliance.md ("What an alert means").
  const ALERTS_BY_SEED = [0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 3, 2, 0, 3, 1, 0, 2, 0, 0, 0];
  it.each(Array.from({ length: 20 }, (_, seed) => seed))(
    'seed %i: no hold in 200,000 rolls',
    (seed) => {
      const source = seededDiceSource(`fair-hold-${seed}`);
      const run = play(() => source.roll(), 200_000);
      expect(run.heldAt).toBeNull();
      expect(run.alerts).toBe(ALERTS_BY_SEED[seed]);
    },
    60_000,
  );
});

describe('what a hold covers', () => {
  const sixes = (): Dice => [6, 6, 6];
  const fair = seededDiceSource('cover');

  it('holds once for an alert: a hold or its release covers every alert severe then', () => {
    const monitor = new FairnessMonitor('T-07', { windowRolls: 1_080 });
    const holds = new FairnessHolds(HOLD);
    for (let n = 0; n < 10; n++) monitor.recordRoll(sixes());
    expect(holds.due(monitor).map((a) => `${a.span}/${a.test}`)).toEqual([
      'window/faces',
      'since-dice-change/faces',
    ]);
    holds.coverSevere(monitor);
    monitor.recordRoll(sixes());
    expect(holds.due(monitor)).toEqual([]);
    expect(holds.keys()).toEqual(['since-dice-change/faces', 'window/faces']);
  });

  it('holds again for an alert that becomes severe after the hold, and for one raised anew', () => {
    const monitor = new FairnessMonitor('T-07', { windowRolls: 1_080 });
    const holds = new FairnessHolds(HOLD);
    const feed = (roll: () => Dice, rolls: number) => {
      for (let n = 0; n < rolls; n++) for (const e of monitor.recordRoll(roll())) holds.forget(e);
    };
    feed(sixes, 10);
    holds.coverSevere(monitor);
    // The totals test becomes computable at 1,080 rolls: a new severe alert, due at once.
    feed(sixes, 1_070);
    expect(holds.due(monitor).map((a) => a.test)).toEqual(['totals', 'totals']);
    holds.coverSevere(monitor);
    // Fair rolls flush the window: its alerts clear, and sixes raise them anew, due again.
    feed(() => fair.roll(), 1_080);
    expect(monitor.evaluate().activeAlerts.map((a) => a.span)).toEqual([
      'since-dice-change',
      'since-dice-change',
    ]);
    feed(sixes, 60);
    const due = holds.due(monitor).map((a) => `${a.span}/${a.test}`);
    expect(due.sort()).toEqual(['window/faces', 'window/totals']);
  });

  it('refuses a hold level that is not a probability', () => {
    expect(() => new FairnessHolds(0)).toThrow(RangeError);
    expect(() => new FairnessHolds(1)).toThrow(RangeError);
  });
});
