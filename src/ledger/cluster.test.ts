import { expect, it } from 'vitest';
import { depositInput } from '../journal/samples.js';
import type { JournalNotice } from './journal-notice.js';
import { withStores } from './testing.js';

withStores('cluster', (h) => {
  it('tells every node of a journal write once it commits, with its entries', async () => {
    const db = h.freshDb();
    const a = await h.open({ db });
    const b = await h.open({ db });
    const heardA: JournalNotice[] = [];
    const heardB: JournalNotice[] = [];
    await a.cluster.listen((n) => heardA.push(n));
    await b.cluster.listen((n) => heardB.push(n));
    // A write that rolls back tells nobody.
    await expect(
      a.transaction(async (tx) => {
        await tx.appendJournal([depositInput(null, 1)]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const entries = await a.transaction((tx) =>
      tx.appendJournal([depositInput(null, 2), depositInput(null, 3)]),
    );
    if (h.engine === 'sqlite') {
      // One node: nothing is heard; the floor reads after its own writes.
      expect(a.cluster.hearsJournal).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect([...heardA, ...heardB]).toEqual([]);
      return;
    }
    expect(a.cluster.hearsJournal).toBe(true);
    await expect.poll(() => heardB, { timeout: 3_000 }).toEqual([{ kind: 'entries', entries }]);
    // The writing node hears its own write too.
    await expect.poll(() => heardA, { timeout: 3_000 }).toEqual([{ kind: 'entries', entries }]);
    expect(entries).toEqual(await b.readJournal({ fromSeq: entries[0]!.seq, limit: 10 }));
  });

  it('gives a lease to one node at a time and frees it when the holder goes', async () => {
    const db = h.freshDb();
    const a = await h.open({ db });
    const b = await h.open({ db });
    expect(await a.cluster.tryLease('table:T1')).toBe(true);
    expect(a.cluster.holds('table:T1')).toBe(true);
    if (h.engine === 'sqlite') return;
    expect(await b.cluster.tryLease('table:T1')).toBe(false);
    expect(await b.cluster.tryLease('table:T2')).toBe(true);
    // Every node can tell whether a lease is held (the floor page names the holder from the table row).
    expect(await b.cluster.leaseTaken('table:T1')).toBe(true);
    expect(await a.cluster.leaseTaken('table:T2')).toBe(true);
    expect(await a.cluster.leaseTaken('table:T3')).toBe(false);
    await a.cluster.close();
    await expect.poll(() => b.cluster.leaseTaken('table:T1'), { timeout: 3_000 }).toBe(false);
    await expect.poll(() => b.cluster.tryLease('table:T1'), { timeout: 3_000 }).toBe(true);
  });
});
