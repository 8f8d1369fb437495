import { expect, it } from 'vitest';
import { ALICE, BOB, CAGE, IN_PLAY, seedTable, transfer } from './test-fixtures.js';
import { indexedTypesSql } from './store.js';
import { withStores } from './testing.js';
import type { JournalType } from '../journal/index.js';
import { sampleInput } from '../journal/samples.js';

it('searches the index of migration 5 by the types asked for, not by every indexed type', () => {
  // SQLite searches by the first IN term: the index's own list first walked every
  // settlement of the table for a read of its few settings entries.
  const sql = indexedTypesSql(['table-created', 'table-settings-changed']);
  expect(sql.startsWith("type IN ('table-created', 'table-settings-changed') AND type IN (")).toBe(
    true,
  );
  expect(sql).toContain("'round-settled'");
});

withStores('reads by the indexes of migration 5', (h) => {
  it('gives each wallet movement of the rounds asked for with the balance it left, whatever came after', async () => {
    const store = await h.open();
    await seedTable(store);
    const post = (...transfers: ReturnType<typeof transfer>[]) =>
      store.transaction(async (tx) => {
        const r = await tx.postTransfers(transfers);
        if (!r.ok) throw new Error('post failed');
      });
    await post(transfer('d1', CAGE, ALICE, 1_000, { reference: 'deposit' }));
    await post(transfer('d2', CAGE, BOB, 500, { reference: 'deposit' }));
    await post(transfer('r1a', ALICE, IN_PLAY, 300, { reference: 'round/1' }));
    await post(transfer('r1b', BOB, IN_PLAY, 100, { reference: 'round/1' }));
    await post(transfer('r1c', IN_PLAY, ALICE, 350, { reference: 'round/1' }));
    await post(transfer('r2a', ALICE, IN_PLAY, 50, { reference: 'round/2' }));
    await post(transfer('w1', ALICE, CAGE, 200, { reference: 'withdrawal' }));

    const moves = await store.accountMovesSince([ALICE, BOB], ['round/1']);
    expect(moves.map(({ seq: _seq, ...m }) => m)).toEqual([
      { accountId: ALICE, reference: 'round/1', deltaMinor: -300, balanceAfterMinor: 700 },
      { accountId: BOB, reference: 'round/1', deltaMinor: -100, balanceAfterMinor: 400 },
      { accountId: ALICE, reference: 'round/1', deltaMinor: 350, balanceAfterMinor: 1_050 },
    ]);
    expect(await store.accountMovesSince([ALICE], ['round/9'])).toEqual([]);
  });

  it("reads a table's entries of the indexed types, oldest or newest first, and settlements by time", async () => {
    const store = await h.open();
    const append = (tableId: string | null, type: JournalType, atMs: number) =>
      store.transaction((tx) => tx.appendJournal([sampleInput(tableId, type)]), {
        nowMs: atMs,
      });
    await append('T1', 'table-created', 1_000);
    await append('T1', 'bet-placed', 2_000);
    await append('T1', 'round-settled', 3_000);
    await append('T2', 'round-settled', 3_500);
    await append(null, 'holiday-year-loaded', 3_600);
    await append('T1', 'round-settled', 4_000);

    const types = (entries: { type: string; seq: number }[]) => entries.map((e) => e.seq);
    expect(
      types(
        await store.readIndexedJournal({
          tableId: 'T1',
          types: ['table-created', 'round-settled'],
          limit: 10,
        }),
      ),
    ).toEqual([1, 3, 6]);
    expect(
      types(
        await store.readIndexedJournal({
          tableId: 'T1',
          types: ['round-settled'],
          beforeSeq: 6,
          limit: 1,
          newestFirst: true,
        }),
      ),
    ).toEqual([3]);
    expect(
      types(
        await store.readIndexedJournal({ tableId: null, types: ['holiday-year-loaded'], limit: 5 }),
      ),
    ).toEqual([5]);
    expect(
      types(
        await store.readSettlements({ tableId: 'T1', fromAtMs: 3_500, untilAtMs: 5_000, limit: 5 }),
      ),
    ).toEqual([6]);
    await expect(
      store.readIndexedJournal({ tableId: 'T1', types: ['bet-placed' as never], limit: 1 }),
    ).rejects.toThrow(/not indexed/);
  });
});
