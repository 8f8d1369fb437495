/**
 * End to end: `cussec serve` started as the real main job on a free port, with
 * a croupier, a cashier, a supervisor, an inspector and three players talking
 * to it over real HTTP and WebSockets. It plays a round with withdrawals and a
 * void roll (bets stand, Art. 3.4), checks the commitments, the settlement
 * against settle() and the wallets, resumes a socket after a reconnect, plays a
 * lever table, provokes every rejection code the API can give, then stops the
 * server with SIGTERM while bets are in flight: every acknowledged bet is in
 * the journal after a restart, and `cussec audit verify` passes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReveal } from '../src/dice/index.js';
import { DEFAULT_COMPILED, DEFAULT_PAYTABLE, type Dice, settle } from '../src/rules/index.js';
import { betResults, REJECTION_CODES, type RoundEvent } from '../src/table/index.js';
import { StandingBets } from '../src/service/round-snapshot.js';
import {
  type ErrorAnswer,
  errorCode,
  http,
  type HttpAnswer,
  type Message,
  SocketClient,
  sleep,
} from './server-harness.js';
import { freePort, ServeProcess } from './serve-process.js';

const ROOT = join(import.meta.dirname, '..');
const DEMO_PASSWORD = 'cussec-demo-1';
const T = 'T1';
const L = 'L1';

/** Every code a client can get from this API, and what provokes it below. */
const REACHABLE = [
  // The round machine (docs/table.md).
  'dome_not_covered',
  'dome_already_covered',
  'latches_not_fastened',
  'latches_already_fastened',
  'dice_not_shaken',
  'dice_already_shaken',
  'lever_pulls_incomplete',
  'betting_not_open',
  'betting_already_open',
  'betting_closed',
  'bell_not_rung',
  'dome_not_lifted',
  'dome_already_lifted',
  'roll_unresolved',
  'prizes_unpaid',
  'dice_already_known',
  'round_not_settled',
  'prizes_already_paid',
  'duplicate_bet_id',
  'unknown_spot',
  'spot_not_offered',
  'stake_below_min',
  'stake_above_max',
  'bets_per_round_exceeded',
  'unknown_bet',
  'not_bet_owner',
  'bet_stands_after_void',
  'shake_method_mismatch',
  'reading_method_mismatch',
  'invalid_dice',
  'liability_cap_exceeded',
  'table_mid_round',
  // The service, the ledger and the cage.
  'insufficient_funds',
  'idempotency_key_conflict',
  'unknown_table',
  'unknown_player',
  'table_exists',
  'invalid_table_settings',
  'username_taken',
  'weak_password',
  'password_change_required',
  // The HTTP layer.
  'invalid_credentials',
  'too_many_attempts',
  'unauthenticated',
  'forbidden',
  'not_found',
  'invalid_json',
  'invalid_request',
  'body_too_large',
  'unsupported_media_type',
  'upgrade_required',
];

/**
 * Codes of the round machine that the API cannot produce: its schemas refuse
 * a malformed command or stake first (invalid_request), and the service seals
 * the electronic roll itself.
 */
const UNREACHABLE_TABLE_CODES = [
  'malformed_command',
  'unknown_command',
  'invalid_stake',
  'invalid_sealed_roll',
];
/**
 * Codes a demonstration server does not give in this suite's rounds: its tables
 * carry a demonstration authorization (Art. 8), no severe fairness alert holds
 * them (Art. 1.1), and no supervisor closes them for play (Art. 2). Provoked
 * in-process: src/server/routes/compliance.test.ts, src/service/fairness.test.ts
 * and src/server/routes/tables-open.test.ts (and in Chromium, test/floor-web-e2e.test.ts).
 */
const TESTED_IN_PROCESS_TABLE_CODES = ['house_options_unauthorized', 'table_held', 'table_closed'];

/** `cussec serve --demo` on a fresh data folder, without a preset supervisor password. */
const startServer = (dataDir: string, port: number): Promise<ServeProcess> =>
  ServeProcess.start(
    ['--data', dataDir, '--port', String(port), '--demo'],
    { CUSSEC_LOG_LEVEL: 'warn', CUSSEC_SUPERVISOR_PASSWORD: undefined },
    30_000,
  );

let dir = '';
let port = 0;
let server: ServeProcess;
let base = '';
let wsBase = '';
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
/** Every error code the API answered with, over HTTP or a socket. */
const seen = new Set<string>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cussec-e2e-'));
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  wsBase = `ws://127.0.0.1:${port}`;
  server = await startServer(dir, port);
}, 60_000);

afterAll(async () => {
  if (server?.running) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** An HTTP call as `who` (a username, or undefined for nobody); records any error code. */
async function api(
  who: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<HttpAnswer> {
  const answer = await http(base, method, path, {
    token: who === undefined ? undefined : tokens[who],
    body,
    ...(headers ? { headers } : {}),
  });
  if (answer.status >= 400) seen.add(errorCode(answer));
  return answer;
}

/** Expects a refusal with this code. */
async function refused(answer: Promise<HttpAnswer>, code: string): Promise<HttpAnswer> {
  const got = await answer;
  expect(got.status, got.text).toBeGreaterThanOrEqual(400);
  expect(got.status).toBeLessThan(500);
  expect(errorCode(got), got.text).toBe(code);
  return got;
}

async function ok(answer: Promise<HttpAnswer>): Promise<HttpAnswer> {
  const got = await answer;
  expect(got.status, got.text).toBeLessThan(300);
  return got;
}

const command = (table: string, type: string, extra: object = {}): Promise<HttpAnswer> =>
  api('croupier', 'POST', `/api/v1/tables/${table}/commands`, { type, ...extra });

async function login(username: string, password: string): Promise<void> {
  const answer = await ok(api(undefined, 'POST', '/api/v1/session', { username, password }));
  const body = answer.body as { token: string; user: { id: string } };
  tokens[username] = body.token;
  ids[username] = body.user.id;
  expect(answer.headers.get('set-cookie')).toMatch(/^cussec_session=.*HttpOnly/);
}

/** A password somebody else chose is changed first; the change gives a fresh token. */
async function changePassword(username: string, current: string, next: string): Promise<void> {
  await refused(
    api(username, 'GET', '/api/v1/tables/T1/events?after=0&limit=1'),
    'password_change_required',
  );
  const answer = await ok(
    api(username, 'POST', '/api/v1/me/password', { currentPassword: current, newPassword: next }),
  );
  tokens[username] = (answer.body as { token: string }).token;
}

/** The answer to a socket request, with its error codes recorded. */
async function wsAnswer(client: SocketClient, requestId: string): Promise<Message> {
  const answer = await client.answer(requestId);
  if (answer.type === 'error') seen.add((answer['error'] as { code: string }).code);
  if (answer.type === 'batch-ack') {
    for (const r of answer['results'] as { error?: { code: string } }[])
      if (r.error) seen.add(r.error.code);
  }
  return answer;
}

async function wsRefused(client: SocketClient, message: Message, code: string): Promise<void> {
  client.send(message);
  const answer = await wsAnswer(client, message['requestId'] as string);
  expect(answer, JSON.stringify(message)).toMatchObject({ type: 'error', error: { code } });
}

const placeBet = (requestId: string, spot: string, stakeMinor: number, betId = requestId) => ({
  type: 'place-bet',
  requestId,
  betId,
  spot,
  stakeMinor,
});

async function balanceOf(who: string): Promise<number> {
  const me = await ok(api(who, 'GET', '/api/v1/me'));
  return (me.body as { wallet: { balanceMinor: number } }).wallet.balanceMinor;
}

describe('cussec serve, end to end', () => {
  it('gives a one-time supervisor password on first start and lets everyone log in', async () => {
    // Its output is a pipe, not a terminal: the password is in an owner-only file, never in the output.
    const line = await server.line((l) => l.includes('one-time password'));
    const file = /one-time password in (\S+)/.exec(line ?? '')?.[1];
    expect(file, server.lines.join('\n')).toBe(join(dir, 'first-supervisor-password'));
    const password = readFileSync(file!, 'utf8').trim();
    expect(server.lines.join('\n')).not.toContain(password);
    await refused(
      api(undefined, 'POST', '/api/v1/session', { username: 'supervisor', password: 'wrong!' }),
      'invalid_credentials',
    );
    // Guessing is slowed down: after five failures a username waits (src/server/login-throttle.ts).
    for (let i = 0; i < 5; i++) {
      await refused(
        api(undefined, 'POST', '/api/v1/session', { username: 'guessed', password: `pw${i}` }),
        'invalid_credentials',
      );
    }
    await refused(
      api(undefined, 'POST', '/api/v1/session', { username: 'guessed', password: 'pw5' }),
      'too_many_attempts',
    );
    await login('supervisor', password);
    await changePassword('supervisor', password, 'the supervisor now');
    for (const name of ['croupier', 'cashier', 'inspector', 'player1', 'player2'])
      await login(name, DEMO_PASSWORD);
    await refused(api(undefined, 'GET', '/api/v1/me'), 'unauthenticated');
    await refused(api('player1', 'GET', '/api/v1/users'), 'forbidden');
    const me = await ok(api('supervisor', 'GET', '/api/v1/me'));
    expect(me.body).toMatchObject({ user: { role: 'supervisor' }, wallet: null });
    expect(JSON.stringify(me.body)).not.toMatch(/passwordHash|scrypt/);
  });

  it('lets the supervisor make a player and the cashier fund and pay out wallets', async () => {
    const made = await ok(
      api('supervisor', 'POST', '/api/v1/users', {
        username: 'player3',
        password: 'player3-password',
        role: 'player',
        displayName: 'Player Three',
      }),
    );
    expect(made.status).toBe(201);
    await refused(
      api('supervisor', 'POST', '/api/v1/users', {
        username: 'PLAYER3',
        password: 'another-password',
        role: 'player',
      }),
      'username_taken',
    );
    await refused(
      api('supervisor', 'POST', '/api/v1/users', {
        username: 'p4',
        password: 'short',
        role: 'player',
      }),
      'weak_password',
    );
    await refused(
      api('supervisor', 'POST', '/api/v1/users', {
        username: 'p4',
        password: 'a long password',
        role: 'croupier-in-chief',
      }),
      'invalid_request',
    );
    await login('player3', 'player3-password');
    await changePassword('player3', 'player3-password', 'player3-own-password');
    // Instrução 1/2016: no money comes in for a player without an identity on record.
    await refused(
      api('cashier', 'POST', `/api/v1/players/${ids['player3']}/deposits`, { amountMinor: 20_000 }),
      'identity_missing',
    );
    await ok(
      api('cashier', 'PUT', `/api/v1/users/${ids['player3']}/identity`, {
        fullName: 'Player Three',
        documentType: 'passport',
        documentNumber: 'K3333333',
        issuingPlace: 'Lisboa',
        dateOfBirth: '1985-07-01',
        nationality: 'Portuguese',
      }),
    );
    const deposit = await ok(
      api(
        'cashier',
        'POST',
        `/api/v1/players/${ids['player3']}/deposits`,
        { amountMinor: 20_000 },
        {
          'idempotency-key': 'dep-p3',
        },
      ),
    );
    expect(deposit.body).toMatchObject({ balanceMinor: 20_000 });
    const retry = await ok(
      api(
        'cashier',
        'POST',
        `/api/v1/players/${ids['player3']}/deposits`,
        { amountMinor: 20_000 },
        {
          'idempotency-key': 'dep-p3',
        },
      ),
    );
    expect(retry.body).toEqual(deposit.body);
    await refused(
      api(
        'cashier',
        'POST',
        `/api/v1/players/${ids['player3']}/deposits`,
        { amountMinor: 1 },
        {
          'idempotency-key': 'dep-p3',
        },
      ),
      'idempotency_key_conflict',
    );
    const out = await ok(
      api('cashier', 'POST', `/api/v1/players/${ids['player1']}/withdrawals`, {
        amountMinor: 100_000,
      }),
    );
    expect(out.body).toMatchObject({ balanceMinor: 900_000 });
    await refused(
      api('cashier', 'POST', `/api/v1/players/${ids['player1']}/withdrawals`, {
        amountMinor: 10_000_000,
      }),
      'insufficient_funds',
    );
    await refused(
      api('cashier', 'POST', '/api/v1/players/u-nobody/deposits', { amountMinor: 1 }),
      'unknown_player',
    );
    await refused(
      api('cashier', 'POST', `/api/v1/players/${ids['croupier']}/deposits`, { amountMinor: 1 }),
      'unknown_player',
    );
    await refused(
      api('player1', 'POST', `/api/v1/players/${ids['player1']}/deposits`, { amountMinor: 1 }),
      'forbidden',
    );
    const players = await ok(api('cashier', 'GET', '/api/v1/players'));
    expect((players.body as unknown[]).length).toBe(3);
  });

  it('lets the supervisor set limits between rounds and make a lever table', async () => {
    const limits = await ok(
      api('supervisor', 'PATCH', `/api/v1/tables/${T}/limits`, {
        bettingTimerMs: null,
        stakeMinorMax: 50_000,
        liabilityMinorMax: 400_000,
      }),
    );
    expect(limits.body).toMatchObject({ bettingTimerMs: null, liabilityMinorMax: 400_000 });
    await refused(
      api('supervisor', 'PATCH', '/api/v1/tables/T9/limits', { stakeMinorMin: 2_000 }),
      'unknown_table',
    );
    await refused(api('supervisor', 'POST', '/api/v1/tables', { tableId: T }), 'table_exists');
    await refused(
      api('supervisor', 'POST', '/api/v1/tables', { tableId: 'BAD', stakeMinorMin: -1 }),
      'invalid_table_settings',
    );
    const spots = DEFAULT_PAYTABLE.spots.filter((s) => s !== 'any-triple');
    const lever = await ok(
      api('supervisor', 'POST', '/api/v1/tables', {
        tableId: L,
        name: 'Lever table',
        shaker: 'lever',
        bettingTimerMs: null,
        betsPerRoundMax: 2,
        paytable: { spots, totalOdds: DEFAULT_PAYTABLE.totalOdds },
      }),
    );
    expect(lever.status).toBe(201);
    const tables = await ok(api(undefined, 'GET', '/api/v1/tables'));
    expect((tables.body as { id: string }[]).map((t) => t.id).sort()).toEqual([L, T]);
    // The list carries each table's stake limits, as its view has them (the chooser shows them).
    for (const summary of tables.body as { id: string }[]) {
      const view = (await ok(api(undefined, 'GET', `/api/v1/tables/${summary.id}`))).body;
      expect(summary).toMatchObject({
        stakeMinorMin: (view as { stakeMinorMin: number }).stakeMinorMin,
        stakeMinorMax: (view as { stakeMinorMax: number }).stakeMinorMax,
      });
    }
    expect(tables.body).toContainEqual(expect.objectContaining({ id: T, stakeMinorMax: 50_000 }));
  });

  it('gives every HTTP-level refusal a code', async () => {
    await refused(api(undefined, 'GET', '/api/v1/nothing-here'), 'not_found');
    await refused(api(undefined, 'GET', `/api/v1/tables/${T}/ws`), 'upgrade_required');
    const bad = await http(base, 'POST', '/api/v1/session', { raw: '{oops' });
    seen.add(errorCode(bad));
    expect(errorCode(bad)).toBe('invalid_json');
    const huge = await http(base, 'POST', '/api/v1/session', { raw: 'x'.repeat(70_000) });
    seen.add(errorCode(huge));
    expect(errorCode(huge)).toBe('body_too_large');
    const form = await http(base, 'POST', '/api/v1/session', {
      raw: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    seen.add(errorCode(form));
    expect(errorCode(form)).toBe('unsupported_media_type');
  });

  it('plays a round with withdrawals, a void roll and payouts over sockets, and resumes a socket', async () => {
    const watcher = await SocketClient.connect(`${wsBase}/api/v1/tables/${T}/ws`);
    const p1 = await SocketClient.connect(`${wsBase}/api/v1/tables/${T}/ws`, tokens['player1']);
    let p2 = await SocketClient.connect(`${wsBase}/api/v1/tables/${T}/ws`, tokens['player2']);
    // The browser's way: the session cookie on the upgrade.
    const p3 = await SocketClient.connect(`${wsBase}/api/v1/tables/${T}/ws`, {
      cookie: `cussec_session=${tokens['player3']}`,
    });
    for (const [client, who] of [
      [watcher, null],
      [p1, 'player1'],
      [p2, 'player2'],
      [p3, 'player3'],
    ] as const) {
      const hello = await client.next((m) => m.type === 'hello');
      expect(hello['view']).toMatchObject({ id: T, phase: 'idle' });
      expect((hello['user'] as { username: string } | null)?.username ?? null).toBe(who);
    }
    const before = {
      player1: await balanceOf('player1'),
      player2: await balanceOf('player2'),
      player3: await balanceOf('player3'),
    };

    // Arts. 2.1: cover, latches, shake, then betting — each step out of order is refused.
    await refused(command(T, 'fasten-latches'), 'dome_not_covered');
    await ok(command(T, 'cover'));
    await refused(command(T, 'cover'), 'dome_already_covered');
    await refused(command(T, 'trigger-shaker'), 'latches_not_fastened');
    await refused(command(T, 'open-betting'), 'dice_not_shaken');
    await ok(command(T, 'fasten-latches'));
    await refused(command(T, 'fasten-latches'), 'latches_already_fastened');
    await wsRefused(p1, placeBet('early', 'small', 1_000), 'betting_not_open');
    await ok(command(T, 'trigger-shaker'));
    await refused(command(T, 'trigger-shaker'), 'dice_already_shaken');
    await refused(command(T, 'lift-dome'), 'bell_not_rung');
    const opened = await ok(command(T, 'open-betting'));
    expect((opened.body as { view: { phase: string } }).view.phase).toBe('betting');
    await refused(command(T, 'open-betting'), 'betting_already_open');
    await refused(command(T, 'reveal-dice'), 'dome_not_lifted');
    await refused(command(T, 'pay-all'), 'round_not_settled');
    await refused(
      api('supervisor', 'PATCH', `/api/v1/tables/${T}/limits`, { stakeMinorMin: 2_000 }),
      'table_mid_round',
    );
    await refused(
      api('player1', 'POST', `/api/v1/tables/${T}/commands`, { type: 'ring-bell' }),
      'forbidden',
    );

    // Every player sees betting open with the roll's commitment (Art. 2.1).
    const roll1 = await Promise.all([watcher, p1, p2, p3].map((c) => c.event('betting-opened')));
    const commitment1 = roll1[0]!.event['commitmentHex'] as string;
    expect(commitment1).toMatch(/^[0-9a-f]{64}$/);
    for (const r of roll1) expect(r.event['commitmentHex']).toBe(commitment1);

    // Bets over a socket, over HTTP and in a batch; withdrawals both ways.
    p1.send(placeBet('a1', 'small', 10_000));
    expect(await wsAnswer(p1, 'a1')).toMatchObject({
      type: 'ack',
      bet: { betId: 'a1', spot: 'small', stakeMinor: 10_000 },
      balanceMinor: before.player1 - 10_000,
    });
    const b1 = await ok(
      api('player2', 'POST', `/api/v1/tables/${T}/bets`, {
        betId: 'b1',
        spot: 'big',
        stakeMinor: 5_000,
      }),
    );
    expect(b1.status).toBe(201);
    p3.send({
      type: 'place-bets',
      requestId: 'c',
      bets: [
        { betId: 'c1', spot: 'total:10', stakeMinor: 2_000 },
        { betId: 'c2', spot: 'single:3', stakeMinor: 1_000 },
        { betId: 'c3', spot: 'double:2', stakeMinor: 1_000 },
      ],
    });
    const batch = await wsAnswer(p3, 'c');
    expect(batch).toMatchObject({ type: 'batch-ack', balanceMinor: before.player3 - 4_000 });
    expect((batch['results'] as { ok: boolean }[]).every((r) => r.ok)).toBe(true);
    p1.send(placeBet('a2', 'odd', 3_000));
    expect(await wsAnswer(p1, 'a2')).toMatchObject({ type: 'ack' });
    p1.send({ type: 'withdraw-bet', requestId: 'a2-out', betId: 'a2' });
    expect(await wsAnswer(p1, 'a2-out')).toMatchObject({
      type: 'ack',
      bet: { betId: 'a2' },
      balanceMinor: before.player1 - 10_000,
    });
    await ok(
      api('player2', 'POST', `/api/v1/tables/${T}/bets`, {
        betId: 'b2',
        spot: 'even',
        stakeMinor: 2_000,
      }),
    );
    await ok(api('player2', 'DELETE', `/api/v1/tables/${T}/bets/b2`));

    // The refusals of Art. 5, the liability cap and the wallet.
    await wsRefused(p1, placeBet('d1', 'big', 1_000, 'a1'), 'duplicate_bet_id');
    await wsRefused(p1, placeBet('d2', 'big', 500), 'stake_below_min');
    await wsRefused(p1, placeBet('d3', 'small', 45_000), 'stake_above_max');
    await wsRefused(p1, placeBet('d4', 'triple:6', 20_000), 'liability_cap_exceeded');
    await wsRefused(p3, placeBet('d5', 'lucky', 1_000), 'unknown_spot');
    await wsRefused(p3, placeBet('d6', 'big', 20_000), 'insufficient_funds');
    await refused(api('player2', 'DELETE', `/api/v1/tables/${T}/bets/a1`), 'not_bet_owner');
    await refused(api('player2', 'DELETE', `/api/v1/tables/${T}/bets/nope`), 'unknown_bet');
    const exposure = await ok(api('croupier', 'GET', `/api/v1/tables/${T}/exposure`));
    const worst = (exposure.body as { worstCase: { houseLossMinor: number } }).worstCase;
    expect(worst.houseLossMinor).toBeLessThanOrEqual(400_000);

    // Art. 3.1: the bell ends betting.
    await ok(command(T, 'ring-bell'));
    await Promise.all([watcher, p1, p2, p3].map((c) => c.event('bell-rung')));
    await wsRefused(p1, placeBet('late', 'big', 1_000), 'betting_closed');
    await refused(command(T, 'ring-bell'), 'betting_closed');
    await ok(command(T, 'lift-dome'));
    await refused(command(T, 'lift-dome'), 'dome_already_lifted');
    await refused(command(T, 'cover'), 'roll_unresolved');

    // Art. 3.3: a stacked roll is void and its seal opened; Art. 3.4: the bets stand.
    await ok(command(T, 'void-roll', { reason: 'stacked' }));
    const voided = await p1.event('roll-voided');
    const seal = voided.event['voidedRoll'] as {
      dice: Dice;
      nonceHex: string;
      commitmentHex: string;
    };
    expect(seal.commitmentHex).toBe(commitment1);
    expect(verifyReveal({ tableId: T, roundNo: 1, rollNo: 1, ...seal }).ok).toBe(true);
    await ok(command(T, 'cover'));
    await ok(command(T, 'fasten-latches'));
    await ok(command(T, 'trigger-shaker'));
    await ok(command(T, 'open-betting'));
    const roll2 = await p2.event('betting-opened');
    expect(roll2.event['rollNo']).toBe(2);
    const commitment2 = roll2.event['commitmentHex'] as string;
    expect(commitment2).not.toBe(commitment1);
    // Player 2 sees its own standing bet in full and the others' as stakes by spot.
    const standing = roll2.event['standingBets'] as { betId: string; playerId?: string }[];
    expect(standing.map((b) => b.betId).sort()).toEqual(['a1', 'b1', 'c1', 'c2', 'c3']);
    expect(standing.filter((b) => b.playerId !== undefined).map((b) => b.betId)).toEqual(['b1']);
    p1.send({ type: 'withdraw-bet', requestId: 'w-a1', betId: 'a1' });
    expect(await wsAnswer(p1, 'w-a1')).toMatchObject({
      error: { code: 'bet_stands_after_void', article: '3.4' },
    });
    p2.send(placeBet('b3', 'total:9', 1_000));
    expect(await wsAnswer(p2, 'b3')).toMatchObject({ type: 'ack' });
    await ok(command(T, 'ring-bell'));

    // Player 2 drops off; the round goes on; it comes back with ?after= and misses nothing.
    const lastSeen = (await p2.event('bell-rung')).seq;
    p2.close();
    await p2.closed;
    await ok(command(T, 'lift-dome'));
    const revealed = await ok(command(T, 'reveal-dice'));
    await refused(command(T, 'reveal-dice'), 'dice_already_known');
    await refused(command(T, 'cover'), 'prizes_unpaid');
    expect((revealed.body as { view: { phase: string } }).view.phase).toBe('revealed');
    const settled = await watcher.event('round-settled');
    for (const client of [p1, p3]) {
      expect((await client.event('dice-revealed')).event['nonceHex']).toMatch(/^[0-9a-f]{64}$/);
      expect((await client.event('round-settled')).event['winningSpots']).toEqual(
        settled.event['winningSpots'],
      );
    }
    p2 = await SocketClient.connect(
      `${wsBase}/api/v1/tables/${T}/ws?after=${lastSeen}`,
      tokens['player2'],
    );
    await p2.event('round-settled');
    const missed = watcher.events().filter((e) => e.seq > lastSeen && e.seq <= settled.seq);
    expect(p2.events()).toEqual(missed);
    expect(missed.map((e) => e.event.type)).toEqual([
      'dome-lifted',
      'dice-revealed',
      'round-settled',
    ]);

    // The reveal opens the commitment published before any bet (Art. 2.1).
    const reveal = missed[1]!.event as unknown as {
      dice: Dice;
      nonceHex: string;
      commitmentHex: string;
    };
    expect(reveal.commitmentHex).toBe(commitment2);
    const check = verifyReveal({ tableId: T, roundNo: 1, rollNo: 2, ...reveal });
    expect(check.ok).toBe(true);

    // The settlement is settle() of the standing bets; the winning spots are lit (Art. 3.2).
    // Its returns are aligned with the standing bets, as the watcher saw them placed.
    const placed = new StandingBets();
    for (const e of watcher.events()) placed.apply(e.event as unknown as RoundEvent);
    const record = settled.event as unknown as Extract<RoundEvent, { type: 'round-settled' }>;
    expect(record.dice).toEqual(reveal.dice);
    expect(record.winningSpots.length).toBeGreaterThan(0);
    const expected = settle(DEFAULT_COMPILED, record.dice, placed.list);
    expect(record.returnsMinor).toEqual(expected.map((r) => r.returnedMinor));
    const results = betResults(placed.list, record);
    expect(results.map((r) => r.betId).sort()).toEqual(['a1', 'b1', 'b3', 'c1', 'c2', 'c3']);

    // Art. 4: pay every prize; every socket, the resumed one too, sees it once.
    await ok(command(T, 'pay-all'));
    await refused(command(T, 'pay-all'), 'prizes_already_paid');
    const paid = await Promise.all([watcher, p1, p2, p3].map((c) => c.event('prizes-paid')));
    expect(paid[0]!.event).toMatchObject({
      payoutCount: results.filter((r) => r.returnedMinor > 0).length,
      totalReturnedMinor: record.totalReturnedMinor,
    });
    for (const client of [watcher, p1, p2, p3]) {
      const seqs = client.events().map((e) => e.seq);
      expect(new Set(seqs).size, 'no event twice').toBe(seqs.length);
    }
    const returned = (who: string): number =>
      results
        .filter((r) => ['a', 'b', 'c'][Number(who.at(-1)) - 1] === r.betId[0])
        .reduce((s, r) => s + r.returnedMinor - r.stakeMinor, 0);
    for (const who of ['player1', 'player2', 'player3'] as const)
      expect(await balanceOf(who), who).toBe(before[who] + returned(who));
    const mine = await ok(api('player1', 'GET', `/api/v1/tables/${T}/my-bets`));
    expect(mine.body).toMatchObject({
      roundNo: 1,
      bets: [{ betId: 'a1', winMinor: expect.any(Number) as number }],
    });

    // What the inspector sees of it.
    const recall = await ok(api('inspector', 'GET', `/api/v1/tables/${T}/recall?rounds=1`));
    const recalled = (recall.body as { rolls: { voided: unknown }[]; status: string }[])[0]!;
    expect(recalled.status).toBe('paid');
    expect(recalled.rolls.map((r) => r.voided !== null)).toEqual([true, false]);
    await ok(api('inspector', 'GET', `/api/v1/tables/${T}/fairness`));
    const verified = await ok(api('inspector', 'GET', '/api/v1/journal/verify'));
    expect(verified.body).toMatchObject({ ok: true });
    for (const client of [watcher, p1, p2, p3]) client.close();
  });

  it('plays a lever table with a restricted layout (Arts. 1.2, 2.1, 3.2, 8)', async () => {
    const p1 = await SocketClient.connect(`${wsBase}/api/v1/tables/${L}/ws`, tokens['player1']);
    await p1.next((m) => m.type === 'hello');
    await refused(command(L, 'trigger-shaker'), 'shake_method_mismatch');
    await ok(command(L, 'cover'));
    await ok(command(L, 'fasten-latches'));
    await ok(command(L, 'pull-lever'));
    await refused(command(L, 'open-betting'), 'lever_pulls_incomplete');
    await ok(command(L, 'pull-lever'));
    await ok(command(L, 'pull-lever'));
    await ok(command(L, 'open-betting'));
    await wsRefused(p1, placeBet('l0', 'any-triple', 1_000), 'spot_not_offered');
    p1.send(placeBet('l1', 'small', 1_000));
    await wsAnswer(p1, 'l1');
    await ok(
      api('player2', 'POST', `/api/v1/tables/${L}/bets`, {
        betId: 'l2',
        spot: 'big',
        stakeMinor: 1_000,
      }),
    );
    await refused(
      api('player2', 'POST', `/api/v1/tables/${L}/bets`, {
        betId: 'l3',
        spot: 'big',
        stakeMinor: 1_000,
      }),
      'bets_per_round_exceeded',
    );
    await ok(command(L, 'ring-bell'));
    await ok(command(L, 'lift-dome'));
    await refused(command(L, 'reveal-dice'), 'reading_method_mismatch');
    await refused(command(L, 'read-dice', { dice: [7, 1, 1] }), 'invalid_dice');
    await ok(command(L, 'read-dice', { dice: [1, 2, 3] }));
    const settled = await p1.event('round-settled');
    expect(settled.event['dice']).toEqual([1, 2, 3]);
    await ok(command(L, 'pay-all'));
    await p1.event('prizes-paid');
    p1.close();
  });

  it('has given every rejection code the API can give', () => {
    const table = new Set<string>(REJECTION_CODES);
    for (const code of REACHABLE) expect(seen, code).toContain(code);
    // One spelling for every code the API answered, without exception (docs/api.md).
    expect([...seen].filter((code) => !/^[a-z][a-z0-9_]*$/.test(code))).toEqual([]);
    // A new code of the round machine must be provoked here or listed as unreachable.
    for (const code of table)
      expect(
        [...REACHABLE, ...UNREACHABLE_TABLE_CODES, ...TESTED_IN_PROCESS_TABLE_CODES],
        code,
      ).toContain(code);
  });

  it('stops on SIGTERM with bets in flight and loses none it acknowledged', async () => {
    // Room for many bets: the limits of the first round would refuse most of them.
    await ok(
      api('supervisor', 'PATCH', `/api/v1/tables/${T}/limits`, {
        stakeMinorMax: 1_000_000,
        liabilityMinorMax: 500_000_000,
      }),
    );
    for (const type of ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'])
      await ok(command(T, type));
    const acked = new Set<string>();
    const players = ['player1', 'player2', 'player3'];
    const sockets = await Promise.all(
      players.map((p) => SocketClient.connect(`${wsBase}/api/v1/tables/${T}/ws`, tokens[p])),
    );
    sockets.forEach((socket, i) =>
      socket.socket.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString('utf8')) as Message;
        if (m.type === 'ack') acked.add(`${players[i]}/${(m['bet'] as { betId: string }).betId}`);
        if (m.type === 'error') seen.add((m['error'] as { code: string }).code);
      }),
    );
    let stop = false;
    const codes: string[] = [];
    const bettors = sockets.map(async (socket, i) => {
      for (let n = 0; !stop && socket.socket.readyState === socket.socket.OPEN; n++) {
        socket.send(placeBet(`s${i}-${n}`, n % 2 ? 'small' : 'big', 1_000));
        await sleep(25);
      }
    });
    const httpBettor = (async () => {
      for (let n = 0; !stop; n++) {
        try {
          const answer = await http(base, 'POST', `/api/v1/tables/${T}/bets`, {
            token: tokens['player2'],
            body: { betId: `h-${n}`, spot: 'odd', stakeMinor: 1_000 },
          });
          if (answer.status === 201) acked.add(`player2/h-${n}`);
          else if (answer.status === 503) codes.push((answer.body as ErrorAnswer).error.code);
          else codes.push(errorCode(answer));
        } catch {
          codes.push('connection closed');
          return;
        }
      }
    })();
    await sleep(400);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    stop = true;
    await Promise.all([...bettors, httpBettor]);
    for (const socket of sockets) expect((await socket.closed).code).toBe(1001);
    expect(server.output).toMatch(/Shutting down/);
    for (const code of codes) expect(['shutting_down', 'connection closed']).toContain(code);
    codes.forEach((c) => seen.add(c));
    expect(acked.size).toBeGreaterThan(10);

    // After a restart, the journal holds every bet that was acknowledged.
    server = await startServer(dir, port);
    await server.line((l) => l.startsWith('Demo users'));
    expect(server.output).not.toMatch(/one-time password/);
    // The inspector sees every bet with its player (a player sees others' by spot only).
    await login('inspector', DEMO_PASSWORD);
    const placed = new Set<string>();
    for (let after = 0; ;) {
      const page = await ok(
        api('inspector', 'GET', `/api/v1/tables/${T}/events?after=${after}&limit=1000`),
      );
      const entries = page.body as {
        seq: number;
        payload: { type: string; bet?: { betId: string; playerId: string } };
      }[];
      for (const e of entries)
        if (e.payload.type === 'bet-placed')
          placed.add(`${e.payload.bet!.playerId}/${e.payload.bet!.betId}`);
      if (entries.length < 1000) break;
      after = entries.at(-1)!.seq;
    }
    const byId = (key: string): string => {
      const [who, betId] = key.split('/');
      return `${ids[who!]}/${betId}`;
    };
    const lost = [...acked].filter((key) => !placed.has(byId(key)));
    expect(lost).toEqual([]);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('leaves a database that `cussec audit verify` passes', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'audit', 'verify', '--db', join(dir, 'cussec.db')],
      { cwd: ROOT },
    );
    expect(stdout).toMatch(/audit passed/);
  });
});
