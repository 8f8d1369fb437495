import { expect, it } from 'vitest';
import { withStores } from './testing.js';

withStores('cluster', (h) => {
  it('wakes every listener on a notify', async () => {
    const db = h.freshDb();
    const a = await h.open({ db });
    const b = await h.open({ db });
    const heard: string[] = [];
    await b.cluster.listen((p) => heard.push(p));
    await a.cluster.notify('T1:42');
    if (h.engine === 'sqlite') {
      // One node: a notify reaches only the listeners of the same store.
      await a.cluster.listen((p) => heard.push(p));
      await a.cluster.notify('T1:43');
      expect(heard).toEqual(['T1:43']);
      return;
    }
    await expect.poll(() => heard, { timeout: 3_000 }).toEqual(['T1:42']);
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
