import { expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import { Floor } from './floor.js';
import { simulatedTableSettings } from './table-settings.js';
import { type PublishedEvent, TableService } from './table-service.js';

const open = [
  { type: 'cover' },
  { type: 'fasten-latches' },
  { type: 'trigger-shaker' },
  { type: 'open-betting' },
] as const;

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
});
