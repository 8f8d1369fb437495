import { expect, it, vi } from 'vitest';
import { depositInput } from '../journal/samples.js';
import type { JournalNotice, Store } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { Floor, type FloorOptions } from './floor.js';
import { simulatedTableSettings } from './table-settings.js';
import type { CommandRequest } from './table/types.js';
import { type PublishedEvent, TableService } from './table-service.js';

const open = [
  { type: 'cover' },
  { type: 'fasten-latches' },
  { type: 'trigger-shaker' },
  { type: 'open-betting' },
] as const;

/** What a node's floor handed on: the events it published and the wallets it told of. */
interface Heard {
  readonly events: PublishedEvent[];
  readonly wallets: string[];
}

/**
 * A node wired as the app wires one: the service's commits go through the
 * floor. No poll within a test: what is heard comes from the notices or the
 * reads they ask for.
 */
async function startNode(store: Store, options: Partial<FloorOptions> = {}) {
  const heard: Heard = { events: [], wallets: [] };
  const node: { floor?: Floor } = {};
  const service = new TableService({ store, publish: (t, e) => node.floor?.committed(t, e) });
  const floor = new Floor({
    store,
    service,
    publish: (_t, e) => heard.events.push(...e),
    walletMoved: (playerId) => heard.wallets.push(playerId),
    pollMs: 600_000,
    ...options,
  });
  node.floor = floor;
  // The node's reads of the whole journal (a table's snapshot reads only the table's entries).
  const spy = vi.spyOn(store, 'readJournal');
  const reads = (): number =>
    spy.mock.calls.filter(([query]) => query.tableId === undefined).length;
  await floor.start();
  return { store, service, floor, heard, reads };
}

/** Runs the commands on table T1 through the node's service; the events they committed, in order. */
async function run(
  service: TableService,
  commands: readonly CommandRequest['command'][],
): Promise<PublishedEvent[]> {
  const events: PublishedEvent[] = [];
  for (const command of commands) {
    const outcome = await service.execute({ tableId: 'T1', command });
    if (!outcome.ok) throw new Error(`${command.type} was refused`);
    events.push(...outcome.events);
  }
  return events;
}

withStores('floor', (h) => {
  it('rings the bell by itself when the betting timer runs out, on the lease holder (Art. 3.1)', async () => {
    const store = await h.open();
    let now = Date.now();
    const published: PublishedEvent[] = [];
    const node: { floor?: Floor } = {};
    const service = new TableService({
      store,
      clock: () => now,
      publish: (t, e) => {
        published.push(...e);
        node.floor?.committed(t, e);
      },
    });
    await service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: 1_000 });
    const floor = new Floor({ store, service, clock: () => now, publish: () => undefined });
    node.floor = floor;
    await floor.start();
    try {
      for (const c of open) await service.execute({ tableId: 'T1', command: c });
      now += 1_000;
      await expect
        .poll(() => published.some((p) => p.event.type === 'bell-rung'), { timeout: 5_000 })
        .toBe(true);
      expect(published.find((p) => p.event.type === 'bell-rung')!.event).toMatchObject({
        automatic: true,
      });
    } finally {
      floor.stop();
    }
  });

  it('publishes events committed by another node, read from the journal', async () => {
    const db = h.freshDb();
    const a = await h.open({ db });
    const b = await h.open({ db });
    const serviceA = new TableService({ store: a });
    await serviceA.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null });
    const seen: PublishedEvent[] = [];
    const floorB = new Floor({
      store: b,
      service: new TableService({ store: b }),
      publish: (_t, e) => seen.push(...e),
      pollMs: 100,
    });
    await floorB.start();
    try {
      for (const c of open) await serviceA.execute({ tableId: 'T1', command: c });
      await expect
        .poll(() => seen.map((p) => p.event.type), { timeout: 5_000 })
        .toEqual(['dome-covered', 'latches-fastened', 'dice-shaken', 'betting-opened']);
    } finally {
      floorB.stop();
    }
  });

  const onPostgres = h.engine === 'postgres';

  it.runIf(onPostgres)(
    "hands on a peer's commits and its own from their notices, in order, with no journal read",
    async () => {
      const db = h.freshDb();
      const a = await startNode(await h.open({ db }));
      const b = await startNode(await h.open({ db }));
      try {
        await a.service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null });
        const events = await run(a.service, open);
        await expect.poll(() => b.heard.events, { timeout: 5_000 }).toEqual(events);
        await expect.poll(() => a.heard.events, { timeout: 5_000 }).toEqual(events);
        // The commits of the other node too, in between.
        const more = await run(b.service, [{ type: 'ring-bell' }]);
        await expect.poll(() => a.heard.events, { timeout: 5_000 }).toEqual([...events, ...more]);
        await expect.poll(() => b.heard.events, { timeout: 5_000 }).toEqual([...events, ...more]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(b.heard.events).toEqual([...events, ...more]);
        expect(a.reads()).toBe(0);
        expect(b.reads()).toBe(0);
      } finally {
        a.floor.stop();
        b.floor.stop();
      }
    },
  );

  it.runIf(onPostgres)(
    'reads the journal for a commit too large for its notice, and only for it',
    async () => {
      const db = h.freshDb();
      const a = await startNode(await h.open({ db }));
      const b = await startNode(await h.open({ db }));
      // Journaled as the cage does: the node that wrote tells its floor.
      const deposit = async (from: number, count: number): Promise<void> => {
        const inputs = Array.from({ length: count }, (_, i) => depositInput(null, from + i));
        await a.store.transaction((tx) => tx.appendJournal(inputs));
        a.floor.journaled();
      };
      const players = (from: number, count: number): string[] =>
        Array.from({ length: count }, (_, i) => `p${from + i}`);
      try {
        await deposit(1, 2);
        await expect.poll(() => b.heard.wallets, { timeout: 5_000 }).toEqual(players(1, 2));
        expect(b.reads()).toBe(0);
        // 100 entries of about 200 bytes each: more than a notice carries.
        await deposit(3, 100);
        await expect.poll(() => b.heard.wallets, { timeout: 5_000 }).toEqual(players(1, 102));
        expect(b.reads()).toBe(1);
        await deposit(103, 1);
        await expect.poll(() => b.heard.wallets, { timeout: 5_000 }).toEqual(players(1, 103));
        expect(b.reads()).toBe(1);
      } finally {
        a.floor.stop();
        b.floor.stop();
      }
    },
  );

  it.runIf(onPostgres)('fills a missed notice by one journal read, in order, once', async () => {
    const db = h.freshDb();
    const a = await startNode(await h.open({ db }));
    const storeB = await h.open({ db });
    // B's listener misses one notice, as when its connection was away.
    let dropNext = false;
    const listen = storeB.cluster.listen.bind(storeB.cluster);
    storeB.cluster.listen = (onNotice) =>
      listen((notice: JournalNotice) => {
        if (dropNext && notice.kind === 'entries') dropNext = false;
        else onNotice(notice);
      });
    const b = await startNode(storeB);
    try {
      await a.service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null });
      const covered = await run(a.service, [open[0]]);
      await expect.poll(() => b.heard.events, { timeout: 5_000 }).toEqual(covered);
      dropNext = true;
      const latched = await run(a.service, [open[1]]);
      await expect.poll(() => dropNext, { timeout: 5_000 }).toBe(false);
      // Nothing heard of the missed commit until the next one shows the gap.
      expect(b.heard.events).toEqual(covered);
      expect(b.reads()).toBe(0);
      const shaken = await run(a.service, [open[2]]);
      const all = [...covered, ...latched, ...shaken];
      await expect.poll(() => b.heard.events, { timeout: 5_000 }).toEqual(all);
      expect(b.reads()).toBe(1);
      const more = await run(a.service, [open[3]]);
      await expect.poll(() => b.heard.events, { timeout: 5_000 }).toEqual([...all, ...more]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(b.heard.events).toEqual([...all, ...more]);
      expect(b.reads()).toBe(1);
    } finally {
      a.floor.stop();
      b.floor.stop();
    }
  });
});
