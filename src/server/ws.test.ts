/**
 * The table socket's protocol, in process: batches of bets, bet ids reused in
 * a later round, messages sent before the hello, and the message rate measured
 * on the real clock whatever clock the tables run on.
 */
import { expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import type { Store } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { simulatedTableSettings } from '../service/table-settings.js';
import { type App, buildApp } from './app.js';
import { seedUsers, sessionToken } from './testing.js';

const T = 'T1';
const OPEN = [
  { type: 'cover' },
  { type: 'fasten-latches' },
  { type: 'trigger-shaker' },
  { type: 'open-betting' },
] as const;
const FINISH = [
  { type: 'ring-bell' },
  { type: 'lift-dome' },
  { type: 'reveal-dice' },
  { type: 'pay-all' },
] as const;

type Message = Record<string, unknown>;

async function setup(store: Store, clock?: () => number) {
  const app = await buildApp({ store, logger: false, ...(clock ? { clock } : {}) });
  await app.ctx.service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
  const [player] = await seedUsers(store, 'player', 1, { fundMinor: 1_000_000 });
  await app.fastify.ready();
  return { app, player: player!, token: await sessionToken(store, player!, app.ctx.clock()) };
}

async function run(app: App, commands: readonly { type: string }[]): Promise<void> {
  for (const command of commands) {
    const outcome = await app.ctx.service.execute({
      tableId: T,
      command: command as { type: 'cover' },
    });
    if (!outcome.ok) throw new Error(`${command.type}: ${outcome.rejection.code}`);
  }
}

async function connect(
  app: App,
  token: string | undefined,
  onOpen?: (ws: WebSocket) => void,
  query = '',
) {
  const messages: Message[] = [];
  let closedWith: number | null = null;
  const socket = await app.fastify.injectWS(
    `/api/v1/tables/${T}/ws${query}`,
    { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } },
    {
      onInit: (ws) => {
        ws.on('message', (d: Buffer) => messages.push(JSON.parse(d.toString('utf8')) as Message));
        ws.on('close', (code: number) => (closedWith = code));
      },
      ...(onOpen ? { onOpen } : {}),
    },
  );
  const answer = async (requestId: string): Promise<Message> => {
    for (let waited = 0; waited < 5_000; waited += 5) {
      const found = messages.find((m) => m['requestId'] === requestId);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`no answer to ${requestId}`);
  };
  const next = async (match: (m: Message) => boolean): Promise<Message> => {
    for (let waited = 0; waited < 5_000; waited += 5) {
      const found = messages.find(match);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('no such message');
  };
  const event = (type: string) =>
    next((m) => m['type'] === 'event' && (m['event'] as Message)['type'] === type).then(
      (m) => m['event'] as Message,
    );
  const eventTypes = () =>
    messages.filter((m) => m['type'] === 'event').map((m) => (m['event'] as Message)['type']);
  return { socket, messages, answer, next, event, eventTypes, closed: () => closedWith };
}

const bet = (requestId: string, betId: string, spot = 'small', stakeMinor = 1_000) =>
  JSON.stringify({ type: 'place-bet', requestId, betId, spot, stakeMinor });

withStores('table socket', (h) => {
  it('takes a batch of bets, accepting or refusing each on its own', async () => {
    const { app, token } = await setup(await h.open());
    await run(app, OPEN);
    const client = await connect(app, token);
    client.socket.send(
      JSON.stringify({
        type: 'place-bets',
        requestId: 'batch',
        bets: [
          { betId: 'x1', spot: 'small', stakeMinor: 2_000 },
          { betId: 'x2', spot: 'big', stakeMinor: 10 },
          { betId: 'x3', spot: 'total:10', stakeMinor: 1_000 },
        ],
      }),
    );
    const answer = await client.answer('batch');
    expect(answer).toMatchObject({
      type: 'batch-ack',
      balanceMinor: 1_000_000 - 3_000,
      results: [
        { betId: 'x1', ok: true, bet: { betId: 'x1', stakeMinor: 2_000 } },
        { betId: 'x2', ok: false, error: { code: 'stake_below_min', article: '5' } },
        { betId: 'x3', ok: true },
      ],
    });
    await app.shutdown();
  });

  it('withdraws several bets in one message, each on its own (a player’s Clear)', async () => {
    const { app, token } = await setup(await h.open());
    await run(app, OPEN);
    const client = await connect(app, token);
    client.socket.send(
      JSON.stringify({
        type: 'place-bets',
        requestId: 'placed',
        bets: [
          { betId: 'y1', spot: 'small', stakeMinor: 2_000 },
          { betId: 'y2', spot: 'big', stakeMinor: 1_000 },
          { betId: 'y3', spot: 'odd', stakeMinor: 1_000 },
        ],
      }),
    );
    await client.answer('placed');
    client.socket.send(
      JSON.stringify({ type: 'withdraw-bets', requestId: 'clear', betIds: ['y3', 'nope', 'y1'] }),
    );
    expect(await client.answer('clear')).toMatchObject({
      type: 'batch-ack',
      balanceMinor: 1_000_000 - 1_000,
      results: [
        { betId: 'y3', ok: true, bet: { betId: 'y3', stakeMinor: 1_000 } },
        { betId: 'nope', ok: false, error: { code: 'unknown_bet', article: '3.4' } },
        { betId: 'y1', ok: true },
      ],
    });
    const snap = await app.ctx.service.snapshot(T);
    expect(snap!.state.bets.map((b) => b.betId)).toEqual(['y2']);
    client.socket.send(
      JSON.stringify({ type: 'withdraw-bets', requestId: 'twice', betIds: ['y2', 'y2'] }),
    );
    expect(await client.answer('twice')).toMatchObject({ error: { code: 'invalid_request' } });
    await app.shutdown();
  });

  it('places a bet whose id was used in an earlier round', async () => {
    const { app, token } = await setup(await h.open());
    const client = await connect(app, token);
    await run(app, OPEN);
    client.socket.send(bet('r1', 'same-id'));
    expect(await client.answer('r1')).toMatchObject({ type: 'ack' });
    await run(app, FINISH);
    await run(app, OPEN);
    client.socket.send(bet('r2', 'same-id'));
    const second = await client.answer('r2');
    expect(second).toMatchObject({ type: 'ack', bet: { betId: 'same-id' } });
    const snap = await app.ctx.service.snapshot(T);
    expect(snap!.state.roundNo).toBe(2);
    expect(snap!.state.bets.map((b) => b.betId)).toEqual(['same-id']);
    client.socket.send(bet('r3', 'same-id'));
    expect(await client.answer('r3')).toMatchObject({ error: { code: 'duplicate_bet_id' } });
    await app.shutdown();
  });

  it('answers a message sent the moment the socket opens, before the hello', async () => {
    const { app, token } = await setup(await h.open());
    await run(app, OPEN);
    const client = await connect(app, token, (ws) => ws.send(bet('first', 'b-first')));
    expect(await client.answer('first')).toMatchObject({ type: 'ack' });
    expect(client.messages[0]!['type']).toBe('hello');
    await app.shutdown();
  });

  it('sends the hello first, even when a wallet or table notice comes while the view is read', async () => {
    const { app, player, token } = await setup(await h.open());
    const hub = app.ctx.hub;
    const join = hub.join.bind(hub);
    // The moment the socket has joined and its view is still being read, a deposit's
    // wallet and a staff action's notice reach every socket of the player and of the table.
    vi.spyOn(hub, 'join').mockImplementation((...args) => {
      const client = join(...args);
      hub.sendToUser(player.id, { type: 'wallet', balanceMinor: 1_000_000 });
      hub.notifyTable(T, { type: 'table-open', tableId: T, seq: 0, open: true });
      return client;
    });
    const client = await connect(app, token);
    await client.next((m) => m['type'] === 'table-open');
    expect(client.messages.slice(0, 3).map((m) => m['type'])).toEqual([
      'hello',
      'wallet',
      'table-open',
    ]);
    await app.shutdown();
  });

  it('counts messages a second on the real clock, even when the tables run on a frozen one', async () => {
    const frozen = 1_764_460_800_000;
    const { app, token } = await setup(await h.open(), () => frozen);
    const client = await connect(app, token);
    for (let burst = 0; burst < 3; burst++) {
      for (let i = 0; i < 40; i++) client.socket.send('{}');
      await new Promise((r) => setTimeout(r, 1_050));
    }
    expect(client.closed()).toBeNull();
    for (let i = 0; i < 60; i++) client.socket.send('{}');
    for (let waited = 0; client.closed() === null && waited < 2_000; waited += 5)
      await new Promise((r) => setTimeout(r, 5));
    expect(client.closed()).toBe(1008);
    await app.shutdown();
  });
});

withStores('summary feed', (h) => {
  it('sends a player its own bets, the stakes by spot, and no list of all the returns', async () => {
    const store = await h.open();
    const { app, player: a, token } = await setup(store);
    const [b] = await seedUsers(store, 'player', 1, { prefix: 'b', fundMinor: 1_000_000 });
    const tokenB = await sessionToken(store, b!, app.ctx.clock());
    const summary = await connect(app, token, undefined, '?feed=summary');
    const watcher = await connect(app, undefined, undefined, '?feed=summary');
    const everything = await connect(app, tokenB);
    await run(app, OPEN);
    const start = app.ctx.hub.lastEventSeq;
    summary.socket.send(bet('a1', 'a1', 'small', 1_000));
    await summary.answer('a1');
    everything.socket.send(bet('b1', 'b1', 'big', 2_000));
    await everything.answer('b1');
    const stakes = await summary.next((m) => m['type'] === 'stakes' && m['betCount'] === 2);
    expect(stakes).toMatchObject({
      tableId: T,
      roundNo: 1,
      stakesBySpotMinor: { small: 1_000, big: 2_000 },
      totalStakeMinor: 3_000,
    });
    await watcher.next((m) => m['type'] === 'stakes');
    await run(app, FINISH);
    const settled = await summary.event('round-settled');
    expect(settled).not.toHaveProperty('returnsMinor');
    expect(settled['totalStakeMinor']).toBe(3_000);
    expect(await watcher.event('round-settled')).toEqual(settled);
    // The full feed has each bet's return, in the order the bets were placed.
    const full = await everything.event('round-settled');
    expect((full['returnsMinor'] as number[]).length).toBe(2);
    expect({ ...full, returnsMinor: undefined }).toEqual({ ...settled, returnsMinor: undefined });
    await summary.event('prizes-paid');
    expect(summary.eventTypes().filter((t) => t === 'bet-placed')).toHaveLength(1);
    expect(everything.eventTypes().filter((t) => t === 'bet-placed')).toHaveLength(2);
    expect(
      summary.messages.some(
        (m) =>
          m['type'] === 'event' &&
          (m['event'] as Message)['type'] === 'bet-placed' &&
          (m['event'] as { bet: { playerId: string } }).bet.playerId === a.id,
      ),
    ).toBe(true);
    expect(everything.messages.some((m) => m['type'] === 'stakes')).toBe(false);

    // A resume on the summary feed leaves others' bets out and says where the stakes stand.
    const resumed = await connect(app, token, undefined, `?feed=summary&after=${start}`);
    await resumed.event('prizes-paid');
    expect(resumed.eventTypes().filter((t) => t === 'bet-placed')).toHaveLength(1);
    await resumed.next((m) => m['type'] === 'stakes');
    await app.shutdown();
  });
});
