/**
 * A passing node's side of a floor (command-router.ts): what its client gets
 * when the table's lease holder takes the commands and never answers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import { CommandRouter, FORWARD_PATH, leaseKey } from './command-router.js';
import { TableService } from './table-service.js';
import { simulatedTableSettings } from './table-settings.js';

const T = 'T1';

withStores('passing commands to the lease holder', (h) => {
  // Two stores of one database with their leases: PostgreSQL's advisory locks.
  it.skipIf(h.engine !== 'postgres')(
    'answers 503 table_moving when the holder takes the commands and never answers',
    async () => {
      const db = h.freshDb();
      const holderStore = await h.open({ db });
      const store = await h.open({ db });
      await new TableService({ store: holderStore }).createTable({
        ...simulatedTableSettings(T),
        bettingTimerMs: null,
      });
      // A holder that reads the request and then says nothing (hung, or cut off mid-way).
      const taken: string[] = [];
      const silent = createServer((request) => void taken.push(request.url ?? ''));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const holderUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      try {
        expect(await holderStore.cluster.tryLease(leaseKey(T))).toBe(true);
        await holderStore.transaction((tx) => tx.takeTableLease(T, holderUrl));
        const router = new CommandRouter({
          store,
          nodeUrl: () => 'http://127.0.0.1:1',
          nodeSecret: 'floor-secret-for-tests',
          forwardTimeoutMs: 300,
        });
        const started = performance.now();
        const placed = router.place({ tableId: T, command: { type: 'cover' } });
        // Retryable: the command may have committed there, and its idempotency key lands it once.
        await expect(placed).rejects.toMatchObject({ code: 'table_moving' });
        expect(performance.now() - started).toBeGreaterThanOrEqual(250);
        expect(taken).toEqual([FORWARD_PATH]);
      } finally {
        silent.closeAllConnections();
        silent.close();
      }
    },
  );
});
