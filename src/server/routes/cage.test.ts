/**
 * The cage's deposits reach the player's page at once, as `wallet` messages on
 * the player's table sockets, and the last one is always the newest balance.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { openSqliteStore, type Store, walletAccount } from '../../ledger/index.js';
import { defaultTableSettings } from '../../service/table-settings.js';
import { buildApp } from '../app.js';
import { seedRoles, sessionToken } from '../testing.js';

/**
 * A node with a table, the player's summary socket and the cashier's deposits;
 * `before` runs once the users are seeded, before the socket opens.
 */
async function withCage(
  run: (cage: {
    balances: number[];
    deposit: (amountMinor: number) => Promise<void>;
  }) => Promise<void>,
  before: (store: Store, playerId: string) => void = () => undefined,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-cage-'));
  const store = await openSqliteStore({ path: join(dir, 'c.sqlite'), currency: 'MOP' });
  const app = await buildApp({ store, logger: false });
  try {
    await app.ctx.service.createTable(defaultTableSettings('T1'));
    const users = await seedRoles(store);
    const now = Date.now();
    await app.fastify.ready();
    before(store, users.player.id);
    const balances: number[] = [];
    const socket = await app.fastify.injectWS(
      '/api/v1/tables/T1/ws?feed=summary',
      { headers: { authorization: `Bearer ${await sessionToken(store, users.player, now)}` } },
      {
        onInit: (ws) =>
          ws.on('message', (data: Buffer) => {
            const m = JSON.parse(data.toString('utf8')) as { type: string; balanceMinor: number };
            if (m.type === 'wallet') balances.push(m.balanceMinor);
          }),
      },
    );
    const cashier = await sessionToken(store, users.cashier, now);
    const deposit = async (amountMinor: number): Promise<void> => {
      const answer = await app.fastify.inject({
        method: 'POST',
        url: `/api/v1/players/${users.player.id}/deposits`,
        headers: { authorization: `Bearer ${cashier}` },
        payload: { amountMinor },
      });
      expect(answer.statusCode).toBe(200);
    };
    await run({ balances, deposit });
    socket.terminate();
  } finally {
    await app.shutdown();
  }
}

it("pushes a deposit's new balance to the player's sockets at once", async () => {
  await withCage(async ({ balances, deposit }) => {
    await deposit(5_000);
    // The seeding's own deposit may be pushed too, before: the last message is the one that counts.
    await expect.poll(() => balances.at(-1), { timeout: 5_000 }).toBe(1_005_000);
  });
});

it("leaves the page on the newest balance when two deposits' reads answer out of order", async () => {
  await withCage(
    async ({ balances, deposit }) => {
      await deposit(5_000);
      await deposit(7_000);
      await expect.poll(() => balances.at(-1), { timeout: 5_000 }).toBe(1_012_000);
      // Time for the late read to answer: it must not be sent after the newer one.
      await new Promise((r) => setTimeout(r, 600));
      expect(balances.at(-1)).toBe(1_012_000);
    },
    (store, playerId) => {
      // The read that sees the first deposit answers late, after the second deposit's read.
      const wallet = walletAccount(playerId).id;
      const getAccount = store.getAccount.bind(store);
      vi.spyOn(store, 'getAccount').mockImplementation(async (id) => {
        const account = await getAccount(id);
        if (id === wallet && account?.balanceMinor === 1_005_000)
          await new Promise((r) => setTimeout(r, 300));
        return account;
      });
    },
  );
});
