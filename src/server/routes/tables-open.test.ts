import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openSqliteStore } from '../../ledger/index.js';
import { simulatedTableSettings } from '../../service/table-settings.js';
import { buildApp } from '../app.js';
import { seedRoles, sessionToken } from '../testing.js';

it('closes a table for play (no round opens, Art. 2), journals who did it, and opens it again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-open-'));
  const store = await openSqliteStore({ path: join(dir, 'o.sqlite'), currency: 'MOP' });
  const app = await buildApp({ store, logger: false });
  try {
    await app.ctx.service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null });
    const users = await seedRoles(store);
    const now = Date.now();
    const as = async (role: 'supervisor' | 'croupier') => ({
      authorization: `Bearer ${await sessionToken(store, users[role], now)}`,
    });
    const supervisor = await as('supervisor');
    const croupier = await as('croupier');
    await app.fastify.ready();
    const messages: { type: string; open?: boolean }[] = [];
    const socket = await app.fastify.injectWS(
      '/api/v1/tables/T1/ws?feed=summary',
      { headers: croupier },
      {
        onInit: (ws) =>
          ws.on('message', (data: Buffer) => {
            messages.push(JSON.parse(data.toString('utf8')) as { type: string });
          }),
      },
    );
    const closed = await app.fastify.inject({
      method: 'POST',
      url: '/api/v1/tables/T1/close',
      headers: supervisor,
    });
    expect(closed.statusCode).toBe(200);
    expect(closed.json<{ closedSinceMs: number | null }>().closedSinceMs).not.toBeNull();
    const cover = await app.fastify.inject({
      method: 'POST',
      url: '/api/v1/tables/T1/commands',
      headers: croupier,
      payload: { type: 'cover' },
    });
    expect(cover.statusCode).toBe(409);
    expect(cover.json()).toMatchObject({ error: { code: 'table_closed', article: '2' } });
    // The floor shows the table closed, run by this node (one node, off a floor: no URL to name).
    const floor = await app.fastify.inject({ url: '/api/v1/floor', headers: supervisor });
    const body = floor.json<{
      node: string | null;
      tables: { closedSinceMs: number; leaseHeldHere: boolean; leaseHolder: string | null }[];
    }>();
    expect(body.tables[0]!.closedSinceMs).toBe(
      closed.json<{ closedSinceMs: number }>().closedSinceMs,
    );
    expect(body.node).toBeNull();
    expect(body.tables[0]).toMatchObject({ leaseHeldHere: true, leaseHolder: null });
    const opened = await app.fastify.inject({
      method: 'POST',
      url: '/api/v1/tables/T1/open',
      headers: supervisor,
    });
    expect(opened.json<{ closedSinceMs: number | null }>().closedSinceMs).toBeNull();
    const again = await app.fastify.inject({
      method: 'POST',
      url: '/api/v1/tables/T1/commands',
      headers: croupier,
      payload: { type: 'cover' },
    });
    expect(again.statusCode).toBe(200);
    // The table's sockets heard of both, to fetch their view again.
    await expect
      .poll(() => messages.filter((m) => m.type === 'table-open').map((m) => m.open))
      .toEqual([false, true]);
    socket.terminate();
    const journal = await store.readJournal({ fromSeq: 1, limit: 1_000 });
    const staff = journal.filter((e) => e.type === 'table-closed' || e.type === 'table-opened');
    expect(staff.map((e) => [e.type, e.payload])).toEqual([
      ['table-closed', { by: users.supervisor.id }],
      ['table-opened', { by: users.supervisor.id }],
    ]);
  } finally {
    await app.shutdown();
  }
});
