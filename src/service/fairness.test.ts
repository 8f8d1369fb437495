import { expect, it } from 'vitest';
import { createPrng } from '../dice/index.js';
import {
  isEntryOf,
  type JournalEntry,
  type JournalEntryOf,
  type JournalType,
} from '../journal/index.js';
import type { Store } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import type { Dice, Face } from '../rules/index.js';
import { audit } from './audit-runner.js';
import {
  createLeverTable,
  leverRound,
  macauMs,
  playLeverRounds,
  type RoundPlan,
  runAll,
  testClock,
} from './compliance-testing.js';
import { FairnessService, fairnessModel, HOLD_P_VALUE } from './fairness.js';
import { readTableJournal } from './round-snapshot.js';
import { TableService } from './table-service.js';
import { simulatedTableSettings } from './table-settings.js';

const T = 'T1';

/** Die 1 shows a six half the time (a fair die: one time in six); the other two are fair. */
function loadedRounds(n: number, seed: number): RoundPlan[] {
  const prng = createPrng(seed);
  const face = (): Face => prng.int(1, 6) as Face;
  return Array.from({ length: n }, () => ({
    dice: [prng.chance(0.5) ? 6 : (prng.int(1, 5) as Face), face(), face()] as Dice,
  }));
}

function fairRounds(n: number, seed: number): RoundPlan[] {
  const prng = createPrng(seed);
  return Array.from({ length: n }, () => ({
    dice: [1, 2, 3].map(() => prng.int(1, 6)) as unknown as Dice,
  }));
}

function open(store: Store, clock: () => number) {
  const tables = new TableService({ store, clock });
  const alerts: JournalEntry[] = [];
  const fairness = new FairnessService({
    store,
    tables,
    clock,
    onAlert: (_t, entries) => alerts.push(...entries),
    onError: (_t, error) => {
      throw error;
    },
  });
  return { tables, fairness, alerts };
}

async function entries<K extends JournalType>(
  store: Store,
  ...types: K[]
): Promise<JournalEntryOf<K>[]> {
  const out: JournalEntryOf<K>[] = [];
  for await (const e of readTableJournal(store, T, 1)) if (isEntryOf(e, types)) out.push(e);
  return out;
}

withStores('fairness monitoring (Art. 1.1)', (h) => {
  it('alerts on a loaded die, restarts the since-change span on new dice, and restores after a restart', async () => {
    const store = await h.open();
    const clock = testClock(macauMs('2026-03-06'));
    const first = open(store, clock.now);
    await createLeverTable(first.tables, T);
    await playLeverRounds(first.tables, T, loadedRounds(150, 7), 50);

    const loaded = (await first.fairness.evaluate(T))!;
    expect(loaded.rollSeq).toBe(150);
    const raised = await entries(store, 'fairness-alert-raised');
    expect(raised.map((e) => e.payload.span).sort()).toEqual(['since-dice-change', 'window']);
    expect(raised[0]!.payload).toMatchObject({ test: 'faces', tableId: T });
    expect(first.alerts.map((e) => e.seq)).toEqual(raised.map((e) => e.seq));
    expect(loaded.activeAlerts.map((a) => `${a.span}/${a.test}`).sort()).toEqual([
      'since-dice-change/faces',
      'window/faces',
    ]);

    const changed = await first.fairness.changeDice(T, {
      reason: 'die 1 worn',
      changedBy: 'croupier-1',
    });
    expect(changed).toMatchObject({
      ok: true,
      value: { type: 'dice-changed', diceSetId: '2026-03-06#1', reason: 'die 1 worn' },
    });
    const cleared = await entries(store, 'fairness-alert-cleared');
    expect(cleared.map((e) => e.payload)).toMatchObject([
      { span: 'since-dice-change', reason: 'dice-changed' },
    ]);
    await playLeverRounds(first.tables, T, fairRounds(20, 8), 20);
    const before = (await first.fairness.evaluate(T))!;
    expect(before.sinceDiceChange.rolls).toBe(20);
    expect(before.window.rolls).toBe(170);
    expect(before.diceSetId).toBe('2026-03-06#1');

    // A restart: the monitor comes back from the journal, with its alert, and raises nothing twice.
    first.fairness.close();
    const second = open(store, clock.now);
    const after = (await second.fairness.evaluate(T))!;
    expect(after).toEqual(before);
    expect(second.alerts).toEqual([]);
    expect((await entries(store, 'fairness-alert-raised', 'fairness-alert-cleared')).length).toBe(
      raised.length + cleared.length,
    );
    expect(await audit(store)).toMatchObject({ ok: true, rounds: 170 });
  });

  it('gives the detection power of its spans', async () => {
    const store = await h.open();
    const { tables, fairness } = open(store, Date.now);
    await createLeverTable(tables, T);
    const empty = (await fairness.evaluate(T))!;
    expect(empty.window.rolls).toBe(0);
    expect(empty.smallestDetectableExcess.window.oneDie).toBeNull();
    // docs/compliance.md: +0.05 on all three dice needs 541 rolls at the alert level, 90% power.
    expect(empty.detectionPower).toContainEqual(
      expect.objectContaining({ excess: 0.05, loadedDice: 3, significance: 0.001, rolls: 541 }),
    );
    await playLeverRounds(tables, T, fairRounds(30, 1), 30);
    const some = (await fairness.evaluate(T))!;
    expect(some.smallestDetectableExcess.window.allDice).toBeGreaterThan(0.1);
    expect(await fairness.evaluate('T9')).toBeUndefined();
  });

  it('records new dice between rounds only, and only where the dice are physical', async () => {
    const store = await h.open();
    const { tables, fairness } = open(store, Date.now);
    await createLeverTable(tables, T);
    await tables.createTable({ ...simulatedTableSettings('E1'), bettingTimerMs: null });
    await runAll(tables, T, leverRound({ dice: [1, 2, 3] }).slice(0, 3));
    const midRound = await fairness.changeDice(T, { reason: 'chipped', changedBy: 'c' });
    expect(midRound.ok ? null : midRound.rejection.code).toBe('table_mid_round');
    const electronic = await fairness.changeDice('E1', { reason: 'x', changedBy: 'c' });
    expect(electronic.ok ? null : electronic.rejection).toMatchObject({
      code: 'dice_not_physical',
    });
    const unknown = await fairness.changeDice('T9', { reason: 'x', changedBy: 'c' });
    expect(unknown.ok ? null : unknown.rejection.code).toBe('unknown_table');
    expect(await entries(store, 'dice-changed')).toEqual([]);
  });

  it('journals an alert once when two nodes raise it at the same instant', async () => {
    const db = h.freshDb();
    const clock = testClock(macauMs('2026-03-06'));
    const played = await h.open({ db });
    const tables = new TableService({ store: played, clock: clock.now });
    await createLeverTable(tables, T);
    await playLeverRounds(tables, T, loadedRounds(150, 7), 50);
    // Neither node has seen the rolls live: each restores, checks and raises the alerts.
    const a = open(await h.open({ db }), clock.now);
    const b = open(await h.open({ db }), clock.now);
    await Promise.all([a.fairness.evaluate(T), b.fairness.evaluate(T)]);
    const raised = await entries(played, 'fairness-alert-raised');
    expect(raised).toHaveLength(2);
    expect([...a.alerts, ...b.alerts].map((e) => e.seq).sort()).toEqual(raised.map((e) => e.seq));
    a.fairness.close();
    b.fairness.close();
  });

  it('keeps the monitor every 100 rolls: a restart reads it and the rolls after it', async () => {
    const db = h.freshDb();
    const clock = testClock(macauMs('2026-03-06'));
    const store = await h.open({ db });
    const live = open(store, clock.now);
    await createLeverTable(live.tables, T);
    await playLeverRounds(live.tables, T, fairRounds(230, 3), 50);
    const figures = await live.fairness.evaluate(T);
    const kept = await store.getReadModel(fairnessModel(T));
    expect(kept?.value).toMatchObject({ monitor: { rollSeq: 200 } });
    const restarted = open(await h.open({ db }), clock.now);
    expect(await restarted.fairness.evaluate(T)).toEqual(figures);
    live.fairness.close();
    restarted.fairness.close();
    // The audit rebuilds the kept monitor from the journal: one roll off, and it fails.
    expect(await audit(store)).toMatchObject({ ok: true });
    await h.raw(db, 'UPDATE read_models SET seq = seq - 1');
    expect(await audit(store)).toMatchObject({ ok: false, failure: { check: 'read-model' } });
  });
});

const ONES: RoundPlan = { dice: [1, 1, 1] };

/** Plays rounds one by one and waits for the monitor, as a croupier would between rounds. */
async function playOneByOne(
  tables: TableService,
  fairness: FairnessService,
  plans: readonly RoundPlan[],
): Promise<void> {
  for (const plan of plans) {
    await runAll(tables, T, leverRound(plan));
    await fairness.evaluate(T);
  }
}

withStores('a severe fairness alert holds the table (Art. 1.1)', (h) => {
  it('holds the table after ten rolls of 1-1-1 until a supervisor acknowledges it, journaling both', async () => {
    const store = await h.open();
    const { tables, fairness } = open(store, Date.now);
    await createLeverTable(tables, T);
    await playOneByOne(
      tables,
      fairness,
      Array.from({ length: 10 }, () => ONES),
    );

    const raised = await entries(store, 'fairness-alert-raised');
    expect(raised[0]!.payload.pValue).toBeLessThan(1e-29);
    const held = await entries(store, 'table-held');
    expect(held.map((e) => e.payload)).toMatchObject([
      { tableId: T, article: '1.1', alert: { test: 'faces' }, holdPValue: HOLD_P_VALUE },
    ]);
    const cover = await tables.execute({ tableId: T, command: { type: 'cover' } });
    expect(cover.ok ? null : cover.rejection).toMatchObject({ code: 'table_held', article: '1.1' });
    expect((await tables.snapshot(T))!.state.hold).toMatchObject({ article: '1.1' });

    const acknowledged = await fairness.acknowledgeHold(T, 'supervisor-1', 'dice inspected');
    expect(acknowledged).toMatchObject({ ok: true, value: { how: 'acknowledged' } });
    expect(await entries(store, 'table-hold-released')).toHaveLength(1);
    await runAll(tables, T, leverRound({ dice: [2, 3, 4] }));
    // The alert stays active (silent) after the acknowledgement: the next roll holds nothing.
    await fairness.evaluate(T);
    expect(await entries(store, 'table-held')).toHaveLength(1);
    const again = await fairness.acknowledgeHold(T, 'supervisor-1', null);
    expect(again.ok ? null : again.rejection.code).toBe('table_not_held');
  });

  it('holds the table on the roll an ordinary alert becomes severe, and not again once acknowledged', async () => {
    const store = await h.open();
    const first = open(store, Date.now);
    await createLeverTable(first.tables, T);
    const mixed = [1, 2, 3, 4, 5].map((i): RoundPlan => ({ dice: i % 2 ? [1, 2, 3] : [4, 5, 6] }));
    // Roll 10, the first the faces test runs: an alert, not under one in a billion.
    await playOneByOne(first.tables, first.fairness, [
      ...mixed,
      ...Array.from({ length: 5 }, () => ONES),
    ]);
    const [raised] = await entries(store, 'fairness-alert-raised');
    expect(raised!.payload).toMatchObject({ test: 'faces', rollSeq: 10 });
    expect(raised!.payload.pValue).toBeGreaterThan(HOLD_P_VALUE);
    expect(await entries(store, 'table-held')).toEqual([]);
    // Roll 11 takes the active alert's p-value under it: the table is held on that roll.
    await playOneByOne(first.tables, first.fairness, [ONES]);
    const held = await entries(store, 'table-held');
    expect(held.map((e) => e.payload.alert)).toMatchObject([{ test: 'faces', rollSeq: 11 }]);
    expect(held[0]!.payload.alert.pValue).toBeLessThan(HOLD_P_VALUE);
    const cover = await first.tables.execute({ tableId: T, command: { type: 'cover' } });
    expect(cover.ok ? null : cover.rejection.code).toBe('table_held');

    // Acknowledged, the same evidence holds the table no more: live, and after a restart.
    expect((await first.fairness.acknowledgeHold(T, 'supervisor-1', null)).ok).toBe(true);
    await playOneByOne(first.tables, first.fairness, [ONES]);
    first.fairness.close();
    const second = open(store, Date.now);
    await playOneByOne(second.tables, second.fairness, [ONES]);
    expect(await entries(store, 'table-held')).toHaveLength(1);
    const kept = await store.getReadModel(fairnessModel(T));
    expect(kept?.value).toMatchObject({
      coveredAlerts: ['since-dice-change/faces', 'window/faces'],
    });
  });

  it('is released by new dice at a lever table, in the same commit as their change', async () => {
    const store = await h.open();
    const { tables, fairness } = open(store, Date.now);
    await createLeverTable(tables, T);
    await playOneByOne(
      tables,
      fairness,
      Array.from({ length: 10 }, () => ONES),
    );
    expect((await tables.snapshot(T))!.state.hold).not.toBeNull();
    const changed = await fairness.changeDice(T, { reason: 'loaded?', changedBy: 'croupier-1' });
    expect(changed.ok).toBe(true);
    const [dice] = await entries(store, 'dice-changed');
    const [released] = await entries(store, 'table-hold-released');
    expect(released!.seq).toBe(dice!.seq + 1);
    expect(released!.payload).toMatchObject({ how: 'dice-changed', by: 'croupier-1' });
    expect((await tables.snapshot(T))!.state.hold).toBeNull();
    await runAll(tables, T, leverRound({ dice: [2, 3, 4] }));
  });

  it('does not hold the table for an ordinary alert, and sets a hold a crash lost at the next load', async () => {
    const store = await h.open();
    const first = open(store, Date.now);
    await createLeverTable(first.tables, T);
    // Nothing under one in a billion: an alert, no hold.
    first.fairness.close();
    const lenient = new FairnessService({ store, tables: first.tables, holdPValue: 1e-40 });
    await playOneByOne(
      first.tables,
      lenient,
      Array.from({ length: 10 }, () => ONES),
    );
    expect(await entries(store, 'fairness-alert-raised')).not.toEqual([]);
    expect(await entries(store, 'table-held')).toEqual([]);
    lenient.close();
    // A node with the documented severity reads the alert back and holds the table.
    const second = open(store, Date.now);
    await second.fairness.evaluate(T);
    expect(await entries(store, 'table-held')).toHaveLength(1);
    const cover = await second.tables.execute({ tableId: T, command: { type: 'cover' } });
    expect(cover.ok ? null : cover.rejection.code).toBe('table_held');
  });
});
