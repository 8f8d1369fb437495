/**
 * Graceful shutdown (SIGTERM): the server stops taking commands, lets the
 * commit in flight finish, answers every socket request it already took, and
 * only then closes the sockets (1001). Whatever it acknowledged is durable.
 */
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Store } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { simulatedTableSettings } from '../service/table-settings.js';
import { buildApp } from './app.js';
import { seedUsers, sessionToken } from './testing.js';

const T = 'T1';

async function bettingTable(store: Store) {
  const app = await buildApp({ store, logger: false });
  await app.ctx.service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
  const opening = [
    { type: 'cover' },
    { type: 'fasten-latches' },
    { type: 'trigger-shaker' },
    { type: 'open-betting' },
  ] as const;
  for (const command of opening) {
    const outcome = await app.ctx.service.execute({ tableId: T, command });
    if (!outcome.ok) throw new Error(outcome.rejection.code);
  }
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.fastify.server.address() as AddressInfo).port;
  return { app, url: `ws://127.0.0.1:${port}/api/v1/tables/${T}/ws` };
}

interface Received {
  readonly messages: Record<string, unknown>[];
  readonly closed: Promise<number>;
  readonly opened: Promise<void>;
}

function listen(socket: WebSocket): Received {
  const messages: Record<string, unknown>[] = [];
  socket.on('message', (data: Buffer) =>
    messages.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>),
  );
  return {
    messages,
    closed: new Promise((resolve) => socket.on('close', (code: number) => resolve(code))),
    opened: new Promise((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    }),
  };
}

withStores('graceful shutdown', (h) => {
  it('answers the bets in flight, refuses the rest with shutting_down, then closes with 1001', async () => {
    const store = await h.open();
    const { app, url } = await bettingTable(store);
    const players = await seedUsers(store, 'player', 3, { fundMinor: 1_000_000 });
    const sockets = await Promise.all(
      players.map(async (p) => {
        const token = await sessionToken(store, p, Date.now());
        const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
        const received = listen(socket);
        await received.opened;
        return { socket, received };
      }),
    );
    for (const { received } of sockets) {
      while (!received.messages.some((m) => m['type'] === 'hello'))
        await new Promise((r) => setTimeout(r, 5));
    }
    // The first bet to reach the service starts the shutdown, with the others on their way.
    const execute = app.ctx.service.execute.bind(app.ctx.service);
    let shutdown: Promise<void> | undefined;
    let httpDuringShutdown: Promise<{ statusCode: number; body: string }> | undefined;
    app.ctx.service.execute = (request) => {
      const outcome = execute(request);
      if (shutdown === undefined) {
        shutdown = app.shutdown();
        httpDuringShutdown = app.fastify.inject({ url: `/api/v1/tables/${T}` });
      }
      return outcome;
    };
    sockets.forEach(({ socket }, i) => {
      for (let n = 0; n < 10; n++) {
        socket.send(
          JSON.stringify({
            type: 'place-bet',
            requestId: `r${n}`,
            betId: `p${i}-${n}`,
            spot: n % 2 ? 'small' : 'big',
            stakeMinor: 1_000,
          }),
        );
      }
    });
    const codes = await Promise.all(sockets.map(({ received }) => received.closed));
    expect(codes).toEqual([1001, 1001, 1001]);
    await shutdown;
    const during = await httpDuringShutdown!;
    expect(during.statusCode).toBe(503);
    expect(JSON.parse(during.body)).toMatchObject({ error: { code: 'shutting_down' } });

    const acked = sockets.flatMap(({ received }) =>
      received.messages
        .filter((m) => m['type'] === 'ack')
        .map((m) => m['bet'] as { betId: string }),
    );
    const refusals = sockets.flatMap(({ received }) =>
      received.messages
        .filter((m) => m['type'] === 'error')
        .map((m) => (m['error'] as { code: string }).code),
    );
    expect(acked.length).toBeGreaterThan(0);
    expect(new Set(refusals)).toEqual(new Set(refusals.length > 0 ? ['shutting_down'] : []));
    const journal = await store.readJournal({ fromSeq: 1, limit: 1_000, tableId: T });
    const placed = new Set(
      journal.flatMap((e) => (e.type === 'bet-placed' ? [e.payload.bet.betId] : [])),
    );
    for (const bet of acked) expect(placed).toContain(bet.betId);
  });

  it('closes down while a kept-alive client keeps asking: each refusal closes its connection', async () => {
    const store = await h.open();
    const { app } = await bettingTable(store);
    const port = (app.fastify.server.address() as AddressInfo).port;
    // One connection, kept alive, asked again the moment each answer comes back.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ask = (): Promise<{ status: number; connection: string | undefined }> =>
      new Promise((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: `/api/v1/tables/${T}`, agent },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });
    const refusals: (string | undefined)[] = [];
    let stop = false;
    const asking = (async () => {
      while (!stop) {
        const answer = await ask().catch(() => undefined);
        if (answer?.status === 503) refusals.push(answer.connection);
      }
    })();
    await new Promise((r) => setTimeout(r, 50));
    // The shutdown waits (as for a commit in flight) until the client has been refused a few times.
    const drainAll = app.ctx.service.drainAll.bind(app.ctx.service);
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    app.ctx.service.drainAll = async () => {
      await held;
      await drainAll();
    };
    const done = app.shutdown();
    while (refusals.length < 3) await new Promise((r) => setTimeout(r, 5));
    release();
    const finished = await Promise.race([
      done.then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still waiting'), 5_000)),
    ]);
    stop = true;
    await asking;
    agent.destroy();
    expect(finished).toBe('closed');
    expect(refusals.length).toBeGreaterThan(0);
    expect(new Set(refusals)).toEqual(new Set(['close']));
  });

  it('closes the connection of an answer begun before the shutdown and sent after it', async () => {
    const store = await h.open();
    const { app } = await bettingTable(store);
    const port = (app.fastify.server.address() as AddressInfo).port;
    const [player] = await seedUsers(store, 'player', 1, { fundMinor: 1_000_000 });
    const token = await sessionToken(store, player!, Date.now());
    // The bet reaches the service before the shutdown starts, and is answered after.
    const execute = app.ctx.service.execute.bind(app.ctx.service);
    let reached = (): void => undefined;
    const atService = new Promise<void>((r) => (reached = r));
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    app.ctx.service.execute = async (request) => {
      reached();
      await held;
      return execute(request);
    };
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answer = new Promise<{ status: number; connection: string | undefined }>(
      (resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: `/api/v1/tables/${T}/bets`,
            method: 'POST',
            agent,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }),
            );
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ betId: 'b1', spot: 'big', stakeMinor: 1_000 }));
      },
    );
    await atService;
    const done = app.shutdown();
    release();
    const { status, connection } = await answer;
    expect([201, 503]).toContain(status);
    expect(connection).toBe('close');
    const finished = await Promise.race([
      done.then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still waiting'), 5_000)),
    ]);
    agent.destroy();
    expect(finished).toBe('closed');
  });

  it('reports not ready and refuses requests in our error shape once shutting down', async () => {
    const store = await h.open();
    const { app } = await bettingTable(store);
    // A commit in flight keeps the shutdown waiting while the requests come in.
    const inFlight = app.ctx.service.execute({ tableId: T, command: { type: 'ring-bell' } });
    const done = app.shutdown();
    const ready = await app.fastify.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    const bet = await app.fastify.inject({ method: 'POST', url: `/api/v1/tables/${T}/bets` });
    expect(bet.statusCode).toBe(503);
    expect(bet.json()).toMatchObject({ error: { code: 'shutting_down' } });
    expect((await app.fastify.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await inFlight).ok).toBe(true);
    await done;
  });
});
