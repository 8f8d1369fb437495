/**
 * A floor's commands run on the table's lease holder: another node passes them
 * there over the internal route and relays the answer; the lease epoch fences
 * a holder that lost its lease and does not know it yet; when the holder is
 * gone, a node takes the lease over and a retry with the same key lands once.
 */
import { describe, expect, it, vi } from 'vitest';
import { type Store, StoreUnavailableError, walletAccount } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { FORWARD_PATH, NODE_SECRET_HEADER } from '../service/command-router.js';
import { type CommandPlacement, TableService } from '../service/table-service.js';
import { simulatedTableSettings } from '../service/table-settings.js';
import { type App, buildApp } from './app.js';
import { seedUsers, sessionToken } from './testing.js';

const T = 'T1';
const SECRET = 'floor-secret-for-tests';
const OPEN = ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'] as const;

/** A node: its app listening on a port of its own, its commands placed by a CommandRouter. */
async function node(store: Store): Promise<{ app: App; url: string }> {
  const listening: { url?: string } = {};
  const app = await buildApp({
    store,
    logger: false,
    node: { nodeUrl: () => listening.url, nodeSecret: SECRET },
  });
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = app.fastify.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  listening.url = url;
  return { app, url };
}

async function bet(url: string, token: string, betId: string): Promise<Response> {
  return fetch(`${url}/api/v1/tables/${T}/bets`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': betId,
    },
    body: JSON.stringify({ betId, spot: 'small', stakeMinor: 1_000 }),
  });
}

/** A request to a node's internal route, with the floor's secret, as another node sends it. */
function internal(url: string, commands: unknown[]): Promise<Response> {
  return fetch(`${url}${FORWARD_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [NODE_SECRET_HEADER]: SECRET },
    body: JSON.stringify({ commands }),
  });
}

/** The node takes the table's lease, as its first command does (a table already open stays so). */
async function holdLease(app: App): Promise<void> {
  expect((await app.ctx.service.setOpen(T, true, 'lease-taker')).ok).toBe(true);
}

/** What a node's floor page says of the table's lease. */
async function floorLease(url: string, token: string) {
  const answer = await fetch(`${url}/api/v1/floor`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await answer.json()) as {
    node: string | null;
    tables: { id: string; leaseHeldHere: boolean; leaseHolder: string | null }[];
  };
  const table = body.tables.find((t) => t.id === T)!;
  return { node: body.node, leaseHeldHere: table.leaseHeldHere, leaseHolder: table.leaseHolder };
}

async function stakesOf(store: Store, betId: string): Promise<number> {
  const transfers = await store.transfersOfAccount(walletAccount(playerId).id);
  return transfers.filter((t) => t.kind === 'bet' && t.id.endsWith(`:${betId}`)).length;
}

let playerId = '';

withStores('forwarding and fencing', (h) => {
  it('refuses the commit of a holder whose lease another node took since, and writes nothing', async () => {
    const db = h.freshDb();
    const storeA = await h.open({ db });
    const storeB = await h.open({ db });
    // Node A took the lease at epoch 1 and has not heard that it lost it.
    let epochA = 0;
    const stale: CommandPlacement = {
      epoch: () => epochA,
      place: () => Promise.resolve('here'),
    };
    const a = new TableService({ store: storeA, placement: stale });
    await a.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
    epochA = (await storeA.transaction((tx) => tx.takeTableLease(T, 'http://a')))!;
    expect(epochA).toBe(1);
    expect((await a.execute({ tableId: T, command: { type: 'cover' } })).ok).toBe(true);
    // Node B takes the lease (epoch 2) and runs a command under it.
    const epochB = (await storeB.transaction((tx) => tx.takeTableLease(T, 'http://b')))!;
    const b = new TableService({
      store: storeB,
      placement: { epoch: () => epochB, place: () => Promise.resolve('here') },
    });
    expect((await b.execute({ tableId: T, command: { type: 'fasten-latches' } })).ok).toBe(true);
    const head = (await storeA.journalHead()).lastSeq;
    const version = (await storeA.getTable(T))!.version;

    const refused = a.execute({
      tableId: T,
      command: { type: 'trigger-shaker' },
      idempotencyKey: 'k1',
    });
    await expect(refused).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(refused).rejects.toMatchObject({ code: 'table_moving' });
    expect((await storeA.journalHead()).lastSeq).toBe(head);
    expect((await storeA.getTable(T))!.version).toBe(version);
    // The retry with the same key, on the holder, lands once.
    const retried = await b.execute({
      tableId: T,
      command: { type: 'trigger-shaker' },
      idempotencyKey: 'k1',
    });
    expect(retried.ok).toBe(true);
    expect((await storeA.journalHead()).lastSeq).toBe(head + 1);
  });

  if (h.engine !== 'postgres') return;

  describe('two nodes on one database', () => {
    it('passes a bet taken by the other node to the lease holder, which commits it', async () => {
      const db = h.freshDb();
      const storeA = await h.open({ db });
      const storeB = await h.open({ db });
      const a = await node(storeA);
      const b = await node(storeB);
      try {
        await a.app.ctx.service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
        const [player] = await seedUsers(storeA, 'player', 1, { fundMinor: 100_000 });
        playerId = player!.id;
        const token = await sessionToken(storeA, player!, Date.now());
        // A runs the round's first command: it takes the lease.
        for (const type of OPEN) {
          const outcome = await a.app.ctx.service.execute({
            tableId: T,
            command: { type } as { type: 'cover' },
          });
          expect(outcome.ok, type).toBe(true);
        }
        const table = await storeA.getTable(T);
        expect(table).toMatchObject({ leaseEpoch: 1, leaseHolder: a.url });
        // Each node's floor names the holder as the table row does: the URL commands are passed to.
        const [supervisor] = await seedUsers(storeA, 'supervisor', 1);
        const staff = await sessionToken(storeA, supervisor!, Date.now());
        expect(await floorLease(a.url, staff)).toEqual({
          node: a.url,
          leaseHeldHere: true,
          leaseHolder: a.url,
        });
        expect(await floorLease(b.url, staff)).toEqual({
          node: b.url,
          leaseHeldHere: false,
          leaseHolder: a.url,
        });
        const ranOnA = vi.spyOn(a.app.ctx.service, 'executeHere');
        const ranOnB = vi.spyOn(b.app.ctx.service, 'executeHere');

        let connections = 0;
        a.app.fastify.server.on('connection', () => connections++);
        const answers = await Promise.all(['b1', 'b2', 'b3'].map((id) => bet(b.url, token, id)));
        expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
        expect((await bet(b.url, token, 'b0')).status).toBe(201);
        // B passes on over kept connections: not a connection a request.
        expect(connections).toBeLessThanOrEqual(2);
        expect(ranOnA).toHaveBeenCalledTimes(4);
        expect(ranOnB).not.toHaveBeenCalled();
        const body = (await answers[0]!.json()) as { balanceMinor: number };
        expect(body.balanceMinor).toBeLessThan(100_000);
        for (const id of ['b1', 'b2', 'b3']) expect(await stakesOf(storeA, id)).toBe(1);

        // The holder is gone (as if its process died: its server and its lease connection closed).
        await a.app.fastify.close();
        await storeA.cluster.close();
        // B finds nobody listening, takes the lease and runs the bet itself; the retry of b1 lands once.
        const after = await bet(b.url, token, 'b4');
        expect(after.status).toBe(201);
        expect(ranOnB).toHaveBeenCalled();
        expect((await bet(b.url, token, 'b1')).status).toBe(201);
        expect(await stakesOf(storeB, 'b1')).toBe(1);
        expect(await stakesOf(storeB, 'b4')).toBe(1);
        expect(await storeB.getTable(T)).toMatchObject({ leaseEpoch: 2, leaseHolder: b.url });
        expect(await floorLease(b.url, staff)).toEqual({
          node: b.url,
          leaseHeldHere: true,
          leaseHolder: b.url,
        });
      } finally {
        await b.app.shutdown();
        await a.app.shutdown().catch(() => undefined);
      }
      // Two servers, and three floor pages whose first read starts each node's read workers.
    }, 120_000);

    it('parses what arrives with the schemas of the public commands: a malformed command is a 400 and runs nothing', async () => {
      const a = await node(await h.open({ db: h.freshDb() }));
      try {
        await a.app.ctx.service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
        await holdLease(a.app);
        const head = (await a.app.ctx.store.journalHead()).lastSeq;
        const held = (reason: string) => ({
          tableId: T,
          type: 'table-held',
          payload: {
            type: 'table-held',
            tableId: T,
            on: '2026-03-06',
            reason,
            article: '1.1',
            alert: { span: 'window', test: 'faces', pValue: 1e-12, rollSeq: 30 },
            holdPValue: 1e-9,
          },
        });
        const hold = (reason: string, entries: unknown[]) => ({
          type: 'hold-table',
          hold: { reason, article: '1.1', sinceMs: 0 },
          entries,
        });
        const malformed: [string, unknown][] = [
          ['an empty entry', { type: 'record-between-rounds', entries: [{}] }],
          ['no entry', { type: 'record-between-rounds', entries: [] }],
          ['a hold with no entry', hold('made up', [])],
          ['a hold whose entry says another reason', hold('made up', [held('the alert')])],
          [
            'a hold for another article',
            { ...hold('x', [held('x')]), hold: { reason: 'x', article: '3.1', sinceMs: 0 } },
          ],
          ['a hold journaled for another table', hold('x', [{ ...held('x'), tableId: 'T2' }])],
          ['a command nobody sends', { type: 'delete-table' }],
          [
            'a bet with a field of its own',
            {
              type: 'place-bet',
              betId: 'b1',
              playerId: 'p1',
              spot: 'small',
              stakeMinor: 1_000,
              paid: true,
            },
          ],
          ['a step without its croupier', { type: 'cover' }],
        ];
        for (const [what, command] of malformed) {
          const answer = await internal(a.url, [{ tableId: T, command }]);
          expect(answer.status, what).toBe(400);
          expect(await answer.json(), what).toMatchObject({ error: { code: 'invalid_request' } });
        }
        expect((await a.app.ctx.service.snapshot(T))!.state.hold).toBeNull();
        expect((await a.app.ctx.store.journalHead()).lastSeq).toBe(head);
        // As the fairness service sends it, a hold runs and is journaled.
        const good = await internal(a.url, [{ tableId: T, command: hold('x', [held('x')]) }]);
        expect(good.status).toBe(200);
        expect((await a.app.ctx.service.snapshot(T))!.state.hold).toMatchObject({ reason: 'x' });
        expect((await a.app.ctx.store.journalHead()).lastSeq).toBe(head + 1);
      } finally {
        await a.app.shutdown();
      }
    });

    it('checks who did it as the public route does: a table closed by nobody, or by a croupier, is a 403 and journals nothing', async () => {
      const store = await h.open({ db: h.freshDb() });
      const a = await node(store);
      try {
        await a.app.ctx.service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
        const [supervisor] = await seedUsers(store, 'supervisor', 1);
        const [croupier] = await seedUsers(store, 'croupier', 1);
        const [player] = await seedUsers(store, 'player', 1);
        await holdLease(a.app);
        const head = (await store.journalHead()).lastSeq;
        const refused: [string, unknown][] = [
          ['by nobody', { type: 'set-open', open: false, supervisorId: 'nobody' }],
          ['by a croupier', { type: 'set-open', open: false, supervisorId: croupier!.id }],
          ['a step by a player', { type: 'cover', croupierId: player!.id }],
        ];
        for (const [what, command] of refused) {
          const answer = await internal(a.url, [{ tableId: T, command }]);
          expect(answer.status, what).toBe(403);
          expect(await answer.json(), what).toMatchObject({ error: { code: 'forbidden' } });
        }
        expect((await store.journalHead()).lastSeq).toBe(head);
        const closed = await internal(a.url, [
          { tableId: T, command: { type: 'set-open', open: false, supervisorId: supervisor!.id } },
        ]);
        expect(closed.status).toBe(200);
        const [entry] = await store.readJournal({ fromSeq: head + 1, limit: 1 });
        expect(entry).toMatchObject({ type: 'table-closed', payload: { by: supervisor!.id } });
      } finally {
        await a.app.shutdown();
      }
    });

    it('answers the internal route only with the node secret: 404 to anybody else, before reading the body', async () => {
      const db = h.freshDb();
      const a = await node(await h.open({ db }));
      try {
        await a.app.ctx.service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
        const body = JSON.stringify({ commands: [{ tableId: T, command: { type: 'cover' } }] });
        for (const secret of [undefined, 'wrong']) {
          const answer = await fetch(`${a.url}${FORWARD_PATH}`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...(secret === undefined ? {} : { [NODE_SECRET_HEADER]: secret }),
            },
            body,
          });
          expect(answer.status).toBe(404);
          expect(await answer.json()).toMatchObject({ error: { code: 'not_found' } });
        }
        // The secret is checked before the body is read: a body that is not JSON is not parsed either.
        const unread = await fetch(`${a.url}${FORWARD_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [NODE_SECRET_HEADER]: 'wrong' },
          body: '{"commands": [',
        });
        expect(unread.status).toBe(404);
        expect(await unread.json()).toMatchObject({ error: { code: 'not_found' } });
        expect((await a.app.ctx.store.getTable(T))!.version).toBe(1);
      } finally {
        await a.app.shutdown();
      }
    });
  });
});
