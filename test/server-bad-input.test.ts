/**
 * The server against bad input, over real sockets: malformed JSON, wrong types,
 * huge and fractional numbers, unknown spots and fields, oversized bodies and
 * messages, floods, binary frames, forged and expired tokens, path traversal,
 * unknown routes. Each gets a 4xx with `{error: {code, message}}` or a closed
 * socket with a code; the server stays up, and `cussec audit verify` passes on
 * its database afterwards.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore, type Role, type Store, type User } from '../src/ledger/index.js';
import { type App, buildApp } from '../src/server/app.js';
import { forgedToken, seedRoles, seedUsers, sessionToken } from '../src/server/testing.js';
import { simulatedTableSettings } from '../src/service/table-settings.js';
import { errorCode, http, type HttpAnswer, SocketClient, sleep } from './server-harness.js';

const T = 'T1';
const BACKLOG_MAX = 30;
const SECRET = 'TOP-SECRET-OUTSIDE-THE-WEB-ROOT';

let dir = '';
let dbFile = '';
let store: Store;
let app: App;
let base = '';
let wsBase = '';
let port = 0;
let users: Record<Role, User>;
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cussec-bad-input-'));
  dbFile = join(dir, 'cussec.db');
  mkdirSync(join(dir, 'web', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'web', 'index.html'), '<!doctype html><title>Cussec</title>');
  writeFileSync(join(dir, 'web', 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  store = await openSqliteStore({ path: dbFile, currency: 'MOP' });
  app = await buildApp({
    store,
    logger: false,
    webRoot: join(dir, 'web'),
    limits: { wsBacklogEventsMax: BACKLOG_MAX },
  });
  await app.ctx.service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
  users = await seedRoles(store);
  for (const role of Object.keys(users) as Role[])
    tokens[role] = await sessionToken(store, users[role], Date.now());
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  port = (app.fastify.server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  wsBase = `ws://127.0.0.1:${port}`;
  for (const type of ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'])
    expect((await croupier({ type })).status).toBe(200);
});

let stopped = false;

async function stop(): Promise<void> {
  if (stopped) return;
  stopped = true;
  await app?.shutdown();
  await store?.close();
}

afterAll(async () => {
  await stop();
  rmSync(dir, { recursive: true, force: true });
});

const croupier = (command: object): Promise<HttpAnswer> =>
  http(base, 'POST', `/api/v1/tables/${T}/commands`, { token: tokens.croupier, body: command });

const bet = (body: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> =>
  http(base, 'POST', `/api/v1/tables/${T}/bets`, { token: tokens.player, body, headers });

/** A GET with the path exactly as written: fetch would resolve the `..` itself. */
function rawGet(path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP bodies', () => {
  it('refuses malformed JSON with invalid_json', async () => {
    for (const raw of ['{bad', '{"betId": "b1",}', '', 'nul', '[1,2', '"unterminated']) {
      const answer = await http(base, 'POST', `/api/v1/tables/${T}/bets`, {
        token: tokens.player,
        raw,
      });
      expect(answer.status, raw).toBe(400);
      expect(errorCode(answer), raw).toBe('invalid_json');
    }
  });

  it('refuses JSON that is not an object, or has the wrong types', async () => {
    const bodies: unknown[] = [
      null,
      [],
      'a string',
      42,
      { betId: 'b1', spot: 'small', stakeMinor: '1000' },
      { betId: 'b1', spot: 5, stakeMinor: 1_000 },
      { betId: {}, spot: 'small', stakeMinor: 1_000 },
      { betId: 'b1', spot: 'small', stakeMinor: true },
      { betId: 'b1', spot: 'small', stakeMinor: null },
      { betId: 'b1', spot: ['small'], stakeMinor: 1_000 },
      { betId: 'b1', spot: 'small' },
      { spot: 'small', stakeMinor: 1_000 },
    ];
    for (const body of bodies) {
      const answer = await bet(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(errorCode(answer)).toBe('invalid_request');
    }
  });

  it('refuses huge, negative, zero and fractional stakes and amounts', async () => {
    for (const stake of ['1e308', '1e999', '9007199254740993', '-1000', '0', '1000.5', '-0']) {
      const raw = `{"betId":"huge","spot":"small","stakeMinor":${stake}}`;
      const answer = await http(base, 'POST', `/api/v1/tables/${T}/bets`, {
        token: tokens.player,
        raw,
      });
      expect(answer.status, stake).toBe(400);
      expect(errorCode(answer), stake).toBe('invalid_request');
    }
    for (const amount of ['1e308', '9007199254740993', '-5', '0.5']) {
      const answer = await http(base, 'POST', `/api/v1/players/${users.player.id}/deposits`, {
        token: tokens.cashier,
        raw: `{"amountMinor":${amount}}`,
      });
      expect(answer.status, amount).toBe(400);
      expect(errorCode(answer)).toBe('invalid_request');
    }
    const limits = await http(base, 'PATCH', `/api/v1/tables/${T}/limits`, {
      token: tokens.supervisor,
      raw: '{"liabilityMinorMax":1e308}',
    });
    expect(errorCode(limits)).toBe('invalid_request');
  });

  it('refuses unknown spots by the rule of Art. 5, and unknown fields', async () => {
    for (const spot of ['lucky7', 'total:3', 'total:18', 'single:7', 'SMALL', '__proto__']) {
      const answer = await bet({ betId: `s-${spot.replace(/\W/g, '')}`, spot, stakeMinor: 1_000 });
      expect(answer.status, spot).toBe(409);
      expect(errorCode(answer), spot).toBe('unknown_spot');
      expect((answer.body as { error: { article: string } }).error.article).toBe('5');
    }
    const extra = await bet({ betId: 'x1', spot: 'small', stakeMinor: 1_000, playerId: 'other' });
    expect(errorCode(extra)).toBe('invalid_request');
    expect((extra.body as { error: { message: string } }).error.message).toMatch(/playerId/);
    const command = await croupier({ type: 'ring-bell', dice: [6, 6, 6] });
    expect(errorCode(command)).toBe('invalid_request');
    const unknownCommand = await croupier({ type: 'rig-dice' });
    expect(errorCode(unknownCommand)).toBe('invalid_request');
  });

  it('refuses prototype pollution in JSON', async () => {
    const answer = await http(base, 'POST', `/api/v1/tables/${T}/bets`, {
      token: tokens.player,
      raw: '{"betId":"p1","spot":"small","stakeMinor":1000,"__proto__":{"admin":true}}',
    });
    expect(answer.status).toBe(400);
    expect(['invalid_json', 'invalid_request']).toContain(errorCode(answer));
    expect(({} as Record<string, unknown>)['admin']).toBeUndefined();
  });

  it('refuses a body over 64 KiB with 413 body_too_large', async () => {
    const big = JSON.stringify({
      betId: 'big',
      spot: 'small',
      stakeMinor: 1,
      pad: 'x'.repeat(70_000),
    });
    const answer = await http(base, 'POST', `/api/v1/tables/${T}/bets`, {
      token: tokens.player,
      raw: big,
    });
    expect(answer.status).toBe(413);
    expect(errorCode(answer)).toBe('body_too_large');
    const login = await http(base, 'POST', '/api/v1/session', { raw: big });
    expect(errorCode(login)).toBe('body_too_large');
  });

  it('refuses bodies that are not JSON with 415', async () => {
    for (const [type, raw] of [
      ['application/x-www-form-urlencoded', 'betId=b1&spot=small'],
      ['text/plain', '{"betId":"b1","spot":"small","stakeMinor":1000}'],
    ] as const) {
      const answer = await http(base, 'POST', `/api/v1/tables/${T}/bets`, {
        token: tokens.player,
        raw,
        headers: { 'content-type': type },
      });
      expect(answer.status, type).toBe(415);
      expect(errorCode(answer), type).toBe('unsupported_media_type');
    }
  });

  it('refuses malformed idempotency keys, and a key reused for another body', async () => {
    const bad = await bet(
      { betId: 'k1', spot: 'small', stakeMinor: 1_000 },
      {
        'idempotency-key': 'spaces are not allowed',
      },
    );
    expect(errorCode(bad)).toBe('invalid_request');
    const first = await bet(
      { betId: 'k1', spot: 'small', stakeMinor: 1_000 },
      {
        'idempotency-key': 'key-1',
      },
    );
    expect(first.status).toBe(201);
    const retry = await bet(
      { betId: 'k1', spot: 'small', stakeMinor: 1_000 },
      {
        'idempotency-key': 'key-1',
      },
    );
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    const other = await bet(
      { betId: 'k2', spot: 'big', stakeMinor: 1_000 },
      {
        'idempotency-key': 'key-1',
      },
    );
    expect(other.status).toBe(409);
    expect(errorCode(other)).toBe('idempotency_key_conflict');
  });
});

describe('HTTP paths, queries and tokens', () => {
  it('answers unknown routes and methods with a 404 in the API shape', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nope'],
      ['GET', '/api/v2/tables'],
      ['POST', `/api/v1/tables/${T}/nope`],
      ['PUT', '/api/v1/tables'],
      ['GET', '/no-such-page.html'],
    ] as const) {
      const answer = await http(base, method, path, { token: tokens.supervisor });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(errorCode(answer)).toBe('not_found');
    }
    const noTable = await http(base, 'GET', '/api/v1/tables/T9');
    expect(errorCode(noTable)).toBe('unknown_table');
    const noTableEvents = await http(base, 'GET', '/api/v1/tables/T9/events', {
      token: tokens.player,
    });
    expect(errorCode(noTableEvents)).toBe('unknown_table');
  });

  it('refuses bad path parameters and query strings', async () => {
    const paths = [
      `/api/v1/tables/${'x'.repeat(65)}`,
      '/api/v1/tables/%00',
      '/api/v1/tables/a%20b',
      '/api/v1/journal?after=abc',
      '/api/v1/journal?after=-1',
      '/api/v1/journal?after=1e308',
      '/api/v1/journal?limit=100000',
      '/api/v1/journal?limit=0',
      '/api/v1/journal?unknown=1',
      `/api/v1/tables/${T}/recall?rounds=1000`,
    ];
    for (const path of paths) {
      const answer = await http(base, 'GET', path, { token: tokens.supervisor });
      expect(answer.status, path).toBe(400);
      expect(errorCode(answer), path).toBe('invalid_request');
    }
  });

  it('refuses forged, expired and malformed tokens with 401', async () => {
    const expired = await sessionToken(store, users.player, Date.now(), { expired: true });
    const headers = [
      { authorization: `Bearer ${forgedToken()}` },
      { authorization: `Bearer ${expired}` },
      { authorization: 'Bearer' },
      { authorization: 'Bearer short' },
      { authorization: `Basic ${Buffer.from('player:pw').toString('base64')}` },
      { authorization: `Bearer ${'a'.repeat(5_000)}` },
      { cookie: `cussec_session=${forgedToken()}` },
    ];
    for (const h of headers) {
      const answer = await http(base, 'GET', '/api/v1/me', { headers: h });
      expect(answer.status, JSON.stringify(h).slice(0, 80)).toBe(401);
      expect(errorCode(answer)).toBe('unauthenticated');
    }
    const wrong = await http(base, 'POST', '/api/v1/session', {
      body: { username: users.player.username, password: 'not the password' },
    });
    expect(errorCode(wrong)).toBe('invalid_credentials');
    const nobody = await http(base, 'POST', '/api/v1/session', {
      body: { username: 'nobody', password: 'not the password' },
    });
    expect(errorCode(nobody)).toBe('invalid_credentials');
  });

  it('serves the web app but nothing outside it, whatever the path', async () => {
    expect((await rawGet('/')).status).toBe(200);
    expect((await rawGet('/assets/app.js')).status).toBe(200);
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/assets/..\\..\\secret.txt',
      '/..%5c..%5csecret.txt',
      '/%252e%252e/secret.txt',
      '/assets/%00/../../secret.txt',
    ]) {
      const answer = await rawGet(path);
      expect(answer.text, path).not.toContain(SECRET);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
    }
  });

  it('answers a plain GET on a socket URL with 426 upgrade_required', async () => {
    const answer = await http(base, 'GET', `/api/v1/tables/${T}/ws`);
    expect(answer.status).toBe(426);
    expect(errorCode(answer)).toBe('upgrade_required');
  });

  it('refuses a URL longer than the server reads, in the API shape', async () => {
    const answer = await rawGet(`/api/v1/tables?x=${'a'.repeat(20_000)}`);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.text)).toEqual({
      error: {
        code: 'headers_too_large',
        message: 'the URL and headers are over the size the server reads',
      },
    });
  });

  it('refuses a path that is not valid percent-encoding, in the API shape', async () => {
    const answer = await rawGet('/api/v1/tables/%ZZ');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'invalid_request' } });
  });
});

describe('WebSocket upgrades', () => {
  const refused = (path: string, token?: string): Promise<string> =>
    SocketClient.connect(wsBase + path, token).then(
      (client) => {
        client.close();
        return 'open';
      },
      (error: Error) => error.message,
    );

  it('refuses forged, expired and malformed tokens before the upgrade', async () => {
    const expired = await sessionToken(store, users.player, Date.now(), { expired: true });
    expect(await refused(`/api/v1/tables/${T}/ws`, forgedToken())).toBe('HTTP 401');
    expect(await refused(`/api/v1/tables/${T}/ws`, expired)).toBe('HTTP 401');
    expect(await refused(`/api/v1/tables/${T}/ws`, 'short')).toBe('HTTP 401');
    expect(await refused(`/api/v1/tables/${T}/ws`)).toBe('open');
  });

  it('refuses unknown tables and bad resume points', async () => {
    expect(await refused('/api/v1/tables/T9/ws')).toBe('HTTP 404');
    expect(await refused(`/api/v1/tables/${T}/ws?after=abc`)).toBe('HTTP 400');
    expect(await refused(`/api/v1/tables/${T}/ws?after=-1`)).toBe('HTTP 400');
    expect(await refused(`/api/v1/tables/${T}/ws?after=99999999`)).toBe('HTTP 400');
    expect(await refused(`/api/v1/tables/${T}/ws?token=abc`)).toBe('HTTP 400');
    expect(await refused(`/api/v1/tables/${T}/ws?feed=everything`)).toBe('HTTP 400');
  });

  it('closes a resume more than the backlog limit behind with 4001', async () => {
    // More table events than the limit: bets of a second player.
    const [extra] = await seedUsers(store, 'player', 1, {
      prefix: 'backlog',
      fundMinor: 1_000_000,
    });
    const token = await sessionToken(store, extra!, Date.now());
    for (let i = 0; i < BACKLOG_MAX + 5; i++) {
      const placed = await http(base, 'POST', `/api/v1/tables/${T}/bets`, {
        token,
        body: { betId: `bl${i}`, spot: 'odd', stakeMinor: 1_000 },
      });
      expect(placed.status).toBe(201);
    }
    const client = await SocketClient.connect(`${wsBase}/api/v1/tables/${T}/ws?after=0`);
    const closed = await client.closed;
    expect(closed.code).toBe(4001);
    expect(closed.reason).toMatch(/reconnect without \?after/);
    expect(client.messages).toEqual([]);
  });
});

describe('WebSocket messages', () => {
  const connect = (role: Role = 'player'): Promise<SocketClient> =>
    SocketClient.connect(`${wsBase}/api/v1/tables/${T}/ws`, tokens[role]);

  it('answers malformed and invalid messages with an error, and stays open', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    client.socket.send('{not json');
    expect(await client.next((m) => m.type === 'error')).toMatchObject({
      requestId: null,
      error: { code: 'invalid_json' },
    });
    const invalid: [string, unknown][] = [
      ['w1', { type: 'place-bet', requestId: 'w1', betId: 'w1', spot: 'small', stakeMinor: '1' }],
      ['w2', { type: 'place-bet', requestId: 'w2', betId: 'w2', spot: 'small', stakeMinor: 1e308 }],
      ['w3', { type: 'place-bet', requestId: 'w3', betId: 'w3', spot: 'small', stakeMinor: 0.5 }],
      ['w4', { type: 'place-bet', requestId: 'w4', betId: 'w4', spot: 'small', stakeMinor: -1 }],
      ['w5', { type: 'rig-dice', requestId: 'w5' }],
      [
        'w6',
        { type: 'place-bet', requestId: 'w6', betId: 'w6', spot: 'small', stakeMinor: 1_000, x: 1 },
      ],
      ['w7', { type: 'place-bets', requestId: 'w7', bets: [] }],
      [
        'w8',
        {
          type: 'place-bets',
          requestId: 'w8',
          bets: Array.from({ length: 21 }, (_, i) => ({
            betId: `m${i}`,
            spot: 'small',
            stakeMinor: 1_000,
          })),
        },
      ],
      [
        'w9',
        {
          type: 'place-bets',
          requestId: 'w9',
          bets: [
            { betId: 'same', spot: 'small', stakeMinor: 1_000 },
            { betId: 'same', spot: 'big', stakeMinor: 1_000 },
          ],
        },
      ],
    ];
    for (const [requestId, message] of invalid) {
      client.send(message);
      const answer = await client.answer(requestId);
      expect(answer, requestId).toMatchObject({
        type: 'error',
        error: { code: 'invalid_request' },
      });
    }
    client.send({
      type: 'place-bet',
      requestId: 'u1',
      betId: 'u1',
      spot: 'lucky7',
      stakeMinor: 1_000,
    });
    expect(await client.answer('u1')).toMatchObject({
      error: { code: 'unknown_spot', article: '5' },
    });
    for (const raw of ['null', '[]', '"text"', '42']) client.socket.send(raw);
    for (let i = 0; i < 4; i++)
      expect(await client.next((m) => m.type === 'error')).toMatchObject({ requestId: null });
    expect(client.socket.readyState).toBe(client.socket.OPEN);
    client.close();
  });

  it('closes a socket that floods with 1008', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    for (let i = 0; i < 200; i++) client.socket.send('{}');
    expect((await client.closed).code).toBe(1008);
  });

  it('closes a socket that sends a message over 16 KiB with 1009', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    client.send({ type: 'place-bet', requestId: 'x'.repeat(20_000) });
    expect((await client.closed).code).toBe(1009);
  });

  it('closes a socket that sends a binary frame with 1003', async () => {
    const client = await connect();
    await client.next((m) => m.type === 'hello');
    client.socket.send(Buffer.from(JSON.stringify({ type: 'place-bet' })), { binary: true });
    expect((await client.closed).code).toBe(1003);
  });

  it('lets nobody but a player bet, and a watcher only watch', async () => {
    for (const role of ['croupier', 'supervisor', 'cashier', 'inspector'] as const) {
      const client = await connect(role);
      client.send({
        type: 'place-bet',
        requestId: 'r',
        betId: `r-${role}`,
        spot: 'small',
        stakeMinor: 1_000,
      });
      expect(await client.answer('r'), role).toMatchObject({ error: { code: 'forbidden' } });
      client.close();
    }
    const anonymous = await SocketClient.connect(`${wsBase}/api/v1/tables/${T}/ws`);
    anonymous.send({ type: 'withdraw-bet', requestId: 'r', betId: 'k1' });
    expect(await anonymous.answer('r')).toMatchObject({ error: { code: 'forbidden' } });
    anonymous.close();
  });
});

describe('afterwards', () => {
  it('is still up, and the audit of its database passes', async () => {
    await sleep(50);
    expect((await http(base, 'GET', '/healthz')).status).toBe(200);
    expect((await http(base, 'GET', '/readyz')).status).toBe(200);
    const verify = await http(base, 'GET', '/api/v1/journal/verify', { token: tokens.inspector });
    expect(verify.body).toMatchObject({ ok: true });
    await stop();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'audit', 'verify', '--db', dbFile],
      { cwd: join(import.meta.dirname, '..') },
    );
    expect(stdout).toMatch(/audit passed/);
  });
});
