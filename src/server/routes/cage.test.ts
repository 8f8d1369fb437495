import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { openSqliteStore, walletAccount } from '../../ledger/index.js';
import { defaultTableSettings } from '../../service/table-settings.js';
import { buildApp } from '../app.js';
import { seedRoles, sessionToken } from '../testing.js';

it("pushes a deposit's new balance to the player's sockets at once", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-cage-'));
  const store = await openSqliteStore({ path: join(dir, 'c.sqlite'), currency: 'MOP' });
  const app = await buildApp({ store, logger: false });
  try {
    await app.ctx.service.createTable(defaultTableSettings('T1'));
    const users = await seedRoles(store);
    const now = Date.now();
    await app.fastify.ready();
    const messages: { type: string; balanceMinor?: number }[] = [];
    const socket = await app.fastify.injectWS(
      '/api/v1/tables/T1/ws?feed=summary',
      { headers: { authorization: `Bearer ${await sessionToken(store, users.player, now)}` } },
      {
        onInit: (ws) =>
          ws.on('message', (data: Buffer) => {
            messages.push(JSON.parse(data.toString('utf8')) as { type: string });
          }),
      },
    );
    const cashier = await sessionToken(store, users.cashier, now);
    const answer = await app.fastify.inject({
      method: 'POST',
      url: `/api/v1/players/${users.player.id}/deposits`,
      headers: { authorization: `Bearer ${cashier}` },
      payload: { amountMinor: 5_000 },
    });
    expect(answer.statusCode).toBe(200);
    // The seeding's own deposit may be pushed too, before: the last message is the one that counts.
    await expect
      .poll(() => messages.filter((m) => m.type === 'wallet').at(-1), { timeout: 5_000 })
      .toEqual({ type: 'wallet', balanceMinor: 1_005_000 });
    socket.terminate();
  } finally {
    await app.shutdown();
  }
});

it("leaves the page on the newest balance when two deposits' reads answer out of order", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-cage-'));
  const store = await openSqliteStore({ path: join(dir, 'c.sqlite'), currency: 'MOP' });
  const app = await buildApp({ store, logger: false });
  try {
    await app.ctx.service.createTable(defaultTableSettings('T1'));
    const users = await seedRoles(store);
    const now = Date.now();
    await app.fastify.ready();
    const wallet = walletAccount(users.player.id).id;
    // The read that sees the first deposit answers late, after the second deposit's read.
    const getAccount = store.getAccount.bind(store);
    vi.spyOn(store, 'getAccount').mockImplementation(async (id) => {
      const account = await getAccount(id);
      if (id === wallet && account?.balanceMinor === 1_005_000)
        await new Promise((r) => setTimeout(r, 300));
      return account;
    });
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
    for (const amountMinor of [5_000, 7_000]) {
      const answer = await app.fastify.inject({
        method: 'POST',
        url: `/api/v1/players/${users.player.id}/deposits`,
        headers: { authorization: `Bearer ${cashier}` },
        payload: { amountMinor },
      });
      expect(answer.statusCode).toBe(200);
    }
    await expect.poll(() => balances.at(-1), { timeout: 5_000 }).toBe(1_012_000);
    // Time for the late read to answer: it must not be sent after the newer one.
    await new Promise((r) => setTimeout(r, 600));
    expect(balances.at(-1)).toBe(1_012_000);
    socket.terminate();
  } finally {
    await app.shutdown();
  }
});
