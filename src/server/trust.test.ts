/**
 * Who sees what and who may act (issue 13, items 8–13): the visibility of
 * bets and staff-only entries by role, sockets that end with their session,
 * the Origin check, the browser headers, idle sessions, a sign-in whose time
 * does not tell whether a username exists, and a throttle that cannot lock a
 * user out, behind a trusted proxy.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import {
  openSqliteStore,
  type Role,
  type Store,
  StoreUnavailableError,
  type User,
} from '../ledger/index.js';
import { simulatedTableSettings } from '../service/table-settings.js';
import { type App, type AppOptions, buildApp } from './app.js';
import { WS_CLOSE_SESSION_ENDED } from './session-sockets.js';
import { seedRoles, seedUsers, sessionToken, TEST_PASSWORD } from './testing.js';
import { sampleInput } from '../journal/samples.js';
import { endSession, tokenHash } from '../service/sessions.js';

const T = 'T1';
const OPEN = ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'];
const dir = mkdtempSync(join(tmpdir(), 'cussec-trust-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

interface Fixture {
  app: App;
  store: Store;
  users: Record<Role, User>;
  other: User;
  token: (user: User) => Promise<string>;
  tick: (ms: number) => void;
  close: () => Promise<void>;
}

async function setup(options: Partial<AppOptions> = {}): Promise<Fixture> {
  let now = 1_764_460_800_000;
  const store = await openSqliteStore({ path: join(dir, `t${++n}.db`), currency: 'MOP' });
  const app = await buildApp({ store, clock: () => now, logger: false, ...options });
  await app.ctx.service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
  const users = await seedRoles(store);
  const [other] = await seedUsers(store, 'player', 1, { prefix: 'other-', fundMinor: 100_000 });
  await app.fastify.ready();
  return {
    app,
    store,
    users,
    other: other!,
    token: (user) => sessionToken(store, user, now),
    tick: (ms) => (now += ms),
    close: async () => {
      await app.shutdown();
      await store.close();
    },
  };
}

async function run(app: App, types: readonly string[]): Promise<void> {
  for (const type of types) {
    const outcome = await app.ctx.service.execute({ tableId: T, command: { type } as never });
    if (!outcome.ok) throw new Error(`${type}: ${outcome.rejection.code}`);
  }
}

async function placeBet(app: App, player: User, betId: string, spot: string): Promise<void> {
  const outcome = await app.ctx.service.execute({
    tableId: T,
    command: { type: 'place-bet', betId, playerId: player.id, spot, stakeMinor: 1_000 },
  });
  if (!outcome.ok) throw new Error(outcome.rejection.code);
}

type Message = Record<string, unknown>;

async function watch(app: App, token?: string) {
  const messages: Message[] = [];
  let closedWith: number | null = null;
  const socket: WebSocket = await app.fastify.injectWS(
    `/api/v1/tables/${T}/ws`,
    { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } },
    {
      onInit: (ws) => {
        ws.on('message', (d: Buffer) => messages.push(JSON.parse(d.toString('utf8')) as Message));
        ws.on('close', (code: number) => (closedWith = code));
      },
    },
  );
  const until = async <V>(get: () => V | undefined | null): Promise<V> => {
    for (let waited = 0; waited < 5_000; waited += 5) {
      const v = get();
      if (v !== undefined && v !== null) return v;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('waited 5 s in vain');
  };
  const bets = () =>
    messages
      .filter((m) => m['type'] === 'event')
      .map((m) => m['event'] as Message)
      .filter((e) => e['type'] === 'bet-placed')
      .map((e) => e['bet'] as Message);
  /** Sends a bet of 1,000 on Small, with its id as its requestId. */
  const bet = (betId: string) =>
    socket.send(
      JSON.stringify({
        type: 'place-bet',
        requestId: betId,
        betId,
        spot: 'small',
        stakeMinor: 1_000,
      }),
    );
  return { socket, messages, until, bets, bet, closed: () => closedWith };
}

describe('who sees whose bets (Art. 2.1 play, items 8 and 9)', () => {
  it("shows others' bets as stakes by spot on the socket, a player's own in full, every bet to the supervisor", async () => {
    const f = await setup();
    try {
      const me = f.users.player;
      const mine = await watch(f.app, await f.token(me));
      const anonymous = await watch(f.app);
      const supervisor = await watch(f.app, await f.token(f.users.supervisor));
      await run(f.app, OPEN);
      await placeBet(f.app, f.other, 'theirs', 'big');
      await placeBet(f.app, me, 'mine', 'small');
      for (const w of [mine, anonymous, supervisor])
        await w.until(() => (w.bets().length === 2 ? 1 : null));
      expect(mine.bets()).toEqual([
        { betId: 'theirs', spot: 'big', stakeMinor: 1_000, rollNo: 1 },
        expect.objectContaining({ betId: 'mine', playerId: me.id, spot: 'small' }),
      ]);
      expect(JSON.stringify(anonymous.messages)).not.toContain(f.other.id);
      expect(JSON.stringify(anonymous.messages)).not.toContain(me.id);
      expect(supervisor.bets().map((b) => b['playerId'])).toEqual([f.other.id, me.id]);
    } finally {
      await f.close();
    }
  });

  it('filters GET /tables/:id/events the same way, and keeps staff-only entries from players', async () => {
    const f = await setup();
    try {
      await run(f.app, OPEN);
      await placeBet(f.app, f.other, 'theirs', 'big');
      await f.store.transaction((tx) =>
        tx.appendJournal([sampleInput(T, 'fairness-alert-raised')]),
      );
      const read = async (user: User) => {
        const res = await f.app.fastify.inject({
          url: `/api/v1/tables/${T}/events`,
          headers: { authorization: `Bearer ${await f.token(user)}` },
        });
        expect(res.statusCode).toBe(200);
        return res.json<{ type: string; payload: Message }[]>();
      };
      const player = await read(f.users.player);
      expect(JSON.stringify(player)).not.toContain(f.other.id);
      expect(player.map((e) => e.type)).not.toContain('fairness-alert-raised');
      expect(player.find((e) => e.type === 'bet-placed')!.payload['bet']).toEqual({
        betId: 'theirs',
        spot: 'big',
        stakeMinor: 1_000,
        rollNo: 1,
      });
      const croupier = await read(f.users.croupier);
      expect(croupier.map((e) => e.type)).toContain('fairness-alert-raised');
      expect(JSON.stringify(croupier)).not.toContain(f.other.id);
      const inspector = await read(f.users.inspector);
      expect(JSON.stringify(inspector)).toContain(f.other.id);
    } finally {
      await f.close();
    }
  });
  it("answers the croupier's commands with others' standing bets as stakes by spot (Art. 3.4)", async () => {
    const f = await setup();
    try {
      await run(f.app, OPEN);
      await placeBet(f.app, f.other, 'stands', 'big');
      await run(f.app, ['ring-bell', 'lift-dome']);
      const command = async (body: Record<string, unknown>) => {
        const res = await f.app.fastify.inject({
          method: 'POST',
          url: `/api/v1/tables/${T}/commands`,
          headers: { authorization: `Bearer ${await f.token(f.users.croupier)}` },
          payload: body,
        });
        expect(res.statusCode).toBe(200);
        return res.json<{ events: { event: Message }[] }>();
      };
      // A void roll (Art. 3.3): the bet stands, and betting opens again with it.
      await command({ type: 'void-roll', reason: 'stacked' });
      for (const type of ['cover', 'fasten-latches', 'trigger-shaker']) await command({ type });
      const opened = await command({ type: 'open-betting' });
      const event = opened.events.find((e) => e.event['type'] === 'betting-opened')!.event;
      expect(event['standingBets']).toEqual([
        { betId: 'stands', spot: 'big', stakeMinor: 1_000, rollNo: 1 },
      ]);
      expect(JSON.stringify(opened)).not.toContain(f.other.id);
    } finally {
      await f.close();
    }
  });
});

describe('a socket ends with its session (item 10)', () => {
  it('closes on logout (DELETE /session)', async () => {
    const f = await setup();
    try {
      await run(f.app, OPEN);
      const token = await f.token(f.users.player);
      const w = await watch(f.app, token);
      await w.until(() => w.messages.find((m) => m['type'] === 'hello'));
      const out = await f.app.fastify.inject({
        method: 'DELETE',
        url: '/api/v1/session',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(out.statusCode).toBe(204);
      expect(await w.until(() => w.closed())).toBe(WS_CLOSE_SESSION_ENDED);
    } finally {
      await f.close();
    }
  });

  it('closes when the session expires, and when the store no longer holds it (another node)', async () => {
    const f = await setup({ sessionIdleMs: 60_000 });
    try {
      const expiring = await watch(f.app, await f.token(f.users.player));
      const revoked = await watch(f.app, await f.token(f.users.croupier));
      await expiring.until(() => expiring.messages.find((m) => m['type'] === 'hello'));
      await revoked.until(() => revoked.messages.find((m) => m['type'] === 'hello'));
      await f.store.deleteUserSessions(f.users.croupier.id);
      await f.app.ctx.sessions.sweep();
      expect(await revoked.until(() => revoked.closed())).toBe(WS_CLOSE_SESSION_ENDED);
      expect(expiring.closed()).toBeNull();
      f.tick(13 * 60 * 60_000);
      await f.app.ctx.sessions.sweep();
      expect(await expiring.until(() => expiring.closed())).toBe(WS_CLOSE_SESSION_ENDED);
    } finally {
      await f.close();
    }
  });

  it('acts on no bet sent after the session expired, before any sweep has seen it', async () => {
    const f = await setup({ sessionIdleMs: 60_000 });
    try {
      await run(f.app, OPEN);
      const signedIn = await f.app.fastify.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: { username: f.users.player.username, password: TEST_PASSWORD },
      });
      const w = await watch(f.app, signedIn.json<{ token: string }>().token);
      await w.until(() => w.messages.find((m) => m['type'] === 'hello'));
      const acks = () => w.messages.filter((m) => m['type'] === 'ack').map((m) => m['requestId']);
      // In use, the session lives on: each bet within the idle time slides it.
      for (const betId of ['b1', 'b2', 'b3']) {
        f.tick(50_000);
        w.bet(betId);
        await w.until(() => (acks().includes(betId) ? true : null));
      }
      // Left idle past its end, no sweep yet: the next bet is not taken and the socket closes.
      f.tick(61_000);
      w.bet('late');
      expect(await w.until(() => w.closed())).toBe(WS_CLOSE_SESSION_ENDED);
      expect(acks()).toEqual(['b1', 'b2', 'b3']);
      const standing = (await f.app.ctx.service.snapshot(T))!.state.bets.map((b) => b.betId);
      expect(standing).toEqual(['b1', 'b2', 'b3']);
    } finally {
      await f.close();
    }
  });

  it('acts on no message after a logout on another node, before any sweep has seen it', async () => {
    const f = await setup();
    try {
      await run(f.app, OPEN);
      const token = await f.token(f.users.player);
      const w = await watch(f.app, token);
      await w.until(() => w.messages.find((m) => m['type'] === 'hello'));
      w.bet('before');
      await w.until(() => w.messages.find((m) => m['type'] === 'ack'));
      // Another node of the floor ends the session in the shared store; this node has not been told.
      await endSession(f.store, tokenHash(token));
      w.bet('after');
      expect(await w.until(() => w.closed())).toBe(WS_CLOSE_SESSION_ENDED);
      const standing = (await f.app.ctx.service.snapshot(T))!.state.bets.map((b) => b.betId);
      expect(standing).toEqual(['before']);
    } finally {
      await f.close();
    }
  });

  it('answers a message whose session cannot be read with a retryable error, and keeps the socket', async () => {
    const f = await setup();
    try {
      await run(f.app, OPEN);
      const w = await watch(f.app, await f.token(f.users.player));
      await w.until(() => w.messages.find((m) => m['type'] === 'hello'));
      const findSession = f.store.findSession.bind(f.store);
      f.store.findSession = () =>
        Promise.reject(new StoreUnavailableError('the database is away', null));
      w.bet('away');
      const refused = await w.until(() => w.messages.find((m) => m['requestId'] === 'away'));
      expect(refused).toMatchObject({ type: 'error', error: { code: 'database_unavailable' } });
      f.store.findSession = findSession;
      w.bet('back');
      await w.until(() => w.messages.find((m) => m['type'] === 'ack' && m['requestId'] === 'back'));
      expect(w.closed()).toBeNull();
    } finally {
      await f.close();
    }
  });

  it('endUserSessions closes every socket of a user at once', async () => {
    const f = await setup();
    try {
      const a = await watch(f.app, await f.token(f.users.player));
      const b = await watch(f.app, await f.token(f.users.player));
      await a.until(() => a.messages.find((m) => m['type'] === 'hello'));
      await b.until(() => b.messages.find((m) => m['type'] === 'hello'));
      expect(f.app.ctx.sessions.endUserSessions(f.users.player.id)).toBe(2);
      expect(await a.until(() => a.closed())).toBe(WS_CLOSE_SESSION_ENDED);
      expect(await b.until(() => b.closed())).toBe(WS_CLOSE_SESSION_ENDED);
    } finally {
      await f.close();
    }
  });
});

describe('sessions, sign-in and the browser (items 11 and 13)', () => {
  const login = (f: Fixture, username: string, password: string, headers = {}) =>
    f.app.fastify.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { username, password },
      headers,
    });

  it('refuses a cookie-authenticated bet and socket from another origin with 403 cross_origin', async () => {
    const f = await setup();
    try {
      await run(f.app, OPEN);
      const cookie = `cussec_session=${await f.token(f.users.player)}`;
      const bet = (origin: string, betId: string) =>
        f.app.fastify.inject({
          method: 'POST',
          url: `/api/v1/tables/${T}/bets`,
          headers: { cookie, origin, host: 'cussec.test' },
          payload: { betId, spot: 'small', stakeMinor: 1_000 },
        });
      const evil = await bet('https://evil.example', 'b1');
      expect(evil.statusCode).toBe(403);
      expect(evil.json()).toMatchObject({ error: { code: 'cross_origin' } });
      expect((await bet('http://cussec.test', 'b2')).statusCode).toBe(201);
      const socket = await f.app.fastify.inject({
        url: `/api/v1/tables/${T}/ws`,
        headers: { cookie, origin: 'https://evil.example', host: 'cussec.test' },
      });
      expect(socket.statusCode).toBe(403);
      expect(socket.json()).toMatchObject({ error: { code: 'cross_origin' } });
    } finally {
      await f.close();
    }
  });

  it('sends CSP, frame-ancestors and HSTS by helmet; a Secure cookie only over HTTPS via a trusted proxy', async () => {
    const f = await setup({ trustProxy: '127.0.0.1' });
    try {
      const plain = await login(f, f.users.player.username, TEST_PASSWORD);
      expect(plain.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(plain.headers['content-security-policy']).toContain("script-src 'self'");
      expect(plain.headers['x-frame-options']).toBe('DENY');
      // Helmet's, on every answer: a browser heeds it only over HTTPS (RFC 6797, 8.1).
      expect(plain.headers['strict-transport-security']).toBe(
        'max-age=15552000; includeSubDomains',
      );
      expect(String(plain.headers['set-cookie'])).not.toContain('Secure');
      const tls = await login(f, f.users.player.username, TEST_PASSWORD, {
        'x-forwarded-proto': 'https',
      });
      expect(tls.headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
      expect(String(tls.headers['set-cookie'])).toContain('Secure');
    } finally {
      await f.close();
    }
  });

  it('ends a session left idle, and keeps one in use alive', async () => {
    const f = await setup({ sessionIdleMs: 60_000 });
    try {
      const token = (await login(f, f.users.player.username, TEST_PASSWORD)).json<{
        token: string;
      }>().token;
      const me = () =>
        f.app.fastify.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } });
      for (let i = 0; i < 4; i++) {
        f.tick(50_000);
        expect((await me()).statusCode).toBe(200);
      }
      f.tick(61_000);
      expect((await me()).statusCode).toBe(401);
    } finally {
      await f.close();
    }
  });

  it('takes as long to refuse an unknown username as a wrong password', async () => {
    const f = await setup();
    try {
      const time = async (username: string) => {
        const start = performance.now();
        expect((await login(f, username, 'not the password')).statusCode).toBe(401);
        return performance.now() - start;
      };
      await time('nobody-warmup');
      const real = Math.min(
        await time(f.users.supervisor.username),
        await time(f.users.croupier.username),
      );
      const unknown = Math.min(await time('nobody-1'), await time('nobody-2'));
      // One scrypt each (tens of ms); before, an unknown name answered in under 2 ms.
      expect(unknown).toBeGreaterThan(real * 0.4);
    } finally {
      await f.close();
    }
  });

  it("cannot lock staff out: an attacker's failures behind the trusted proxy hold back the attacker only", async () => {
    const f = await setup({ trustProxy: '127.0.0.1' });
    try {
      const from = (address: string) => ({ 'x-forwarded-for': address });
      const name = f.users.supervisor.username;
      for (let i = 0; i < 6; i++) await login(f, name, `guess ${i}`, from('203.0.113.66'));
      expect((await login(f, name, TEST_PASSWORD, from('203.0.113.66'))).statusCode).toBe(429);
      expect((await login(f, name, TEST_PASSWORD, from('10.0.0.5'))).statusCode).toBe(200);
    } finally {
      await f.close();
    }
  });
});
