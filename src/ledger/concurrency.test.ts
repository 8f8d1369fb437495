import { describe, expect, it } from 'vitest';
import { ALICE, CAGE, IN_PLAY, seedTable, transfer } from './test-fixtures.js';
import { withStores } from './testing.js';
import { depositInput } from '../journal/samples.js';

withStores('ledger concurrency', (h) => {
  describe('racing transactions', () => {
    it('lets racing spends of one balance succeed only while the money lasts', async () => {
      const db = h.freshDb();
      // Two stores on one database: on PostgreSQL they are separate pools, as two nodes would be.
      const [a, b] = await Promise.all([h.open({ db }), h.open({ db })]);
      await seedTable(a);
      await a.transaction((tx) => tx.postTransfers([transfer('dep', CAGE, ALICE, 100)]));
      const spends = Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? a : b).transaction(
          async (tx) =>
            (await tx.postTransfers([transfer(`spend${i}`, ALICE, IN_PLAY, 30)])).results[0]!,
        ),
      );
      const results = await Promise.all(spends);
      const codes = results.map((r) => (r.status === 'failed' ? r.code : r.status)).sort();
      expect(codes).toEqual([
        ...Array<string>(3).fill('created'),
        ...Array<string>(7).fill('insufficient_funds'),
      ]);
      expect((await a.getAccount(ALICE))?.balanceMinor).toBe(10);
      expect((await b.getAccount(IN_PLAY))?.balanceMinor).toBe(90);
    });

    it('creates a transfer once when two transactions race with the same id', async () => {
      const db = h.freshDb();
      const [a, b] = await Promise.all([h.open({ db }), h.open({ db })]);
      await seedTable(a);
      const results = await Promise.all(
        [a, b, a, b].map((s) =>
          s.transaction(
            async (tx) =>
              (await tx.postTransfers([transfer('same', CAGE, ALICE, 25)])).results[0]!.status,
          ),
        ),
      );
      expect(results.sort()).toEqual(['created', 'exists', 'exists', 'exists']);
      expect((await a.getAccount(ALICE))?.balanceMinor).toBe(25);
    });

    it('answers a command raced from two nodes once, and replays it to the other', async () => {
      const db = h.freshDb();
      const [a, b] = await Promise.all([h.open({ db }), h.open({ db })]);
      await seedTable(a);
      const run = (store: typeof a) =>
        store.transaction(async (tx) => {
          const [seen] = await tx.findCommands([{ key: 'deposit-1', requestHash: 'hash' }]);
          if (seen!.status === 'replay') return 'replay';
          await tx.postTransfers([transfer('dep-for-command', CAGE, ALICE, 10)]);
          await tx.putCommands([{ key: 'deposit-1', requestHash: 'hash', response: { ok: true } }]);
          return 'ran';
        });
      const outcomes = await Promise.all([run(a), run(b), run(a), run(b)]);
      expect(outcomes.sort()).toEqual(['ran', 'replay', 'replay', 'replay']);
      expect((await b.getAccount(ALICE))?.balanceMinor).toBe(10);
    });

    it('keeps the journal one unbroken chain under concurrent appends', async () => {
      const db = h.freshDb();
      const [a, b] = await Promise.all([h.open({ db }), h.open({ db })]);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? a : b).transaction((tx) =>
            tx.appendJournal([depositInput(`T${i % 3}`, i), depositInput(null, 100 + i)]),
          ),
        ),
      );
      const { verifyChain } = await import('../journal/index.js');
      expect(await verifyChain(a)).toMatchObject({ ok: true, lastSeq: 40 });
    });
  });

  describe('table locks', () => {
    it('serialises commands on one table row: no update is lost', async () => {
      const db = h.freshDb();
      const [a, b] = await Promise.all([h.open({ db }), h.open({ db })]);
      await a.transaction((tx) => tx.createTable('T1', {}, { count: 0 }));
      const bump = (store: typeof a) =>
        store.transaction(async (tx) => {
          const table = await tx.loadTable('T1', { lock: 'exclusive' });
          const count = (table!.state as { count: number }).count;
          const saved = await tx.saveTable('T1', table!.version, { count: count + 1 });
          if (!saved.ok) throw new Error(saved.code);
        });
      await Promise.all(Array.from({ length: 12 }, (_, i) => bump(i % 2 === 0 ? a : b)));
      expect(await a.getTable('T1')).toMatchObject({ state: { count: 12 }, version: 13 });
    });
  });
});
