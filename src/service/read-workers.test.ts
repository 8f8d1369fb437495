import { expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import { playLeverRounds, seedReportDay, testClock } from './compliance-testing.js';
import { readTableDay } from './daily-report.js';
import { ReadWorkers } from './read-workers.js';
import { recallRounds } from './recall.js';
import { TableService } from './table-service.js';

const T = 'T1';

withStores('reads on worker threads', (h) => {
  it('reads what the store reads, on its own connection, and a day again only once it changed', async () => {
    const store = await h.open();
    await seedReportDay(store);
    const reads = new ReadWorkers(store);
    try {
      expect(await reads.recall(T, 3)).toEqual(await recallRounds(store, T, 3));
      expect(await reads.recall('T9', 3)).toBeUndefined();
      const { input: _input, ...day } = (await readTableDay(store, T, '2026-03-07'))!;
      const first = await reads.tableDay(T, '2026-03-07');
      expect(first).toEqual(day);
      expect(first!.report.rounds).toBe(1);
      // Nothing journaled since: the day kept is the answer.
      expect(await reads.tableDay(T, '2026-03-07')).toBe(first);
      expect(await reads.tableDay('T9', '2026-03-07')).toBeUndefined();
      // A round settled that day: read again.
      const clock = testClock(0);
      clock.at('2026-03-07', 0, 10);
      const tables = new TableService({ store, clock: clock.now });
      await playLeverRounds(tables, T, [
        {
          dice: [1, 2, 3],
          bets: [{ betId: 'late', playerId: 'bob', spot: 'small', stakeMinor: 1_000 }],
        },
      ]);
      await tables.drainAll();
      const second = await reads.tableDay(T, '2026-03-07');
      expect(second!.report.rounds).toBe(2);
      expect(second!.report.handleMinor).toBe(first!.report.handleMinor + 1_000);
    } finally {
      await reads.close();
    }
  });
});
