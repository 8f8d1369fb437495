/**
 * Two nodes on one database: a user disabled, a password reset or changed, or
 * a session revoked through one node closes the user's sockets on the other at
 * once, from the journal, not at the other node's sweep (set here to ten
 * minutes, so that it cannot be what closes them).
 */
import { expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { User } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { tokenHash } from '../service/sessions.js';
import { defaultTableSettings } from '../service/table-settings.js';
import { type App, buildApp } from './app.js';
import { WS_CLOSE_SESSION_ENDED } from './session-sockets.js';
import { seedRoles, sessionToken, TEST_PASSWORD } from './testing.js';

const SWEEP_MS = 600_000;
/** Well under the sweep: a notice, or on SQLite the once-a-second read of the journal. */
const CLOSED_WITHIN_MS = 5_000;
/** A session begun a second ago: before the change that ends it, whatever the clock's grain. */
const begun = (): number => Date.now() - 1_000;

withStores('sessions ended across nodes', (h) => {
  interface TwoNodes {
    readonly staff: App;
    readonly play: App;
    readonly supervisor: string;
    readonly player: User;
  }

  /** Two nodes on one fresh database, shut down after `body`. */
  async function onTwoNodes(body: (nodes: TwoNodes) => Promise<void>): Promise<void> {
    const nodes = await twoNodes();
    try {
      await body(nodes);
    } finally {
      await nodes.play.shutdown();
      await nodes.staff.shutdown();
    }
  }

  async function twoNodes(): Promise<TwoNodes> {
    const db = h.freshDb();
    const staff = await buildApp({
      store: await h.open({ db }),
      logger: false,
      sessionSweepMs: SWEEP_MS,
    });
    const play = await buildApp({
      store: await h.open({ db }),
      logger: false,
      sessionSweepMs: SWEEP_MS,
    });
    await staff.ctx.service.createTable({ ...defaultTableSettings('T1'), bettingTimerMs: null });
    const users = await seedRoles(staff.ctx.store);
    await Promise.all([staff.fastify.ready(), play.fastify.ready()]);
    return {
      staff,
      play,
      supervisor: await sessionToken(staff.ctx.store, users.supervisor, Date.now()),
      player: users.player,
    };
  }

  /** A socket on the table, and how it closed (the code), or 'open' while it is. */
  async function socketOf(
    app: App,
    token: string,
  ): Promise<{ ws: WebSocket; closed: Promise<number>; state: () => number | 'open' }> {
    const ws = await app.fastify.injectWS('/api/v1/tables/T1/ws', {
      headers: { authorization: `Bearer ${token}` },
    });
    let code: number | 'open' = 'open';
    const closed = new Promise<number>((resolve) =>
      ws.on('close', (c: number) => {
        code = c;
        resolve(c);
      }),
    );
    return { ws, closed, state: () => code };
  }

  const within = <T>(p: Promise<T>): Promise<T | 'still open'> =>
    Promise.race([
      p,
      new Promise<'still open'>((r) => setTimeout(() => r('still open'), CLOSED_WITHIN_MS)),
    ]);

  async function call(
    app: App,
    token: string,
    method: 'POST' | 'PATCH' | 'DELETE' | 'GET',
    url: string,
    payload?: object,
  ): Promise<{ status: number; json: unknown }> {
    const answer = await app.fastify.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload }),
    });
    return { status: answer.statusCode, json: answer.body === '' ? {} : answer.json() };
  }

  it("closes a disabled user's sockets on the other node at once", async () => {
    await onTwoNodes(async ({ staff, play, supervisor, player }) => {
      const socket = await socketOf(play, await sessionToken(play.ctx.store, player, begun()));
      const off = await call(staff, supervisor, 'PATCH', `/api/v1/users/${player.id}`, {
        disabled: true,
      });
      expect(off.status).toBe(200);
      expect(await within(socket.closed)).toBe(WS_CLOSE_SESSION_ENDED);
    });
  });

  it("closes the revoked session's socket on the other node, and only that one", async () => {
    await onTwoNodes(async ({ staff, play, supervisor, player }) => {
      const revokedToken = await sessionToken(play.ctx.store, player, begun());
      const revoked = await socketOf(play, revokedToken);
      const kept = await socketOf(play, await sessionToken(play.ctx.store, player, begun()));
      const sessions = (await call(staff, supervisor, 'GET', `/api/v1/users/${player.id}/sessions`))
        .json as { id: string }[];
      const id = tokenHash(revokedToken);
      expect(sessions.map((s) => s.id)).toContain(id);
      const answer = await call(
        staff,
        supervisor,
        'DELETE',
        `/api/v1/users/${player.id}/sessions/${id}`,
      );
      expect(answer.status).toBe(204);
      expect(await within(revoked.closed)).toBe(WS_CLOSE_SESSION_ENDED);
      expect(kept.state()).toBe('open');
      kept.ws.terminate();
    });
  });

  it("closes a user's sockets on the other node when their password changes, and keeps the new session's", async () => {
    await onTwoNodes(async ({ staff, play, supervisor, player }) => {
      // The player's own change, through the first node: the session it starts lives on.
      const signedIn = await staff.fastify.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: { username: player.username, password: TEST_PASSWORD },
      });
      const older = await socketOf(play, await sessionToken(play.ctx.store, player, begun()));
      const changed = await call(
        staff,
        signedIn.json<{ token: string }>().token,
        'POST',
        '/api/v1/me/password',
        {
          currentPassword: TEST_PASSWORD,
          newPassword: `${TEST_PASSWORD}-mine`,
        },
      );
      expect(changed.status).toBe(200);
      const after = await socketOf(play, (changed.json as { token: string }).token);
      expect(await within(older.closed)).toBe(WS_CLOSE_SESSION_ENDED);
      expect(after.state()).toBe('open');
      // A reset by a supervisor ends that one too.
      await new Promise((r) => setTimeout(r, 2));
      const reset = await call(staff, supervisor, 'POST', `/api/v1/users/${player.id}/password`, {
        password: `${TEST_PASSWORD}-reset`,
      });
      expect(reset.status).toBe(200);
      expect(await within(after.closed)).toBe(WS_CLOSE_SESSION_ENDED);
    });
  });
});
