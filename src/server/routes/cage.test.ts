import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openSqliteStore } from '../../ledger/index.js';
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
    const start = Date.now();
    while (!messages.some((m) => m.type === 'wallet') && Date.now() - start < 5_000)
      await new Promise((r) => setTimeout(r, 10));
    expect(messages.find((m) => m.type === 'wallet')).toEqual({
      type: 'wallet',
      balanceMinor: 1_005_000,
    });
    socket.terminate();
  } finally {
    await app.shutdown();
  }
});
