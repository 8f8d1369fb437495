import { expect, it } from 'vitest';
import { StoreUnavailableError } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { leaseKey } from './command-router.js';
import { playTable, TableLeaseHeld } from './simulated-table.js';

const T = 'T1';
const play = (store: Parameters<typeof playTable>[0]['store'], rounds = 2) =>
  playTable({ store, tableId: T, rounds, players: 3, seed: 'lease', shaker: 'electronic' });

withStores('cussec play holds the table lease', (h) => {
  it('takes the lease with the next epoch, and records no holder to pass commands to', async () => {
    const store = await h.open();
    await play(store);
    expect(await store.getTable(T)).toMatchObject({ leaseEpoch: 1, leaseHolder: null });
    if (h.engine === 'postgres') expect(store.cluster.holds(leaseKey(T))).toBe(true);
  });

  it('refuses to start on a table whose lease another node holds, and writes nothing', async () => {
    if (h.engine === 'sqlite') return; // one process: every lease is its own
    const db = h.freshDb();
    const first = await h.open({ db });
    await play(first);
    // The first run's process still holds the lease (its store is open).
    const before = await first.journalHead();
    const player = await h.open({ db });
    await expect(play(player)).rejects.toBeInstanceOf(TableLeaseHeld);
    expect(await player.journalHead()).toEqual(before);
    expect((await player.getTable(T))?.leaseEpoch).toBe(1);
  });

  it('commits nothing once another node took the lease (a higher epoch) mid-run', async () => {
    const db = h.freshDb();
    const store = await h.open({ db });
    const other = await h.open({ db });
    let taking: Promise<{ lastSeq: number }> | undefined;
    const run = playTable({
      store,
      tableId: T,
      rounds: 5,
      players: 3,
      seed: 'fence',
      shaker: 'electronic',
      // As if this run's lease connection were lost and another node took the table.
      onRound: (done) => {
        if (done !== 1) return;
        taking = other
          .transaction((tx) => tx.takeTableLease(T, 'http://other:1'))
          .then(() => other.journalHead());
      },
    });
    await expect(run).rejects.toSatisfy(
      (e: unknown) => e instanceof StoreUnavailableError && e.code === 'table_moving',
    );
    expect(taking).toBeDefined();
    const headAtTaking = await taking!;
    const table = await store.getTable(T);
    expect(table).toMatchObject({ leaseEpoch: 2, leaseHolder: 'http://other:1' });
    // Nothing of the table's was journaled after the other node's epoch.
    const after = await store.readJournal({ fromSeq: headAtTaking.lastSeq + 1, limit: 100 });
    expect(after.filter((e) => e.tableId === T)).toEqual([]);
  });
});
