/**
 * Accounts with a life cycle, over the API in process: a password somebody
 * else chose must be changed first; disabling ends sessions and sockets at once
 * and refuses sign-in; a reset forces a change; sessions can be listed and
 * revoked; every staff action is journaled with who did it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { openSqliteStore } from '../ledger/index.js';
import { defaultTableSettings } from '../service/table-settings.js';
import { type App, buildApp } from './app.js';
import { WS_CLOSE_SESSION_ENDED } from './session-sockets.js';
import { passwordWeakness } from '../service/passwords.js';
import { seedRoles, sessionToken, TEST_PASSWORD } from './testing.js';

async function setup(): Promise<{ app: App; supervisor: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-accounts-'));
  const store = await openSqliteStore({ path: join(dir, 'a.sqlite'), currency: 'MOP' });
  const app = await buildApp({ store, logger: false });
  await app.ctx.service.createTable({ ...defaultTableSettings('T1'), bettingTimerMs: null });
  const users = await seedRoles(store);
  return { app, supervisor: await sessionToken(store, users.supervisor, Date.now()) };
}

async function call(
  app: App,
  token: string | undefined,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: object,
): Promise<{ status: number; json: Record<string, unknown> & { error?: { code: string } } }> {
  const response = await app.fastify.inject({
    method,
    url,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { payload: body }),
  });
  return {
    status: response.statusCode,
    json: response.body === '' ? {} : response.json<Record<string, unknown>>(),
  };
}

async function login(app: App, username: string, password: string): Promise<string> {
  const answer = await call(app, undefined, 'POST', '/api/v1/session', { username, password });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json['token'] as string;
}

async function journalTypes(app: App, supervisor: string): Promise<unknown[]> {
  const { json } = await call(app, supervisor, 'GET', '/api/v1/journal?after=0&limit=1000');
  return (json as unknown as { type: string; payload: unknown }[])
    .filter((e) => /^(user|password|session)-/.test(e.type))
    .map((e) => ({ type: e.type, payload: e.payload }));
}

describe('passwordWeakness', () => {
  it('refuses short, username-only and repetitive passwords', () => {
    expect(passwordWeakness('short', 'ann')).toMatch(/10 characters/);
    expect(passwordWeakness('Croupier01', 'croupier01')).toMatch(/username/);
    expect(passwordWeakness('aaaaabbbbbaaaa', 'ann')).toMatch(/different characters/);
    expect(passwordWeakness('a long password', 'ann')).toBeUndefined();
  });
});

describe('accounts life cycle', () => {
  it('makes a new user change the password chosen for them before anything else', async () => {
    const { app, supervisor } = await setup();
    try {
      const made = await call(app, supervisor, 'POST', '/api/v1/users', {
        username: 'ann',
        password: 'chosen by the boss',
        role: 'croupier',
      });
      expect(made.status).toBe(201);
      expect(made.json['mustChangePassword']).toBe(true);
      const weak = await call(app, supervisor, 'POST', '/api/v1/users', {
        username: 'bob',
        password: 'bobbobbobbob',
        role: 'croupier',
      });
      expect(weak).toMatchObject({ status: 400, json: { error: { code: 'weak_password' } } });
      const first = await login(app, 'ann', 'chosen by the boss');
      const blocked = await call(app, first, 'GET', '/api/v1/tables/T1/exposure');
      expect(blocked.json.error?.code).toBe('password_change_required');
      expect((await call(app, first, 'GET', '/api/v1/me')).json['user']).toMatchObject({
        mustChangePassword: true,
      });
      const wrong = await call(app, first, 'POST', '/api/v1/me/password', {
        currentPassword: 'not it at all',
        newPassword: 'my own secret 42',
      });
      expect(wrong.json.error?.code).toBe('wrong_password');
      const changed = await call(app, first, 'POST', '/api/v1/me/password', {
        currentPassword: 'chosen by the boss',
        newPassword: 'my own secret 42',
      });
      expect(changed.status).toBe(200);
      expect((await call(app, first, 'GET', '/api/v1/me')).status).toBe(401);
      const fresh = changed.json['token'] as string;
      expect((await call(app, fresh, 'GET', '/api/v1/tables/T1/exposure')).status).toBe(200);
      expect(await journalTypes(app, supervisor)).toContainEqual({
        type: 'password-changed',
        payload: { userId: made.json['id'], by: made.json['id'] },
      });
    } finally {
      await app.shutdown();
    }
  });

  it('ends a disabled user’s sessions and socket at once, refuses their sign-in, and enables again', async () => {
    const { app, supervisor } = await setup();
    try {
      await app.fastify.ready();
      const users = (await call(app, supervisor, 'GET', '/api/v1/users')).json as unknown as {
        id: string;
        username: string;
        role: string;
      }[];
      const croupier = users.find((u) => u.role === 'croupier')!;
      const me = users.find((u) => u.role === 'supervisor')!;
      const token = await login(app, croupier.username, TEST_PASSWORD);
      const socket: WebSocket = await app.fastify.injectWS('/api/v1/tables/T1/ws', {
        headers: { authorization: `Bearer ${token}` },
      });
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      const off = await call(app, supervisor, 'PATCH', `/api/v1/users/${croupier.id}`, {
        disabled: true,
      });
      expect(off.json).toMatchObject({ disabled: true });
      expect(await closed).toBe(WS_CLOSE_SESSION_ENDED);
      expect((await call(app, token, 'GET', '/api/v1/me')).status).toBe(401);
      const refused = await call(app, undefined, 'POST', '/api/v1/session', {
        username: croupier.username,
        password: TEST_PASSWORD,
      });
      expect(refused.json.error?.code).toBe('invalid_credentials');
      const self = await call(app, supervisor, 'PATCH', `/api/v1/users/${me.id}`, {
        disabled: true,
      });
      expect(self.json.error?.code).toBe('cannot_disable_self');
      await call(app, supervisor, 'PATCH', `/api/v1/users/${croupier.id}`, { disabled: false });
      await login(app, croupier.username, TEST_PASSWORD);
      expect(await journalTypes(app, supervisor)).toEqual(
        expect.arrayContaining([
          { type: 'user-disabled', payload: { userId: croupier.id, by: me.id } },
          { type: 'user-enabled', payload: { userId: croupier.id, by: me.id } },
        ]),
      );
    } finally {
      await app.shutdown();
    }
  });

  it('keeps a disabled player’s wallet, resets a password to be changed, lists and revokes sessions', async () => {
    const { app, supervisor } = await setup();
    try {
      const users = (await call(app, supervisor, 'GET', '/api/v1/users')).json as unknown as {
        id: string;
        username: string;
        role: string;
      }[];
      const player = users.find((u) => u.role === 'player')!;
      await call(app, supervisor, 'PATCH', `/api/v1/users/${player.id}`, { disabled: true });
      await call(app, supervisor, 'PATCH', `/api/v1/users/${player.id}`, { disabled: false });
      const token = await login(app, player.username, TEST_PASSWORD);
      expect((await call(app, token, 'GET', '/api/v1/me')).json['wallet']).toMatchObject({
        balanceMinor: 1_000_000,
      });
      const listed = await call(app, supervisor, 'GET', `/api/v1/users/${player.id}/sessions`);
      const sessions = listed.json as unknown as { id: string }[];
      expect(sessions).toHaveLength(1);
      expect(JSON.stringify(sessions)).not.toContain(token);
      const revoked = await call(
        app,
        supervisor,
        'DELETE',
        `/api/v1/users/${player.id}/sessions/${sessions[0]!.id}`,
      );
      expect(revoked.status).toBe(204);
      expect((await call(app, token, 'GET', '/api/v1/me')).status).toBe(401);
      const again = await call(
        app,
        supervisor,
        'DELETE',
        `/api/v1/users/${player.id}/sessions/${sessions[0]!.id}`,
      );
      expect(again.json.error?.code).toBe('unknown_session');
      const reset = await call(app, supervisor, 'POST', `/api/v1/users/${player.id}/password`, {
        password: 'temporary one 7',
      });
      expect(reset.json).toMatchObject({ mustChangePassword: true });
      const next = await login(app, player.username, 'temporary one 7');
      const bet = await call(app, next, 'GET', '/api/v1/tables/T1/my-bets');
      expect(bet.json.error?.code).toBe('password_change_required');
      const unknown = await call(app, supervisor, 'POST', '/api/v1/users/u-nobody/password', {
        password: 'temporary one 7',
      });
      expect(unknown.json.error?.code).toBe('unknown_user');
    } finally {
      await app.shutdown();
    }
  });
});
