/**
 * The role matrix: every route of the API (read from the app's own route list,
 * so a new route without a row here fails) called by every role, by nobody, by
 * a forged token and by an expired one. A role the route allows gets its 2xx;
 * a role it does not allow gets 403 `forbidden`; no live session gets 401
 * `unauthenticated` (or, on a public route, the public answer). And what each
 * role sees of a table's bets and staff-only entries (visibility.ts).
 */
import { readFileSync } from 'node:fs';
import { macauDate } from '../compliance/index.js';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ROLES, type Role, type Store, type User } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { simulatedTableSettings } from '../service/table-settings.js';
import { FORWARD_PATH } from '../service/command-router.js';
import { type App, buildApp } from './app.js';
import { tokenHash } from '../service/sessions.js';
import {
  forgedToken,
  seedRoles,
  seedUsers,
  sessionToken,
  TEST_PASSWORD,
  testPasswordHash,
} from './testing.js';
import { sampleInput } from '../journal/samples.js';

type Access = 'public' | 'any' | readonly Role[];
type Caller = Role | 'anonymous' | 'forged' | 'expired';
const CALLERS: readonly Caller[] = [...ROLES, 'anonymous', 'forged', 'expired'];

interface Fixture {
  readonly users: Record<Role, User>;
  /** A fresh number for names that must be unique. */
  readonly next: () => number;
  /** The id of a live session of the cashier's, for revoking. */
  readonly cashierSessionId: string;
  /** The id of a new exclusion order whose revocation nobody asked yet. */
  readonly revocable: () => string;
}

interface Row {
  readonly access: Access;
  readonly url: (f: Fixture) => string;
  readonly body?: (f: Fixture) => unknown;
}

const T = 'T1';
/** A table between rounds, for the supervisor's limits. */
const IDLE = 'T2';
/** A lever table between rounds, whose dice may be changed. */
const LEVER = 'LV';
/** A table held by a severe fairness alert (Art. 1.1), for the supervisor's acknowledgement. */
const HELD = 'HD';
const HOLIDAYS_2027 = readFileSync(
  new URL('../compliance/holidays/2027.json', import.meta.url),
  'utf8',
);

/** YYYY-MM-DD of a day `days` from now, moved on to a Wednesday (a working day, well ahead). */
function isoDay(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  while (date.getUTCDay() !== 3) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

const SEED_FLAG = 'structuring:seed';

/** A self-exclusion of a document nobody at the tables holds. */
const exclusion = (id: string) => ({
  id,
  kind: 'self',
  dicjReference: `DICJ/EXC/${id}`,
  documentType: 'passport',
  documentNumber: 'K9876543',
  fullName: null,
  dateOfBirth: null,
  from: '2026-01-10',
  to: '2027-12-31',
  revocationRequestedOn: null,
});

/** One row per route: who may call it, and a request that succeeds for them. */
const ROWS: Record<string, Row> = {
  'POST /api/v1/session': {
    access: 'public',
    url: () => '/api/v1/session',
    body: (f) => ({ username: f.users.player.username, password: TEST_PASSWORD }),
  },
  'DELETE /api/v1/session': { access: 'any', url: () => '/api/v1/session' },
  'GET /api/v1/me': { access: 'any', url: () => '/api/v1/me' },
  'GET /api/v1/tables': { access: 'public', url: () => '/api/v1/tables' },
  'GET /api/v1/tables/:tableId': { access: 'public', url: () => `/api/v1/tables/${T}` },
  'POST /api/v1/tables/:tableId/bets': {
    access: ['player'],
    url: () => `/api/v1/tables/${T}/bets`,
    body: (f) => ({ betId: `b${f.next()}`, spot: 'small', stakeMinor: 1_000 }),
  },
  'DELETE /api/v1/tables/:tableId/bets/:betId': {
    access: ['player'],
    url: () => `/api/v1/tables/${T}/bets/seed-bet`,
  },
  'GET /api/v1/tables/:tableId/my-bets': {
    access: ['player'],
    url: () => `/api/v1/tables/${T}/my-bets`,
  },
  'POST /api/v1/tables/:tableId/commands': {
    access: ['croupier'],
    url: () => `/api/v1/tables/${T}/commands`,
    body: () => ({ type: 'ring-bell' }),
  },
  'GET /api/v1/tables/:tableId/exposure': {
    access: ['croupier', 'supervisor'],
    url: () => `/api/v1/tables/${T}/exposure`,
  },
  'GET /api/v1/tables/:tableId/recall': {
    access: ['inspector', 'supervisor'],
    url: () => `/api/v1/tables/${T}/recall?rounds=5`,
  },
  'GET /api/v1/tables/:tableId/fairness': {
    access: ['inspector', 'supervisor'],
    url: () => `/api/v1/tables/${T}/fairness`,
  },
  'GET /api/v1/tables/:tableId/events': {
    access: 'any',
    url: () => `/api/v1/tables/${T}/events?after=0&limit=10`,
  },
  'POST /api/v1/tables': {
    access: ['supervisor'],
    url: () => '/api/v1/tables',
    body: (f) => ({ tableId: `N${f.next()}` }),
  },
  'PATCH /api/v1/tables/:tableId/limits': {
    access: ['supervisor'],
    url: () => `/api/v1/tables/${IDLE}/limits`,
    body: () => ({ stakeMinorMin: 2_000 }),
  },
  'POST /api/v1/tables/:tableId/close': {
    access: ['supervisor'],
    url: () => `/api/v1/tables/${IDLE}/close`,
  },
  'POST /api/v1/tables/:tableId/open': {
    access: ['supervisor'],
    url: () => `/api/v1/tables/${IDLE}/open`,
  },
  'GET /api/v1/players': { access: ['cashier', 'supervisor'], url: () => '/api/v1/players' },
  'POST /api/v1/players/:playerId/deposits': {
    access: ['cashier'],
    url: (f) => `/api/v1/players/${f.users.player.id}/deposits`,
    body: () => ({ amountMinor: 5_000 }),
  },
  'POST /api/v1/players/:playerId/withdrawals': {
    access: ['cashier'],
    url: (f) => `/api/v1/players/${f.users.player.id}/withdrawals`,
    body: () => ({ amountMinor: 1_000 }),
  },
  'GET /api/v1/users': { access: ['supervisor'], url: () => '/api/v1/users' },
  'GET /api/v1/players/:playerId/cage-moves': {
    access: ['cashier', 'supervisor'],
    url: (f) => `/api/v1/players/${f.users.player.id}/cage-moves`,
  },
  'GET /api/v1/floor': { access: ['supervisor', 'inspector'], url: () => '/api/v1/floor' },
  'GET /api/v1/users/:userId/identity': {
    access: ['cashier', 'supervisor', 'compliance', 'inspector'],
    url: (f) => `/api/v1/users/${f.users.player.id}/identity`,
  },
  'PUT /api/v1/users/:userId/identity': {
    access: ['cashier', 'supervisor'],
    url: (f) => `/api/v1/users/${f.users.player.id}/identity`,
    body: (f) => ({
      fullName: `Chan Tai Man ${f.next()}`,
      documentType: 'hk-id',
      documentNumber: 'A123456(3)',
      issuingPlace: 'Hong Kong',
      dateOfBirth: '1990-05-01',
      nationality: 'Chinese',
    }),
  },
  'GET /api/v1/users/:userId/identity/history': {
    access: ['supervisor', 'compliance', 'inspector'],
    url: (f) => `/api/v1/users/${f.users.player.id}/identity/history`,
  },
  'GET /api/v1/me/identity': { access: ['player'], url: () => '/api/v1/me/identity' },
  'GET /api/v1/players/:playerId/eligibility': {
    access: ['cashier', 'supervisor', 'compliance', 'inspector'],
    url: (f) => `/api/v1/players/${f.users.player.id}/eligibility`,
  },
  'GET /api/v1/identity-reads': { access: ['inspector'], url: () => '/api/v1/identity-reads' },
  'GET /api/v1/exclusions': {
    access: ['supervisor', 'compliance', 'inspector'],
    url: () => '/api/v1/exclusions',
  },
  'POST /api/v1/exclusions': {
    access: ['inspector', 'supervisor'],
    url: () => '/api/v1/exclusions',
    body: (f) => exclusion(`X-${f.next()}`),
  },
  'POST /api/v1/exclusions/bulk': {
    access: ['inspector', 'supervisor'],
    url: () => '/api/v1/exclusions/bulk',
    body: (f) => ({ format: 'json', text: JSON.stringify([exclusion(`XB-${f.next()}`)]) }),
  },
  'POST /api/v1/exclusions/:orderId/revocation': {
    access: ['inspector', 'supervisor'],
    url: (f) => `/api/v1/exclusions/${f.revocable()}/revocation`,
    body: () => ({ requestedOn: macauDate(Date.now()) }),
  },
  'POST /api/v1/worker-causes': {
    access: ['supervisor'],
    url: () => '/api/v1/worker-causes',
    body: (f) => ({
      id: `W-${f.next()}`,
      documentType: 'macau-id',
      documentNumber: '1234567(8)',
      kind: 'training',
      approvalReference: 'HR/2026/7',
      from: '2026-03-01',
      to: '2026-03-05',
    }),
  },
  'GET /api/v1/large-transactions': {
    access: ['compliance', 'supervisor', 'inspector'],
    url: () => '/api/v1/large-transactions?from=2026-01-01&to=2026-12-31&format=csv',
  },
  'GET /api/v1/suspicion-flags': {
    access: ['compliance', 'inspector'],
    url: () => '/api/v1/suspicion-flags',
  },
  'POST /api/v1/suspicion-flags/:flagId/decision': {
    access: ['compliance'],
    url: () => `/api/v1/suspicion-flags/${SEED_FLAG}/decision`,
    body: () => ({ decision: 'closed', reason: 'a known customer; the cash came from a payout' }),
  },
  'GET /api/v1/suspicion-flags/:flagId/gif-report': {
    access: ['compliance', 'inspector'],
    url: () => `/api/v1/suspicion-flags/${SEED_FLAG}/gif-report`,
  },
  'GET /api/v1/floor-settings': {
    access: ['supervisor', 'cashier', 'inspector'],
    url: () => '/api/v1/floor-settings',
  },
  'PATCH /api/v1/floor-settings': {
    access: ['supervisor'],
    url: () => '/api/v1/floor-settings',
    body: () => ({ cageConfirmationAboveMinor: 1_000_000 }),
  },
  'GET /api/v1/reports/daily': {
    access: ['inspector', 'supervisor'],
    url: () => '/api/v1/reports/daily?date=2026-03-06&format=csv',
  },
  'GET /api/v1/staff-actions': {
    access: ['inspector', 'supervisor'],
    url: () => '/api/v1/staff-actions?limit=10',
  },
  'POST /api/v1/users': {
    access: ['supervisor'],
    url: () => '/api/v1/users',
    body: (f) => ({ username: `new${f.next()}`, password: 'a long password', role: 'cashier' }),
  },
  'PATCH /api/v1/users/:userId': {
    access: ['supervisor'],
    url: (f) => `/api/v1/users/${f.users.player.id}`,
    body: () => ({ disabled: false }),
  },
  // The player calls first, so resetting the player's password ends no later caller's session.
  'POST /api/v1/users/:userId/password': {
    access: ['supervisor'],
    url: (f) => `/api/v1/users/${f.users.player.id}/password`,
    body: () => ({ password: 'a reset password' }),
  },
  'GET /api/v1/users/:userId/sessions': {
    access: ['supervisor'],
    url: (f) => `/api/v1/users/${f.users.cashier.id}/sessions`,
  },
  'DELETE /api/v1/users/:userId/sessions/:sessionId': {
    access: ['supervisor'],
    url: (f) => `/api/v1/users/${f.users.cashier.id}/sessions/${f.cashierSessionId}`,
  },
  'POST /api/v1/me/password': {
    access: 'any',
    url: () => '/api/v1/me/password',
    body: () => ({ currentPassword: TEST_PASSWORD, newPassword: 'a brand new password' }),
  },
  'GET /api/v1/journal': {
    access: ['inspector', 'supervisor'],
    url: () => '/api/v1/journal?after=0&limit=5',
  },
  'GET /api/v1/journal/verify': {
    access: ['inspector', 'supervisor'],
    url: () => '/api/v1/journal/verify',
  },
  // The regulator's file: the inspector's alone (docs/export-format.md).
  'GET /api/v1/journal/export': {
    access: ['inspector'],
    url: () => '/api/v1/journal/export?from=1&to=3',
  },
  'GET /api/v1/tables/:tableId/house-options': {
    access: ['supervisor', 'inspector'],
    url: () => `/api/v1/tables/${IDLE}/house-options`,
  },
  'POST /api/v1/tables/:tableId/house-options/proposals': {
    access: ['supervisor'],
    url: () => `/api/v1/tables/${IDLE}/house-options/proposals`,
    body: (f) => ({
      proposalId: `p${f.next()}`,
      options: { displayBoard: false },
      adoptionDate: isoDay(30),
    }),
  },
  'POST /api/v1/tables/:tableId/house-options/proposals/:proposalId/authorization': {
    access: ['inspector'],
    url: () => `/api/v1/tables/${IDLE}/house-options/proposals/seed-proposal/authorization`,
    // Today in Macau (UTC+8), the day the route checks against, not the UTC day.
    body: () => ({ reference: 'DICJ 1/2026', authorizedOn: macauDate(Date.now()) }),
  },
  'POST /api/v1/tables/:tableId/house-options/proposals/:proposalId/withdrawal': {
    access: ['supervisor'],
    url: () => `/api/v1/tables/${IDLE}/house-options/proposals/seed-proposal/withdrawal`,
    body: () => ({ reason: 'changed our mind' }),
  },
  'GET /api/v1/holidays': { access: 'any', url: () => '/api/v1/holidays' },
  'POST /api/v1/holidays': {
    access: ['supervisor'],
    url: () => '/api/v1/holidays',
    body: () => JSON.parse(HOLIDAYS_2027) as unknown,
  },
  'POST /api/v1/tables/:tableId/dice-changed': {
    access: ['croupier', 'supervisor'],
    url: () => `/api/v1/tables/${LEVER}/dice-changed`,
    body: (f) => ({ reason: 'worn edges', diceSetId: `set-${f.next()}` }),
  },
  'POST /api/v1/tables/:tableId/hold/acknowledgement': {
    access: ['supervisor'],
    url: () => `/api/v1/tables/${HELD}/hold/acknowledgement`,
    body: () => ({ note: 'dice inspected' }),
  },
  'GET /api/v1/tables/:tableId/reports/daily': {
    access: ['inspector', 'supervisor'],
    url: () => `/api/v1/tables/${T}/reports/daily?date=${macauDate(Date.now())}`,
  },
};

/** What a caller should get from a route of this access. */
function expected(access: Access, caller: Caller): '2xx' | 401 | 403 {
  if (access === 'public') return '2xx';
  if (caller === 'anonymous' || caller === 'forged' || caller === 'expired') return 401;
  if (access === 'any' || access.includes(caller)) return '2xx';
  return 403;
}

interface World {
  readonly app: App;
  readonly store: Store;
  readonly fixture: Fixture;
  token(caller: Caller): Promise<string | undefined>;
}

/** A table with betting open and the player's bet `seed-bet` on it, and an idle second table. */
async function world(store: Store): Promise<World> {
  const app = await buildApp({ store, logger: false });
  const service = app.ctx.service;
  await service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
  await service.createTable({ ...simulatedTableSettings(IDLE), bettingTimerMs: null });
  await service.createTable({ ...simulatedTableSettings(LEVER), shaker: 'lever' });
  await service.createTable(simulatedTableSettings(HELD));
  await service.hold(HELD, { reason: 'fairness alert', article: '1.1', sinceMs: 0 }, []);
  const users = await seedRoles(store);
  const opening = [
    { type: 'cover' },
    { type: 'fasten-latches' },
    { type: 'trigger-shaker' },
    { type: 'open-betting' },
  ] as const;
  for (const command of opening) {
    const outcome = await service.execute({ tableId: T, command });
    if (!outcome.ok) throw new Error(`${command.type}: ${outcome.rejection.code}`);
  }
  const placed = await service.execute({
    tableId: T,
    command: {
      type: 'place-bet',
      betId: 'seed-bet',
      playerId: users.player.id,
      spot: 'big',
      stakeMinor: 1_000,
    },
  });
  if (!placed.ok) throw new Error(`seed bet: ${placed.rejection.code}`);
  let n = 0;
  const now = app.ctx.clock();
  const proposal = await app.fastify.inject({
    method: 'POST',
    url: `/api/v1/tables/${IDLE}/house-options/proposals`,
    headers: { authorization: `Bearer ${await sessionToken(store, users.supervisor, now)}` },
    payload: {
      proposalId: 'seed-proposal',
      options: { displayBoard: false },
      adoptionDate: isoDay(30),
    },
  });
  if (proposal.statusCode !== 201) throw new Error(`seed proposal: ${proposal.body}`);
  await store.transaction((tx) =>
    tx.registers.insertFlag({
      id: SEED_FLAG,
      rule: 'structuring',
      playerId: users.player.id,
      raisedAtMs: now,
      message: 'two deposits just below the threshold within 24 hours',
      details: { deposits: 2 },
      status: 'open',
      decidedBy: null,
      decidedAtMs: null,
      reason: null,
      journalSeqs: [1],
    }),
  );
  // Each caller asks for its own order's revocation (a second request is refused).
  const revocableIds = Array.from({ length: CALLERS.length + 2 }, (_, i) => `XR-${i + 1}`);
  for (const id of revocableIds) await app.ctx.people.recordExclusion(exclusion(id), 'test');
  const revocable = (): string => revocableIds.shift() ?? 'XR-none';
  return {
    app,
    store,
    fixture: {
      users,
      next: () => ++n,
      cashierSessionId: tokenHash(await sessionToken(store, users.cashier, now)),
      revocable,
    },
    async token(caller) {
      if (caller === 'anonymous') return undefined;
      if (caller === 'forged') return forgedToken();
      if (caller === 'expired') return sessionToken(store, users.player, now, { expired: true });
      return sessionToken(store, users[caller], now);
    },
  };
}

const routeKey = (route: { method: string; url: string }): string => `${route.method} ${route.url}`;

it("is the matrix docs/server.md shows: a row for every route, with each caller's answer", () => {
  const doc = readFileSync(new URL('../../docs/server.md', import.meta.url), 'utf8');
  const lines = doc.split('\n');
  const header = lines.find((l) => l.startsWith('| Method and path'))!;
  const callers = header
    .split('|')
    .slice(2, -1)
    .map((c) => c.trim());
  const documented: Record<string, string[]> = {};
  for (const line of lines) {
    const match = /^\| `((?:GET|POST|PUT|PATCH|DELETE) \/api\/[^`]+)`\s*\|(.*)\|$/.exec(line);
    if (match) documented[match[1]!] = match[2]!.split('|').map((c) => c.trim());
  }
  const answers = (access: Access): string[] =>
    callers.map((caller) => {
      if (access === 'public') return '✓';
      if (caller === 'anonymous') return '401';
      return access === 'any' || access.includes(caller as Role) ? '✓' : '403';
    });
  expect(documented).toEqual(
    Object.fromEntries(Object.entries(ROWS).map(([key, row]) => [key, answers(row.access)])),
  );
});

withStores('roles', (h) => {
  it('has a row for every route the app declares, and no row for a route it does not', async () => {
    const store = await h.open();
    const app = await buildApp({ store, logger: false });
    try {
      expect(app.ctx.routes.map(routeKey).sort()).toEqual(Object.keys(ROWS).sort());
      for (const spec of app.ctx.routes) expect(spec.roles).toEqual(ROWS[routeKey(spec)]!.access);
    } finally {
      await app.shutdown();
    }
  });

  describe.each(Object.entries(ROWS))('%s', (key, row) => {
    it('answers every caller as its roles say', async () => {
      const w = await world(await h.open());
      const [method] = key.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'];
      const wrong: string[] = [];
      try {
        for (const caller of CALLERS) {
          const token = await w.token(caller);
          const body = row.body?.(w.fixture);
          const response = await w.app.fastify.inject({
            method,
            url: row.url(w.fixture),
            headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
            ...(body === undefined ? {} : { payload: body as object }),
          });
          const want = expected(row.access, caller);
          const got = response.statusCode;
          const ok = want === '2xx' ? got >= 200 && got < 300 : got === want;
          if (!ok) wrong.push(`${caller}: wanted ${want}, got ${got} ${response.body}`);
          if (got >= 400) {
            const { error } = response.json<{ error: { code: string; message: string } }>();
            expect(typeof error.message).toBe('string');
            if (want === 401) expect(error.code).toBe('unauthenticated');
            if (want === 403) expect(error.code).toBe('forbidden');
          }
        }
      } finally {
        await w.app.shutdown();
      }
      expect(wrong).toEqual([]);
    });
  });

  it('lets a user who must change their password read what anybody may and themselves, change it and sign out: every other route is a 403', async () => {
    const w = await world(await h.open());
    const reached: string[] = [];
    try {
      const now = w.app.ctx.clock();
      const hash = await testPasswordHash();
      for (const user of Object.values(w.fixture.users))
        await w.store.transaction((tx) => tx.setUserPassword(user.id, hash, true));
      // Changing the password lifts the rule: asked last.
      const keys = Object.keys(ROWS).sort(
        (a, b) =>
          Number(a === 'POST /api/v1/me/password') - Number(b === 'POST /api/v1/me/password'),
      );
      for (const key of keys) {
        const row = ROWS[key]!;
        const [method] = key.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'];
        // A role the route lets in: only the password rule may refuse it.
        const role =
          row.access === 'public' || row.access === 'any' ? 'supervisor' : row.access[0]!;
        const token = await sessionToken(w.store, w.fixture.users[role], now);
        const body = row.body?.(w.fixture);
        const ask = (headers: Record<string, string>) =>
          w.app.fastify.inject({
            method,
            url: row.url(w.fixture),
            headers,
            ...(body === undefined ? {} : { payload: body as object }),
          });
        const response = await ask({ authorization: `Bearer ${token}` });
        if (response.statusCode === 403) {
          expect(response.json(), key).toMatchObject({
            error: { code: 'password_change_required' },
          });
          continue;
        }
        expect(response.statusCode, `${key}: ${response.body}`).toBeLessThan(300);
        reached.push(key);
        // What anybody may read, and no more: the answer an anonymous caller gets.
        if (row.access === 'public' && method === 'GET')
          expect(response.body, key).toBe((await ask({})).body);
      }
    } finally {
      await w.app.shutdown();
    }
    // docs/server.md, "Accounts", lists these.
    expect(reached.sort()).toEqual([
      'DELETE /api/v1/session',
      'GET /api/v1/me',
      'GET /api/v1/tables',
      'GET /api/v1/tables/:tableId',
      'POST /api/v1/me/password',
      'POST /api/v1/session',
    ]);
  });

  it('keeps the node-to-node route (a floor node) from every role: 404 without the node secret', async () => {
    const store = await h.open();
    const app = await buildApp({
      store,
      logger: false,
      node: { nodeUrl: () => 'http://127.0.0.1:9', nodeSecret: 'the-floor-secret' },
    });
    try {
      await app.ctx.service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
      const users = await seedRoles(store);
      for (const caller of CALLERS) {
        const token =
          caller === 'anonymous'
            ? undefined
            : caller === 'forged'
              ? forgedToken()
              : await sessionToken(
                  store,
                  users[caller === 'expired' ? 'player' : caller],
                  Date.now(),
                );
        const response = await app.fastify.inject({
          method: 'POST',
          url: FORWARD_PATH,
          headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
          payload: { commands: [{ tableId: T, command: { type: 'cover' } }] },
        });
        expect(response.statusCode, caller).toBe(404);
        expect(response.json(), caller).toMatchObject({ error: { code: 'not_found' } });
      }
      expect((await store.getTable(T))!.version).toBe(1);
    } finally {
      await app.shutdown();
    }
  });

  it('serves health, readiness, metrics and the OpenAPI document to everyone', async () => {
    const w = await world(await h.open());
    try {
      for (const url of ['/healthz', '/readyz', '/metrics', '/openapi.json']) {
        for (const caller of CALLERS) {
          const token = await w.token(caller);
          const response = await w.app.fastify.inject({
            url,
            headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
          });
          expect(response.statusCode, `${caller} ${url}`).toBe(200);
        }
      }
      const doc = (await w.app.fastify.inject({ url: '/openapi.json' })).json<{
        paths: Record<string, Record<string, unknown>>;
      }>();
      for (const spec of w.app.ctx.routes) {
        const path = spec.url.replace(/:([A-Za-z]+)/g, '{$1}');
        expect(doc.paths[path]?.[spec.method.toLowerCase()], routeKey(spec)).toBeDefined();
      }
    } finally {
      await w.app.shutdown();
    }
  });

  it("lets every session watch a table's socket, refuses dead tokens, and lets only players bet", async () => {
    const w = await world(await h.open());
    await w.app.fastify.ready();
    try {
      for (const caller of CALLERS) {
        const token = await w.token(caller);
        const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
        // Listening from the start: the hello may come before the open promise resolves.
        let messages: Record<string, unknown>[] = [];
        const connecting = w.app.fastify.injectWS(
          `/api/v1/tables/${T}/ws`,
          { headers },
          { onInit: (ws) => void (messages = collect(ws)) },
        );
        if (caller === 'forged' || caller === 'expired') {
          await expect(connecting, caller).rejects.toThrow(/401/);
          continue;
        }
        const socket = await connecting;
        await until(() => messages.some((m) => m['type'] === 'hello'));
        socket.send(
          JSON.stringify({
            type: 'place-bet',
            requestId: 'r1',
            betId: `ws-${caller}`,
            spot: 'small',
            stakeMinor: 1_000,
          }),
        );
        await until(() => messages.some((m) => m['requestId'] === 'r1'));
        const answer = messages.find((m) => m['requestId'] === 'r1')!;
        if (caller === 'player') expect(answer['type'], caller).toBe('ack');
        else expect(answer, caller).toMatchObject({ type: 'error', error: { code: 'forbidden' } });
        socket.send(
          JSON.stringify({ type: 'withdraw-bets', requestId: 'r2', betIds: [`ws-${caller}`] }),
        );
        await until(() => messages.some((m) => m['requestId'] === 'r2'));
        const cleared = messages.find((m) => m['requestId'] === 'r2')!;
        if (caller === 'player')
          expect(cleared, caller).toMatchObject({ type: 'batch-ack', results: [{ ok: true }] });
        else expect(cleared, caller).toMatchObject({ type: 'error', error: { code: 'forbidden' } });
        socket.terminate();
      }
    } finally {
      await w.app.shutdown();
    }
  });

  it("shows each role the seed bet's player and the staff-only entries as the visibility rules say", async () => {
    const w = await world(await h.open());
    await w.app.fastify.ready();
    await w.store.transaction((tx) => tx.appendJournal([sampleInput(T, 'fairness-alert-raised')]));
    const playerId = w.fixture.users.player.id;
    try {
      // Another player: the seed bet is not theirs, so they see its stake on its spot only.
      const [otherPlayer] = await seedUsers(w.store, 'player', 1, { prefix: 'other-player-' });
      for (const caller of [...ROLES, 'anonymous', 'another player'] as const) {
        const rule = VISIBILITY[caller];
        const token =
          caller === 'another player'
            ? await sessionToken(w.store, otherPlayer!, w.app.ctx.clock())
            : await w.token(caller);
        const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
        let messages: Record<string, unknown>[] = [];
        const socket = await w.app.fastify.injectWS(
          `/api/v1/tables/${T}/ws?after=0`,
          { headers },
          { onInit: (ws) => void (messages = collect(ws)) },
        );
        await until(() =>
          messages.some(
            (m) => (m['event'] as { type?: string } | undefined)?.type === 'bet-placed',
          ),
        );
        socket.terminate();
        expect(JSON.stringify(messages).includes(playerId), `${caller} socket`).toBe(rule.players);
        if (caller === 'anonymous') continue;
        const events = await w.app.fastify.inject({ url: `/api/v1/tables/${T}/events`, headers });
        expect(events.statusCode).toBe(200);
        expect(events.body.includes(playerId), `${caller} events`).toBe(rule.players);
        expect(events.body.includes('fairness-alert-raised'), `${caller} staff entries`).toBe(
          rule.staffEntries,
        );
      }
    } finally {
      await w.app.shutdown();
    }
  });
});

/** Who sees the seed bet's player (its own player, the supervisor, the inspector), and the staff-only entries. */
const VISIBILITY: Record<
  Role | 'anonymous' | 'another player',
  { players: boolean; staffEntries: boolean }
> = {
  player: { players: true, staffEntries: false },
  'another player': { players: false, staffEntries: false },
  croupier: { players: false, staffEntries: true },
  supervisor: { players: true, staffEntries: true },
  cashier: { players: false, staffEntries: false },
  inspector: { players: true, staffEntries: true },
  compliance: { players: false, staffEntries: false },
  anonymous: { players: false, staffEntries: false },
};

function collect(socket: WebSocket): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [];
  socket.on('message', (data: Buffer) => {
    messages.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>);
  });
  return messages;
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}
