/**
 * Two nodes on one database: a deposit made at the cage through one node
 * reaches the player's socket on the other node, through the journal (not a
 * message local to the node that took the deposit).
 */
import { expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import { defaultTableSettings } from '../service/table-settings.js';
import { buildApp } from './app.js';
import { seedRoles, sessionToken } from './testing.js';

withStores('wallet across nodes', (h) => {
  it("sends a deposit taken on one node to the player's socket on another", async () => {
    const db = h.freshDb();
    const cage = await buildApp({ store: await h.open({ db }), logger: false });
    const table = await buildApp({ store: await h.open({ db }), logger: false });
    try {
      await cage.ctx.service.createTable(defaultTableSettings('T1'));
      const users = await seedRoles(cage.ctx.store);
      const now = Date.now();
      await table.fastify.ready();
      await cage.fastify.ready();
      const messages: { type: string; balanceMinor?: number }[] = [];
      const socket = await table.fastify.injectWS(
        '/api/v1/tables/T1/ws?feed=summary',
        {
          headers: {
            authorization: `Bearer ${await sessionToken(table.ctx.store, users.player, now)}`,
          },
        },
        {
          onInit: (ws) =>
            ws.on('message', (data: Buffer) => {
              messages.push(JSON.parse(data.toString('utf8')) as { type: string });
            }),
        },
      );
      const answer = await cage.fastify.inject({
        method: 'POST',
        url: `/api/v1/players/${users.player.id}/deposits`,
        headers: {
          authorization: `Bearer ${await sessionToken(cage.ctx.store, users.cashier, now)}`,
        },
        payload: { amountMinor: 5_000 },
      });
      expect(answer.statusCode).toBe(200);
      // Each message carries the balance when it is sent (the seed's deposit, read late, may say it too).
      await expect
        .poll(() => messages.filter((m) => m.type === 'wallet').at(-1), { timeout: 5_000 })
        .toEqual({ type: 'wallet', balanceMinor: 1_005_000 });
      socket.terminate();
    } finally {
      await table.shutdown();
      await cage.shutdown();
    }
  });
});
