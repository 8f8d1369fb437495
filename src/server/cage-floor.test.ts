/**
 * The cage's history of a player and the floor's settings, over the API in
 * process on both engines: each deposit and withdrawal is listed newest first
 * with its time, amount, cashier and the balance it left; the floor's settings
 * are journaled with who set them, read alike by everyone allowed, and changed
 * one field at a time; a session names its device and address, marks the
 * caller's own, and the caller's own cannot be ended from the list.
 */
import { expect, it } from 'vitest';
import type { Store } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { type App, buildApp } from './app.js';
import { seedRoles, TEST_PASSWORD } from './testing.js';

interface Answer {
  readonly status: number;
  readonly json: unknown;
  readonly code: string | undefined;
}

function caller(app: App) {
  return async (
    token: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: object,
  ): Promise<Answer> => {
    const response = await app.fastify.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'user-agent': 'CageTest/1.0' },
      ...(body === undefined ? {} : { payload: body }),
    });
    const json: unknown = response.body === '' ? null : response.json();
    const code = (json as { error?: { code: string } } | null)?.error?.code;
    return { status: response.statusCode, json, code };
  };
}

async function setup(store: Store) {
  const app = await buildApp({ store, logger: false });
  await app.fastify.ready();
  const users = await seedRoles(store);
  const login = async (username: string): Promise<string> => {
    const answer = await app.fastify.inject({
      method: 'POST',
      url: '/api/v1/session',
      headers: { 'user-agent': 'CageTest/1.0' },
      payload: { username, password: TEST_PASSWORD },
    });
    return answer.json<{ token: string }>().token;
  };
  return { app, users, login, call: caller(app) };
}

withStores('cage and floor settings', (h) => {
  it("lists a player's cage moves newest first, with the cashier and the balance after each", async () => {
    const { app, users, login, call } = await setup(await h.open());
    try {
      const cashier = await login(users.cashier.username);
      const player = users.player.id;
      const start = (
        (await call(cashier, 'GET', '/api/v1/players')).json as {
          id: string;
          balanceMinor: number;
        }[]
      ).find((p) => p.id === player)!.balanceMinor;
      await call(cashier, 'POST', `/api/v1/players/${player}/deposits`, { amountMinor: 50_000 });
      await call(cashier, 'POST', `/api/v1/players/${player}/withdrawals`, { amountMinor: 20_000 });
      const moves = await call(cashier, 'GET', `/api/v1/players/${player}/cage-moves`);
      expect(moves.status).toBe(200);
      expect((moves.json as unknown[]).slice(0, 2)).toMatchObject([
        {
          kind: 'withdrawal',
          amountMinor: 20_000,
          balanceAfterMinor: start + 30_000,
          cashier: { id: users.cashier.id, username: users.cashier.username },
        },
        { kind: 'deposit', amountMinor: 50_000, balanceAfterMinor: start + 50_000 },
      ]);
      const [newest] = moves.json as { seq: number }[];
      const older = await call(
        cashier,
        'GET',
        `/api/v1/players/${player}/cage-moves?before=${newest!.seq}`,
      );
      // Before the newest: the deposit, then the seed's funding deposit.
      expect((older.json as { amountMinor: number }[])[0]).toMatchObject({ amountMinor: 50_000 });
      expect(older.json).toHaveLength((moves.json as unknown[]).length - 1);
      const other = await call(cashier, 'GET', `/api/v1/players/${users.croupier.id}/cage-moves`);
      expect([other.status, other.code]).toEqual([404, 'unknown_player']);
    } finally {
      await app.shutdown();
    }
  });

  it("journals the floor's settings with who set them, and changes one field at a time", async () => {
    const { app, users, login, call } = await setup(await h.open());
    try {
      const supervisor = await login(users.supervisor.username);
      const cashier = await login(users.cashier.username);
      const before = await call(cashier, 'GET', '/api/v1/floor-settings');
      expect(before.json).toEqual({
        settings: { cageConfirmationAboveMinor: null, largeCashThresholdMinor: null },
        seq: null,
        changedAtMs: null,
        changedBy: null,
      });
      const set = await call(supervisor, 'PATCH', '/api/v1/floor-settings', {
        cageConfirmationAboveMinor: 1_000_000,
      });
      expect(set.status).toBe(200);
      const read = await call(cashier, 'GET', '/api/v1/floor-settings');
      expect(read.json).toMatchObject({
        settings: { cageConfirmationAboveMinor: 1_000_000 },
        changedBy: { id: users.supervisor.id, username: users.supervisor.username },
      });
      // An empty change keeps every setting; a bad value is refused whole.
      await call(supervisor, 'PATCH', '/api/v1/floor-settings', {});
      const kept = await call(cashier, 'GET', '/api/v1/floor-settings');
      expect(kept.json).toMatchObject({ settings: { cageConfirmationAboveMinor: 1_000_000 } });
      for (const bad of [{ cageConfirmationAboveMinor: -5 }, { somethingElse: 1 }]) {
        const refused = await call(supervisor, 'PATCH', '/api/v1/floor-settings', bad);
        expect([refused.status, refused.code]).toEqual([400, 'invalid_request']);
      }
      // Instrução 1/2016: a house may be stricter than the law's MOP 500,000, never laxer.
      const lax = await call(supervisor, 'PATCH', '/api/v1/floor-settings', {
        largeCashThresholdMinor: 50_000_001,
      });
      expect([lax.status, lax.code]).toEqual([400, 'threshold_above_law']);
      const journal = await call(supervisor, 'GET', '/api/v1/journal?after=0&limit=1000');
      const changes = (journal.json as { type: string; payload: unknown }[]).filter(
        (e) => e.type === 'floor-settings-changed',
      );
      const both = { cageConfirmationAboveMinor: 1_000_000, largeCashThresholdMinor: null };
      expect(changes.map((e) => e.payload)).toEqual([
        { settings: both, by: users.supervisor.id },
        { settings: both, by: users.supervisor.id },
      ]);
    } finally {
      await app.shutdown();
    }
  });

  it("names a session's device and address, marks the caller's own, and will not end it", async () => {
    const { app, users, login, call } = await setup(await h.open());
    try {
      const first = await login(users.supervisor.username);
      const second = await login(users.supervisor.username);
      const listed = await call(second, 'GET', `/api/v1/users/${users.supervisor.id}/sessions`);
      const sessions = listed.json as {
        id: string;
        userAgent: string;
        address: string;
        current: boolean;
      }[];
      expect(sessions).toHaveLength(2);
      for (const s of sessions) expect(s).toMatchObject({ userAgent: 'CageTest/1.0' });
      expect(sessions.every((s) => s.address === '127.0.0.1')).toBe(true);
      const own = sessions.filter((s) => s.current);
      expect(own).toHaveLength(1);
      const refused = await call(
        second,
        'DELETE',
        `/api/v1/users/${users.supervisor.id}/sessions/${own[0]!.id}`,
      );
      expect([refused.status, refused.code]).toEqual([409, 'current_session']);
      const other = sessions.find((s) => !s.current)!;
      const ended = await call(
        second,
        'DELETE',
        `/api/v1/users/${users.supervisor.id}/sessions/${other.id}`,
      );
      expect(ended.status).toBe(204);
      expect((await call(first, 'GET', '/api/v1/me')).status).toBe(401);
      expect((await call(second, 'GET', '/api/v1/me')).status).toBe(200);
    } finally {
      await app.shutdown();
    }
  });
});
