/**
 * Structured logs never hold a secret: not the password of a login, not a
 * session token from a header, a cookie or a login answer, not a password
 * hash — even at the most verbose level, and for requests that fail.
 */
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import { simulatedTableSettings } from '../service/table-settings.js';
import { buildApp } from './app.js';
import { seedRoles, sessionToken, TEST_PASSWORD, testPasswordHash } from './testing.js';

/** A pino destination that keeps each line. */
function lineSink(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

const QUERY_TOKEN = 'query-token-never-logged';

withStores('logs', (h) => {
  it('writes one JSON line per request at the default level, with user id, route, status and time', async () => {
    const store = await h.open();
    const { stream, lines } = lineSink();
    const app = await buildApp({ store, logger: { stream } });
    await app.ctx.service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null });
    const users = await seedRoles(store);
    const token = await sessionToken(store, users.player, Date.now());
    await app.fastify.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } });
    await app.fastify.inject({ url: '/api/v1/tables/T1?x=1' });
    // A query string is never logged: its token must not appear (a random id may hold any short string).
    await app.fastify.inject({ url: `/nowhere?token=${QUERY_TOKEN}` });
    await app.shutdown();

    const requests = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l['msg'] === 'request');
    expect(lines).toHaveLength(requests.length);
    expect(requests).toEqual([
      expect.objectContaining({
        level: 30,
        userId: users.player.id,
        method: 'GET',
        route: '/api/v1/me',
        status: 200,
        ms: expect.any(Number) as number,
      }),
      // A client's mistake (an unknown query parameter) is an info line like any other.
      expect.objectContaining({
        level: 30,
        userId: null,
        route: '/api/v1/tables/:tableId',
        status: 400,
      }),
      expect.objectContaining({ userId: null, route: '/nowhere', status: 404 }),
    ]);
    expect(lines.join('\n')).not.toContain(QUERY_TOKEN);
  });

  it('logs every request as JSON lines and never a password, token or hash', async () => {
    const store = await h.open();
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const app = await buildApp({ store, logger: { level: 'trace', stream } });
    await app.ctx.service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null });
    const users = await seedRoles(store);
    const token = await sessionToken(store, users.supervisor, Date.now());
    const login = await app.fastify.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { username: users.player.username, password: TEST_PASSWORD },
    });
    const issued = login.json<{ token: string }>().token;
    await app.fastify.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { username: users.player.username, password: `${TEST_PASSWORD}-wrong` },
    });
    await app.fastify.inject({
      url: '/api/v1/users',
      headers: { authorization: `Bearer ${token}` },
    });
    await app.fastify.inject({
      url: '/api/v1/me',
      headers: { cookie: `cussec_session=${issued}` },
    });
    await app.fastify.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: { authorization: `Bearer ${token}` },
      payload: { username: 'new-one', password: 'a secret password', role: 'cashier' },
    });
    await app.fastify.inject({ method: 'POST', url: '/api/v1/session', payload: '{broken' });
    await app.shutdown();

    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    const text = lines.join('\n');
    for (const secret of [
      TEST_PASSWORD,
      'a secret password',
      token,
      issued,
      await testPasswordHash(),
    ])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/scrypt\$/);
  });
});
