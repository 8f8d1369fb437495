/**
 * What the API answers about money, and how it refuses, in process: an
 * idempotency key is its caller's, a bet's receipt shows the balance right
 * after that bet, the round's own refusals come before the liability cap,
 * minor units are whole, and every refusal (fastify's own included) has the
 * API's one shape, is logged as the client's mistake it is, and is sent once.
 */
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { type Role, type Store, type User, walletAccount } from '../ledger/index.js';
import { withStores } from '../ledger/testing.js';
import { simulatedTableSettings } from '../service/table-settings.js';
import { type App, buildApp } from './app.js';
import { serverMessage } from './schemas.js';
import { seedRoles, seedUsers, sessionToken } from './testing.js';

const T = 'T1';
const FUND_MINOR = 1_000_000;
const OPEN = ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'] as const;

interface Setup {
  readonly app: App;
  readonly store: Store;
  readonly users: Awaited<ReturnType<typeof seedRoles>>;
  readonly token: (user: User) => Promise<string>;
  readonly lines: string[];
}

async function setup(store: Store): Promise<Setup> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildApp({ store, logger: { level: 'info', stream } });
  await app.ctx.service.createTable({ ...simulatedTableSettings(T), bettingTimerMs: null });
  const users = await seedRoles(store);
  await app.fastify.ready();
  return {
    app,
    store,
    users,
    token: (user) => sessionToken(store, user, app.ctx.clock()),
    lines,
  };
}

async function openBetting(app: App): Promise<void> {
  for (const type of OPEN) {
    const outcome = await app.ctx.service.execute({ tableId: T, command: { type } as never });
    if (!outcome.ok) throw new Error(`${type}: ${outcome.rejection.code}`);
  }
}

async function call(
  app: App,
  token: string | undefined,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  const answer = await app.fastify.inject({
    method,
    url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: answer.statusCode, body: answer.json<Record<string, unknown>>() };
}

const codeOf = (answer: { body: Record<string, unknown> }): unknown =>
  (answer.body['error'] as { code?: unknown } | undefined)?.code;

withStores('money answers', (h) => {
  it("keeps an idempotency key to its caller: two cashiers' same key are two deposits", async () => {
    const { app, store, users, token } = await setup(await h.open());
    const [second] = await seedUsers(store, 'cashier', 1, { prefix: 'second-cashier' });
    const url = `/api/v1/players/${users.player.id}/deposits`;
    const key = { 'idempotency-key': 'shift-1-deposit-1' };
    const first = await call(
      app,
      await token(users.cashier),
      'POST',
      url,
      { amountMinor: 5_000 },
      key,
    );
    const other = await call(app, await token(second!), 'POST', url, { amountMinor: 5_000 }, key);
    expect(first).toMatchObject({ status: 200, body: { balanceMinor: FUND_MINOR + 5_000 } });
    expect(other).toMatchObject({ status: 200, body: { balanceMinor: FUND_MINOR + 10_000 } });
    expect(other.body['transferId']).not.toBe(first.body['transferId']);
    // The first cashier's retry is still a retry: its first answer, and no money moves.
    const retry = await call(
      app,
      await token(users.cashier),
      'POST',
      url,
      { amountMinor: 5_000 },
      key,
    );
    expect(retry).toEqual(first);
    const wallet = await store.getAccount(walletAccount(users.player.id).id);
    expect(wallet?.balanceMinor).toBe(FUND_MINOR + 10_000);
    await app.shutdown();
  });

  it('answers each bet of one commit with the balance right after it, in ledger order', async () => {
    const { app, users, token } = await setup(await h.open());
    await openBetting(app);
    const stakes = [1_000, 2_000, 3_000, 4_000, 5_000];
    // Queued in one turn: one group commit.
    const outcomes = await Promise.all(
      stakes.map((stakeMinor, i) =>
        app.ctx.service.execute({
          tableId: T,
          command: {
            type: 'place-bet',
            betId: `s${i}`,
            playerId: users.player.id,
            spot: 'small',
            stakeMinor,
          },
          idempotencyKey: `k${i}`,
        }),
      ),
    );
    let expected = FUND_MINOR;
    outcomes.forEach((outcome, i) => {
      expected -= stakes[i]!;
      expect(outcome).toMatchObject({ ok: true, balanceMinor: expected });
    });
    // A retry answers what the first answer said, not the balance now.
    const retry = await app.ctx.service.execute({
      tableId: T,
      command: {
        type: 'place-bet',
        betId: 's0',
        playerId: users.player.id,
        spot: 'small',
        stakeMinor: 1_000,
      },
      idempotencyKey: 'k0',
    });
    expect(retry).toMatchObject({ ok: true, balanceMinor: FUND_MINOR - 1_000 });

    // Over HTTP, bets in flight together: each receipt has its own balance, in seq order.
    const playerToken = await token(users.player);
    const receipts = await Promise.all(
      stakes.map((stakeMinor, i) =>
        call(app, playerToken, 'POST', `/api/v1/tables/${T}/bets`, {
          betId: `h${i}`,
          spot: 'big',
          stakeMinor,
        }),
      ),
    );
    const bySeq = receipts.map(
      (r) => r.body as { seq: number; balanceMinor: number; bet: { stakeMinor: number } },
    );
    bySeq.sort((a, b) => a.seq - b.seq);
    for (const receipt of bySeq) {
      expected -= receipt.bet.stakeMinor;
      expect(receipt.balanceMinor).toBe(expected);
    }

    // Over the socket, bets sent at once: each ack has its own balance, in seq order.
    const acks: Record<string, unknown>[] = [];
    const socket: WebSocket = await app.fastify.injectWS(
      `/api/v1/tables/${T}/ws`,
      { headers: { authorization: `Bearer ${playerToken}` } },
      {
        onInit: (ws) =>
          ws.on('message', (d: Buffer) => {
            const m = JSON.parse(d.toString('utf8')) as Record<string, unknown>;
            // Every message fits the schema the web app's types come from.
            serverMessage.parse(m);
            if (m['type'] === 'ack') acks.push(m);
          }),
      },
    );
    stakes.forEach((stakeMinor, i) =>
      socket.send(
        JSON.stringify({
          type: 'place-bet',
          requestId: `w${i}`,
          betId: `w${i}`,
          spot: 'odd',
          stakeMinor,
        }),
      ),
    );
    for (let waited = 0; acks.length < stakes.length && waited < 5_000; waited += 5)
      await new Promise((r) => setTimeout(r, 5));
    acks.sort((a, b) => (a['seq'] as number) - (b['seq'] as number));
    for (const ack of acks) {
      expected -= (ack['bet'] as { stakeMinor: number }).stakeMinor;
      expect(ack['balanceMinor']).toBe(expected);
    }
    expect(acks).toHaveLength(stakes.length);
    socket.terminate();
    await app.shutdown();
  });

  it("refuses by the round's own rules before the liability cap", async () => {
    const { app, users, token } = await setup(await h.open());
    // A cap that one large bet on a triple exceeds.
    await app.ctx.service.changeLimits(T, { liabilityMinorMax: 10_000_000 }, users.supervisor.id);
    const playerToken = await token(users.player);
    const bet = (betId: string, stakeMinor: number) =>
      call(app, playerToken, 'POST', `/api/v1/tables/${T}/bets`, {
        betId,
        spot: 'triple:1',
        stakeMinor,
      });
    // Idle: betting is not open (Art. 2.1), whatever the stake.
    for (const [betId, stakeMinor] of [
      ['i1', 1_000],
      ['i2', 900_000],
      ['i3', Number.MAX_SAFE_INTEGER],
    ] as const) {
      const answer = await bet(betId, stakeMinor);
      expect(answer.status, betId).toBe(409);
      expect(answer.body, betId).toMatchObject({
        error: { code: 'betting_not_open', article: '2.1' },
      });
    }
    await openBetting(app);
    // Open: a stake over the table's maximum is that (Art. 5), not a liability.
    expect(await bet('o1', Number.MAX_SAFE_INTEGER)).toMatchObject({
      status: 409,
      body: { error: { code: 'stake_above_max', article: '5' } },
    });
    // Within the limits but over the cap: the cap refuses it.
    expect(codeOf(await bet('o2', 1_000_000))).toBe('liability_cap_exceeded');
    await app.shutdown();
  });

  it("offers the floor's limits change as the round machine does: between rounds only", async () => {
    const { app, users, token } = await setup(await h.open());
    const supervisorToken = await token(users.supervisor);
    const allowed = async () => {
      const floor = await call(app, supervisorToken, 'GET', '/api/v1/floor');
      const tables = floor.body['tables'] as { id: string; limitsChangeAllowed: boolean }[];
      return tables.find((t) => t.id === T)?.limitsChangeAllowed;
    };
    expect(await allowed()).toBe(true);
    await openBetting(app);
    expect(await allowed()).toBe(false);
    const refused = await call(app, supervisorToken, 'PATCH', `/api/v1/tables/${T}/limits`, {
      stakeMinorMin: 2_000,
    });
    expect(codeOf(refused)).toBe('table_mid_round');
    await app.shutdown();
  });

  it('answers the expected house gain in whole minor units', async () => {
    const { app, users, token } = await setup(await h.open());
    await openBetting(app);
    const playerToken = await token(users.player);
    for (const [betId, spot, stakeMinor] of [
      ['e1', 'small', 1_000],
      ['e2', 'triple:1', 1_001],
      ['e3', 'total:4', 1_003],
    ] as const)
      expect(
        (
          await call(app, playerToken, 'POST', `/api/v1/tables/${T}/bets`, {
            betId,
            spot,
            stakeMinor,
          })
        ).status,
      ).toBe(201);
    const exposure = await call(
      app,
      await token(users.supervisor),
      'GET',
      `/api/v1/tables/${T}/exposure`,
    );
    expect(exposure.status).toBe(200);
    const gain = exposure.body['expectedHouseGainMinor'];
    const exact = app.ctx.service
      .snapshot(T)
      .then((s) => s!.book.exposure().expectedHouseGainMinor);
    expect(Number.isInteger(await exact)).toBe(false);
    expect(gain).toBe(Math.round(await exact));
    await app.shutdown();
  });
});

withStores('api answers', (h) => {
  it('answers every refusal, fastify’s own included, in the one error shape', async () => {
    const { app, users, token } = await setup(await h.open());
    const supervisor = await token(users.supervisor);
    const badUrl = await call(app, supervisor, 'GET', '/api/v1/tables/%ZZ');
    expect(badUrl.status).toBe(400);
    expect(Object.keys(badUrl.body)).toEqual(['error']);
    expect(Object.keys(badUrl.body['error'] as object)).toEqual(['code', 'message']);
    expect(codeOf(badUrl)).toBe('invalid_request');
    const plain = await call(app, supervisor, 'POST', '/api/v1/tables', 'tableId=T2', {
      'content-type': 'text/plain',
    });
    expect(plain.status).toBe(415);
    expect(codeOf(plain)).toBe('unsupported_media_type');
    for (const date of ['9999-12-31', '0001-01-01']) {
      const report = await call(
        app,
        supervisor,
        'GET',
        `/api/v1/tables/${T}/reports/daily?date=${date}`,
      );
      expect(report.status, date).toBe(400);
      expect(codeOf(report), date).toBe('invalid_request');
    }
    await app.shutdown();
  });

  it('refuses unknown query parameters on every route, the operations routes included', async () => {
    const { app, users, token } = await setup(await h.open());
    // Every GET route the API declares, called by a role it admits, with the query it needs.
    const needed: Record<string, string> = {
      '/api/v1/tables/:tableId/recall': 'rounds=1&',
      '/api/v1/tables/:tableId/reports/daily': 'date=2026-12-01&',
      '/api/v1/reports/daily': 'date=2026-12-01&',
      '/api/v1/large-transactions': 'from=2026-12-01&to=2026-12-01&',
    };
    const paths = app.ctx.routes
      .filter((route) => route.method === 'GET')
      .map((route) => {
        const role: Role = typeof route.roles === 'string' ? 'supervisor' : route.roles[0]!;
        const path = route.url
          .replace(':tableId', T)
          .replace(':userId', users.player.id)
          .replace(':playerId', users.player.id)
          .replace(':flagId', 'F1')
          .replace(':proposalId', 'P1');
        return [role, `${path}?${needed[route.url] ?? ''}`] as const;
      });
    expect(paths.map(([, path]) => path)).toEqual(
      expect.arrayContaining(['/api/v1/me?', '/api/v1/tables?', '/api/v1/journal/verify?']),
    );
    const operations = [
      '/healthz',
      '/readyz',
      '/metrics',
      '/openapi.json',
      `/api/v1/tables/${T}/ws`,
    ];
    for (const [role, path] of [
      ...paths,
      ...operations.map((path) => ['player', `${path}?`] as const),
    ]) {
      const answer = await call(app, await token(users[role]), 'GET', `${path}unknown=1`);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toEqual({
        error: { code: 'invalid_request', message: 'query: Unrecognized key: "unknown"' },
      });
    }
    await app.shutdown();
  });

  it('refuses an unknown table field as malformed, and min above max with 400 everywhere', async () => {
    const { app, users, token } = await setup(await h.open());
    const supervisor = await token(users.supervisor);
    const unknown = await call(app, supervisor, 'POST', '/api/v1/tables', {
      tableId: 'T2',
      colour: 'red',
    });
    expect(unknown.status).toBe(400);
    expect(codeOf(unknown)).toBe('invalid_request');
    const limits = { stakeMinorMin: 5_000, stakeMinorMax: 1_000 };
    const created = await call(app, supervisor, 'POST', '/api/v1/tables', {
      tableId: 'T3',
      ...limits,
    });
    const patched = await call(app, supervisor, 'PATCH', `/api/v1/tables/${T}/limits`, limits);
    for (const answer of [created, patched]) {
      expect(answer.status).toBe(400);
      expect(codeOf(answer)).toBe('invalid_table_settings');
    }
    await app.shutdown();
  });

  it('echoes a socket requestId only when it is a string or a number', async () => {
    const { app, users, token } = await setup(await h.open());
    const errors: Record<string, unknown>[] = [];
    const socket: WebSocket = await app.fastify.injectWS(
      `/api/v1/tables/${T}/ws`,
      { headers: { authorization: `Bearer ${await token(users.player)}` } },
      {
        onInit: (ws) =>
          ws.on('message', (d: Buffer) => {
            const m = JSON.parse(d.toString('utf8')) as Record<string, unknown>;
            serverMessage.parse(m);
            if (m['type'] === 'error') errors.push(m);
          }),
      },
    );
    const bet = { type: 'place-bet', betId: 'b1', spot: 'small', stakeMinor: 1_000 };
    for (const requestId of [{ a: 1 }, ['x'], true, 7])
      socket.send(JSON.stringify({ ...bet, requestId }));
    for (let waited = 0; errors.length < 4 && waited < 5_000; waited += 5)
      await new Promise((r) => setTimeout(r, 5));
    expect(errors.map((e) => e['requestId'])).toEqual([null, null, null, '7']);
    for (const e of errors) expect(e).toMatchObject({ error: { code: 'invalid_request' } });
    socket.terminate();
    await app.shutdown();
  });

  it("logs a client's mistakes at info or warn, and sends each answer once", async () => {
    const { app, users, token, lines } = await setup(await h.open());
    const supervisor = await token(users.supervisor);
    const holidays = await call(app, supervisor, 'POST', '/api/v1/holidays', { year: 1 });
    expect(holidays.status).toBe(400);
    expect(codeOf(holidays)).toBe('holiday_list_invalid');
    for (const format of ['csv', 'html']) {
      const answer = await app.fastify.inject({
        url: `/api/v1/tables/${T}/reports/daily?date=2026-12-01&format=${format}`,
        headers: { authorization: `Bearer ${supervisor}` },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toContain(format === 'csv' ? 'text/csv' : 'text/html');
    }
    let closed = false;
    const socket: WebSocket = await app.fastify.injectWS(
      `/api/v1/tables/${T}/ws`,
      {},
      { onInit: (ws) => ws.on('close', () => (closed = true)) },
    );
    // A text frame that is not UTF-8: ws refuses it and closes the socket.
    socket.send(Buffer.from([0xff, 0xfe, 0xfd]), { binary: false });
    for (let waited = 0; !closed && waited < 5_000; waited += 5)
      await new Promise((r) => setTimeout(r, 5));
    expect(closed).toBe(true);
    await app.shutdown();
    const logged = lines.map((l) => JSON.parse(l) as { level: number; msg?: string });
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.join('\n')).not.toContain('already sent');
    expect(logged.some((l) => l.msg === 'websocket client sent a bad frame')).toBe(true);
  });
});
