import { describe, expect, it } from 'vitest';
import { seededDiceSource } from '../dice/index.js';
import type { Dice, Face } from '../rules/index.js';
import { detectionPower } from './detection-power.js';
import { FairnessMonitor } from './fairness-monitor.js';
import { type FairnessMonitorEvent, parseDiceChangedEvent } from './fairness-monitor-data.js';
import { loadedDice } from './testing.js';

function feed(monitor: FairnessMonitor, roll: () => Dice, rolls: number): FairnessMonitorEvent[] {
  const events: FairnessMonitorEvent[] = [];
  for (let i = 0; i < rolls; i++) events.push(...monitor.recordRoll(roll()));
  return events;
}

const dice = (a: Face, b: Face, c: Face): Dice => [a, b, c];

describe('detecting a loaded die', () => {
  // The sample sizes come from detectionPower at the monitor's alert level (p < 0.001) and 99% power.
  const oneDie = detectionPower({
    probability: 1 / 6 + 0.05,
    loadedDice: 1,
    significance: 0.001,
    power: 0.99,
  });
  const allThree = detectionPower({
    probability: 1 / 6 + 0.05,
    loadedDice: 3,
    significance: 0.001,
    power: 0.99,
  });

  it('uses the documented sample sizes', () => {
    expect([oneDie.rolls, allThree.rolls]).toEqual([7012, 780]);
  });

  it.each([
    ['one die', 1, oneDie.rolls],
    ['all three dice', 3, allThree.rolls],
  ] as const)('flags face 6 at 1/6 + 0.05 on %s within %i rolls', (_, loaded, rolls) => {
    const monitor = new FairnessMonitor('T-07');
    const events = feed(monitor, loadedDice('loaded-1', 6, 1 / 6 + 0.05, loaded), rolls);
    const raised = events.filter((e) => e.type === 'fairness-alert-raised');
    expect(raised.some((e) => e.test === 'faces')).toBe(true);
    expect(raised[0]).toMatchObject({ tableId: 'T-07', alertPValue: 0.001 });
    expect(raised.every((e) => e.type === 'fairness-alert-raised' && e.pValue < 0.001)).toBe(true);
  });

  it(`raises nothing on fair dice over ${oneDie.rolls} rolls`, () => {
    const monitor = new FairnessMonitor('T-07');
    const source = seededDiceSource('fair-1');
    expect(feed(monitor, () => source.roll(), oneDie.rolls)).toEqual([]);
    const evaluation = monitor.evaluate();
    for (const span of evaluation.spans)
      for (const t of span.tests) expect(t.pValue).toBeGreaterThan(0.001);
  });
});

describe('the alert rule', () => {
  it('raises a condition once, stays silent while it holds, and clears with hysteresis', () => {
    const monitor = new FairnessMonitor('T-07', { windowRolls: 1_080 });
    const events = feed(monitor, () => dice(6, 6, 6), 2_000);
    // Every roll is 6-6-6: four conditions (two spans × two tests), each raised once only.
    const raised = events.filter((e) => e.type === 'fairness-alert-raised');
    expect(raised.map((e) => `${e.span}/${e.test}`).sort()).toEqual([
      'since-dice-change/faces',
      'since-dice-change/totals',
      'window/faces',
      'window/totals',
    ]);
    expect(monitor.evaluate().activeAlerts).toHaveLength(4);
    // Fair rolls flush the 1,080-roll window: its conditions clear once p ≥ 0.01.
    const source = seededDiceSource('recover');
    const later = feed(monitor, () => source.roll(), 1_080);
    const cleared = later.filter((e) => e.type === 'fairness-alert-cleared');
    expect(
      cleared
        .map((e) => `${e.span}/${e.test}/${e.type === 'fairness-alert-cleared' && e.reason}`)
        .sort(),
    ).toEqual(['window/faces/recovered', 'window/totals/recovered']);
    expect(cleared.every((e) => e.pValue !== null && e.pValue >= 0.01)).toBe(true);
  });

  it('raises and clears exactly when the p-values of evaluate() say so, roll by roll', () => {
    // check() computes a p-value only near a threshold; the reference computes every one.
    const monitor = new FairnessMonitor('T-07', { windowRolls: 1_080 });
    const loaded = loadedDice('rule-loaded', 2, 0.3, 3);
    const fair = seededDiceSource('rule-fair');
    const active = new Set<string>();
    let events = 0;
    for (let n = 0; n < 6_000; n++) {
      const got = monitor.recordRoll(Math.floor(n / 700) % 2 === 0 ? loaded() : fair.roll());
      const expected: unknown[] = [];
      for (const { span, tests } of monitor.evaluate().spans) {
        for (const { test, pValue } of tests) {
          const k = `${span}/${test}`;
          if (pValue === null) continue;
          if (!active.has(k) && pValue < 0.001) {
            active.add(k);
            expected.push(['fairness-alert-raised', span, test, pValue]);
          } else if (active.has(k) && pValue >= 0.01) {
            active.delete(k);
            expected.push(['fairness-alert-cleared', span, test, pValue]);
          }
        }
      }
      expect(got.map((e) => [e.type, e.span, e.test, e.pValue])).toEqual(expected);
      events += got.length;
    }
    // The sequence raises and clears alerts over and over: the comparison has something to compare.
    expect(events).toBeGreaterThan(10);
  });

  it('does not test before the chi-square approximation holds', () => {
    const monitor = new FairnessMonitor('T-07');
    // Nine rolls of 6-6-6: below the 10 rolls the faces test needs.
    expect(feed(monitor, () => dice(6, 6, 6), 9)).toEqual([]);
    const [faces, totals] = monitor.evaluate().spans[0]!.tests;
    expect([faces?.pValue, totals?.pValue]).toEqual([null, null]);
    expect(monitor.recordRoll(dice(6, 6, 6)).map((e) => e.test)).toEqual(['faces', 'faces']);
  });

  it('a dice change restarts the since-change span and clears its alerts, not the window', () => {
    const monitor = new FairnessMonitor('T-07');
    feed(monitor, () => dice(6, 6, 6), 1_100);
    const change = parseDiceChangedEvent({
      type: 'dice-changed',
      tableId: 'T-07',
      diceSetId: 'SET-0042',
      changedBy: 'pit-boss-3',
      on: '2026-03-06',
      reason: 'suspected bias',
    });
    const events = monitor.onDiceChanged(change);
    expect(
      events.map((e) => [e.span, e.test, e.type === 'fairness-alert-cleared' && e.reason]),
    ).toEqual([
      ['since-dice-change', 'faces', 'dice-changed'],
      ['since-dice-change', 'totals', 'dice-changed'],
    ]);
    const evaluation = monitor.evaluate();
    expect(evaluation.diceSetId).toBe('SET-0042');
    expect(evaluation.spans.map((s) => s.rolls)).toEqual([1_100, 0]);
    expect(evaluation.activeAlerts.map((a) => a.span)).toEqual(['window', 'window']);
  });

  it('refuses a dice change for another table, and a malformed one', () => {
    const monitor = new FairnessMonitor('T-07');
    const event = {
      type: 'dice-changed',
      tableId: 'T-08',
      diceSetId: 'S',
      changedBy: 'x',
      on: '2026-03-06',
      reason: null,
    } as const;
    expect(() => monitor.onDiceChanged(event)).toThrow(/T-08/);
    expect(() => parseDiceChangedEvent({ ...event, on: 'today' })).toThrow(RangeError);
  });
});

describe('the sliding window', () => {
  it('holds the last W rolls, with counts that match a recount', () => {
    const monitor = new FairnessMonitor('T-07', { windowRolls: 1_080 });
    const source = seededDiceSource('window');
    const rolls = Array.from({ length: 2_500 }, () => source.roll());
    for (const roll of rolls) monitor.addRoll(roll);
    const fresh = new FairnessMonitor('T-07', { windowRolls: 1_080 });
    for (const roll of rolls.slice(-1_080)) fresh.addRoll(roll);
    const [window] = monitor.evaluate().spans;
    expect(window).toEqual(fresh.evaluate().spans[0]);
    expect(monitor.evaluate().spans[1]?.rolls).toBe(2_500);
  });

  it('refuses bad configurations', () => {
    expect(() => new FairnessMonitor('T', { windowRolls: 100 })).toThrow(RangeError);
    expect(() => new FairnessMonitor('T', { alertPValue: 0.05, clearPValue: 0.01 })).toThrow(
      RangeError,
    );
    expect(() => new FairnessMonitor('T').recordRoll([7, 1, 1] as unknown as Dice)).toThrow(
      RangeError,
    );
  });
});

describe('snapshots', () => {
  it('round-trip through JSON and carry on identically', () => {
    const monitor = new FairnessMonitor('T-07', { windowRolls: 2_000 });
    const roll = loadedDice('snap', 3, 1 / 6 + 0.05, 3);
    feed(monitor, roll, 3_000);
    const json = JSON.parse(JSON.stringify(monitor.snapshot())) as unknown;
    const restored = FairnessMonitor.restore(json);
    expect(restored.snapshot()).toEqual(monitor.snapshot());
    const next = Array.from({ length: 500 }, roll);
    expect(next.flatMap((d) => restored.recordRoll(d))).toEqual(
      next.flatMap((d) => monitor.recordRoll(d)),
    );
    expect(restored.evaluate()).toEqual(monitor.evaluate());
  });

  it('refuses a corrupt snapshot', () => {
    const monitor = new FairnessMonitor('T-07');
    feed(monitor, () => dice(1, 2, 3), 20);
    const snapshot = monitor.snapshot();
    expect(() => FairnessMonitor.restore({ ...snapshot, format: 'v0' })).toThrow(RangeError);
    const badCounts = { ...snapshot, sinceDiceChange: { ...snapshot.sinceDiceChange, rolls: 5 } };
    expect(() => FairnessMonitor.restore(badCounts)).toThrow(/add up/);
    expect(() => FairnessMonitor.restore({ ...snapshot, rollSeq: 10 })).toThrow(/more rolls/);
  });
});
