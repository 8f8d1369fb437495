/**
 * ws-players: N WebSocket players on one table of the real server (buildApp
 * on a SQLite file on disk, listening on a loopback port), for N = 1,000 and
 * 5,000 (BENCH_WS_PLAYERS=1000,5000).
 *
 * The server runs in this process; the N clients run in a child process (this
 * file again, forked with --ws-players-client), so each side has a core of the
 * two. Both stamp times with process.hrtime, the system's monotonic clock,
 * so the two processes' stamps compare.
 *
 * Per N and feed (`?feed=summary`, and for N ≤ BENCH_WS_ALL_FEED_MAX the
 * default `all` feed too, whose traffic grows as N²): rounds in which every
 * player sends one bet, either spread evenly over BET_WINDOW_MS (players
 * clicking during the betting window: `paced`) or all N at once (`burst`).
 * Bet acknowledgement latency is measured per client, send to ack. Then the
 * croupier rings the bell, lifts the dome, reveals (→ dice-revealed and
 * round-settled, with the bets' results) and pays (→ prizes-paid): the time
 * from the command to the last of the N clients receiving the event (the
 * commit included), and from the hub's publish to the last receipt (the
 * fan-out alone). Baseline, same run, same N clients, after each measure: a
 * bare `ws` server on another port sends every client the same messages as
 * that commit did (same count, same sizes), one buffer each and one send per
 * client and message; time to the last receipt. Figures are medians over the
 * rounds.
 *
 * File descriptors: each process holds 2N sockets (the server's ends of both
 * servers, the clients' ends of both), so `ulimit -n` must exceed 2N + 100;
 * sizes that do not fit are skipped with a note.
 */
import { execSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';
import { bundledCalendar } from '../src/compliance/index.js';
import { openSqliteStore, type Store, walletAccount } from '../src/ledger/index.js';
import { People } from '../src/service/people.js';
import { type App, buildApp } from '../src/server/app.js';
import { newToken, SESSION_TTL_MS, tokenHash } from '../src/service/sessions.js';
import { hashPassword } from '../src/service/passwords.js';
import { deposit } from '../src/service/cage.js';
import type { Feed } from '../src/server/feed.js';
import type { PublishedEvent } from '../src/service/table-service.js';
import { simulatedTableSettings } from '../src/service/table-settings.js';
import { type Benchmark, median, round } from './harness.js';

const CLIENT_FLAG = '--ws-players-client';
const SIZES = (process.env['BENCH_WS_PLAYERS'] ?? '1000,5000').split(',').map(Number);
const BET_WINDOW_MS = Number(process.env['BENCH_WS_BET_WINDOW_MS'] ?? 2_000);
/** Sizes up to this also run on the `all` feed, whose traffic grows as N² (see src/server/feed.ts). */
const ALL_FEED_MAX = Number(process.env['BENCH_WS_ALL_FEED_MAX'] ?? 1_000);
const TABLE = 'W1';
const SPOTS = ['small', 'big', 'odd', 'even', 'total:10', 'single:3'];
const CONNECT_WAVE = 250;
const RECEIPT_TIMEOUT_MS = 60_000;

// ---------------------------------------------------------------- the clients

type Mode = 'paced' | 'burst';

/** What the parent asks of the client process, and what it answers. */
type Request =
  | { cmd: 'connect'; url: string; tokens: string[] }
  | { cmd: 'connect-bare'; url: string; n: number }
  | { cmd: 'bet'; round: number; mode: Mode; windowMs: number }
  | { cmd: 'expect'; kind: string }
  | { cmd: 'await'; kind: string }
  | { cmd: 'close' };

interface Client {
  readonly ws: WebSocket;
  sentNs: bigint;
  ackNs: bigint;
  refused: string | null;
  /** Receipt time of the awaited kind, 0n until it comes. */
  gotNs: bigint;
  gotBytes: number;
}

const now = (): bigint => process.hrtime.bigint();
const EVENT_TYPE = /^\{"type":"event","seq":\d+,"event":\{"type":"([a-z-]+)"/;

function clientMain(): void {
  let clients: Client[] = [];
  let bare: Client[] = [];
  let awaited = '';
  const onData = (c: Client, data: Buffer): void => {
    // Peek at the head: parsing a 500 KB result frame in 5,000 clients would time the parser.
    const head = data.subarray(0, 120).toString('latin1');
    if (head.startsWith('{"type":"ack"')) c.ackNs = now();
    else if (head.startsWith('{"type":"error"')) {
      c.ackNs = now();
      c.refused = (JSON.parse(data.toString('utf8')) as { error: { code: string } }).error.code;
    } else {
      const kind = EVENT_TYPE.exec(head)?.[1] ?? (head.startsWith('{"type":"bare"') ? 'bare' : '');
      if (kind === awaited && c.gotNs === 0n) {
        c.gotNs = now();
        c.gotBytes = data.length;
      }
    }
  };
  const open = async (
    url: string,
    count: number,
    headers: (i: number) => Record<string, string>,
    hello: boolean,
  ) => {
    const out: Client[] = [];
    for (let start = 0; start < count; start += CONNECT_WAVE) {
      const wave = Array.from({ length: Math.min(CONNECT_WAVE, count - start) }, (_, k) => {
        const ws = new WebSocket(url, { headers: headers(start + k), perMessageDeflate: false });
        const c: Client = { ws, sentNs: 0n, ackNs: 0n, refused: null, gotNs: 0n, gotBytes: 0 };
        return new Promise<Client>((resolve, reject) => {
          ws.once('error', reject);
          ws.once(hello ? 'message' : 'open', () => {
            ws.on('message', (data: Buffer) => onData(c, data));
            resolve(c);
          });
        });
      });
      out.push(...(await Promise.all(wave)));
    }
    return out;
  };
  const handle = async (req: Request): Promise<unknown> => {
    switch (req.cmd) {
      case 'connect': {
        const t0 = now();
        clients = await open(
          req.url,
          req.tokens.length,
          (i) => ({ authorization: `Bearer ${req.tokens[i]}` }),
          true,
        );
        return { ms: Number(now() - t0) / 1e6 };
      }
      case 'connect-bare':
        bare = await open(req.url, req.n, () => ({}), false);
        return {};
      case 'bet':
        return bet(clients, req.round, req.mode, req.windowMs);
      case 'expect':
        awaited = req.kind;
        for (const c of [...clients, ...bare]) c.gotNs = 0n;
        return {};
      case 'await': {
        const group = req.kind === 'bare' ? bare : clients;
        const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
        while (group.some((c) => c.gotNs === 0n) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 2));
        const times = group.map((c) => c.gotNs).filter((t) => t > 0n);
        const last = times.reduce((a, b) => (b > a ? b : a), 0n);
        return {
          lastNs: String(last),
          received: times.length,
          bytes: group[0]?.gotBytes ?? 0,
        };
      }
      case 'close':
        for (const c of [...clients, ...bare]) c.ws.terminate();
        clients = [];
        bare = [];
        return {};
    }
  };
  process.on('message', (message: { id: number; req: Request }) => {
    handle(message.req).then(
      (answer) => process.send!({ id: message.id, answer }),
      (error: unknown) => process.send!({ id: message.id, error: String(error) }),
    );
  });
}

async function bet(clients: Client[], roundNo: number, mode: Mode, windowMs: number) {
  for (const c of clients) {
    c.ackNs = 0n;
    c.refused = null;
  }
  const send = (c: Client, i: number): void => {
    c.sentNs = now();
    c.ws.send(
      JSON.stringify({
        type: 'place-bet',
        requestId: `r${i}`,
        betId: `b${roundNo}-${i}`,
        spot: SPOTS[i % SPOTS.length],
        stakeMinor: 1_000,
      }),
    );
  };
  if (mode === 'burst') {
    clients.forEach(send);
  } else {
    const start = Date.now();
    for (let i = 0; i < clients.length; i++) {
      const due = start + (i * windowMs) / clients.length;
      const wait = due - Date.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      send(clients[i]!, i);
    }
  }
  const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
  while (clients.some((c) => c.ackNs === 0n) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 2));
  const latencies = clients
    .filter((c) => c.ackNs > 0n && c.refused === null)
    .map((c) => Number(c.ackNs - c.sentNs) / 1e6)
    .sort((a, b) => a - b);
  const refused = clients.filter((c) => c.refused !== null).map((c) => c.refused);
  const at = (q: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    acked: latencies.length,
    refused: refused.length,
    firstRefusal: refused[0] ?? null,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies.at(-1) ?? NaN,
  };
}

// ----------------------------------------------------------------- the server

/** A tiny request/answer channel to the client process. */
class Clients {
  private next = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (a: unknown) => void; reject: (e: Error) => void }
  >();

  constructor(readonly child: ChildProcess) {
    child.on('message', (m: { id: number; answer?: unknown; error?: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error !== undefined) w?.reject(new Error(m.error));
      else w?.resolve(m.answer);
    });
  }

  ask<T>(req: Request): Promise<T> {
    const id = ++this.next;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (a: unknown) => void, reject });
      this.child.send({ id, req });
    });
  }
}

interface Server {
  readonly app: App;
  readonly store: Store;
  readonly url: string;
  readonly bare: WebSocketServer;
  readonly bareUrl: string;
  readonly dir: string;
  /** hrtime of the hub's last publish of each event type, and how long its fan-out loop took. */
  readonly published: Map<string, { atNs: bigint; loopMs: number; companions: number[] }>;
  /** Durations of the store's transactions (each a commit to disk), since last emptied. */
  readonly commitsMs: number[];
}

async function startServer(): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-ws-bench-'));
  const store = await openSqliteStore({ path: join(dir, 'bench.db'), currency: 'MOP' });
  // Every commit timed: the table service's batches and the server's other writes.
  const commitsMs: number[] = [];
  const transaction = store.transaction.bind(store);
  store.transaction = async <T>(
    fn: Parameters<Store['transaction']>[0],
    options?: Parameters<Store['transaction']>[1],
  ): Promise<T> => {
    const t0 = now();
    try {
      return (await transaction(fn, options)) as T;
    } finally {
      commitsMs.push(Number(now() - t0) / 1e6);
    }
  };
  const app = await buildApp({ store, logger: false });
  await app.ctx.service.createTable({ ...simulatedTableSettings(TABLE), bettingTimerMs: null });
  const published = new Map<string, { atNs: bigint; loopMs: number; companions: number[] }>();
  const hub = app.ctx.hub;
  const publish = hub.publish.bind(hub);
  // The hub may be handed a commit twice (the floor's journal follower): the first time counts.
  let publishedSeq = 0;
  hub.publish = (tableId: string, events: readonly PublishedEvent[]) => {
    const atNs = now();
    publish(tableId, events);
    const loopMs = Number(now() - atNs) / 1e6;
    if (events.every((e) => e.seq <= publishedSeq)) return;
    publishedSeq = Math.max(publishedSeq, ...events.map((e) => e.seq));
    // The sizes of the frames that went out before each event in the same commit (as shared).
    const sizes = events.map((e) =>
      Buffer.byteLength(JSON.stringify({ type: 'event', seq: e.seq, event: e.event })),
    );
    events.forEach(({ event }, i) =>
      published.set(event.type, { atNs, loopMs, companions: sizes.slice(0, i) }),
    );
  };
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.fastify.server.address() as AddressInfo).port;
  const bare = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => bare.once('listening', r));
  return {
    app,
    store,
    url: `ws://127.0.0.1:${port}/api/v1/tables/${TABLE}/ws`,
    bare,
    bareUrl: `ws://127.0.0.1:${(bare.address() as AddressInfo).port}/`,
    dir,
    published,
    commitsMs,
  };
}

/** N players in one transaction (one shared password hash), funded at the cage, with sessions. */
async function seedPlayers(store: Store, n: number): Promise<string[]> {
  const passwordHash = await hashPassword(randomBytes(12).toString('hex'));
  const ids = await store.transaction(async (tx) => {
    const made: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = `u-b${String(i).padStart(5, '0')}`;
      const result = await tx.createUser({
        id,
        username: `bench${i}`,
        displayName: `Bench ${i}`,
        role: 'player',
        passwordHash,
      });
      if (result.status !== 'created') throw new Error(result.code);
      await tx.createAccounts([walletAccount(id)]);
      made.push(id);
    }
    return made;
  });
  // Instrução 1/2016: nobody bets without an identity; the bench's are marked as simulated.
  await new People({ store, calendar: () => Promise.resolve(bundledCalendar()) }).recordMarked(
    ids.map((id) => ({ id, displayName: id })),
    'simulated',
    'bench',
  );
  const tokens: string[] = [];
  const t = Date.now();
  for (const id of ids) {
    const funded = await deposit(store, {
      playerId: id,
      amountMinor: 1_000_000,
      cashierId: 'bench',
      idempotencyKey: `bench-${id}`,
    });
    if (!funded.ok) throw new Error(funded.rejection.code);
    const token = newToken();
    await store.createSession({
      tokenHash: tokenHash(token),
      userId: id,
      createdAtMs: t,
      expiresAtMs: t + SESSION_TTL_MS,
    });
    tokens.push(token);
  }
  return tokens;
}

async function croupier(server: Server, ...types: string[]): Promise<void> {
  for (const type of types) {
    const outcome = await server.app.ctx.service.execute({
      tableId: TABLE,
      command: { type } as { type: 'cover' },
    });
    if (!outcome.ok) throw new Error(`${type}: ${outcome.rejection.code}`);
  }
}

const msSince = (startNs: bigint, endNs: string): number => Number(BigInt(endNs) - startNs) / 1e6;

/** Time from `act` to the last of the clients receiving `kind`. */
async function timeToAll(
  clients: Clients,
  kind: string,
  n: number,
  act: () => Promise<void> | void,
): Promise<{ ms: number; bytes: number; startNs: bigint; lastNs: string }> {
  await clients.ask({ cmd: 'expect', kind });
  const startNs = now();
  await act();
  const got = await clients.ask<{ lastNs: string; received: number; bytes: number }>({
    cmd: 'await',
    kind,
  });
  if (got.received !== n) throw new Error(`${kind}: ${got.received} of ${n} clients received it`);
  return { ms: msSince(startNs, got.lastNs), bytes: got.bytes, startNs, lastNs: got.lastNs };
}

/** The bare server sends one message of `bytes` bytes to every client, as the hub does. */
/**
 * The bare server sends every client the same messages as the commit did (the
 * events before the measured one, then one of its size), as the hub does: one
 * buffer each, one send per client and message.
 */
function bareBroadcast(server: Server, companions: readonly number[], bytes: number): void {
  const padded = (type: string, size: number): Buffer => {
    const head = `{"type":"${type}","pad":"`;
    return Buffer.from(head + 'x'.repeat(Math.max(0, size - head.length - 2)) + '"}');
  };
  const frames = [...companions.map((size) => padded('pre', size)), padded('bare', bytes)];
  for (const socket of server.bare.clients)
    for (const frame of frames) socket.send(frame, { binary: false });
}

async function runSize(
  server: Server,
  clients: Clients,
  tokens: string[],
  n: number,
  feed: Feed,
  log: (line: string) => void,
): Promise<Record<string, number | string>> {
  const connected = await clients.ask<{ ms: number }>({
    cmd: 'connect',
    url: `${server.url}?feed=${feed}`,
    tokens: tokens.slice(0, n),
  });
  await clients.ask({ cmd: 'connect-bare', url: server.bareUrl, n });
  log(
    `  N=${n}, ${feed} feed: ${n} players connected in ${round(connected.ms)} ms (hello received), ` +
      `${server.bare.clients.size} to the bare server`,
  );
  const key = `n${n}_${feed}`;
  const figures: Record<string, number | string> = {};
  const settled: number[] = [];
  const settledFanout: number[] = [];
  const settledBare: number[] = [];
  const paid: number[] = [];
  const paidFanout: number[] = [];
  const paidBare: number[] = [];
  let settledBytes = 0;
  let paidBytes = 0;
  // The `all` feed's rounds are long (N² messages): two of them show it.
  const modes: Mode[] =
    feed === 'summary' ? ['paced', 'burst', 'paced', 'burst'] : ['paced', 'burst'];
  type Series = 'p50' | 'p99' | 'max' | 'commits' | 'commitP99' | 'commitMax';
  const series = (): Record<Series, number[]> => ({
    p50: [],
    p99: [],
    max: [],
    commits: [],
    commitP99: [],
    commitMax: [],
  });
  const ackFigures: Record<Mode, Record<Series, number[]>> = { paced: series(), burst: series() };
  for (const [r, mode] of modes.entries()) {
    await croupier(server, 'cover', 'fasten-latches', 'trigger-shaker', 'open-betting');
    server.commitsMs.length = 0;
    const acks = await clients.ask<{
      acked: number;
      refused: number;
      firstRefusal: string | null;
      p50: number;
      p99: number;
      max: number;
    }>({
      cmd: 'bet',
      round: r,
      mode,
      windowMs: BET_WINDOW_MS,
    });
    if (acks.refused > 0)
      throw new Error(`${acks.refused} bets refused, e.g. ${acks.firstRefusal}`);
    const commits = server.commitsMs.splice(0).sort((a, b) => a - b);
    const commitAt = (q: number): number =>
      commits[Math.min(commits.length - 1, Math.floor(q * commits.length))] ?? NaN;
    ackFigures[mode].commits.push(commits.length);
    ackFigures[mode].commitP99.push(commitAt(0.99));
    ackFigures[mode].commitMax.push(commits.at(-1) ?? NaN);
    ackFigures[mode].p50.push(acks.p50);
    ackFigures[mode].p99.push(acks.p99);
    ackFigures[mode].max.push(acks.max);
    const pace = mode === 'paced' ? `over ${BET_WINDOW_MS} ms` : 'at once';
    log(
      `  N=${n}, ${feed} feed, ${n} bets ${pace}: ack p50 ${round(acks.p50)} ms, p99 ${round(acks.p99)} ms, ` +
        `max ${round(acks.max)} ms; ${commits.length} commits, p50 ${round(commitAt(0.5))} ms, ` +
        `p99 ${round(commitAt(0.99))} ms, max ${round(commits.at(-1) ?? NaN)} ms`,
    );
    await croupier(server, 'ring-bell', 'lift-dome');

    const s = await timeToAll(clients, 'round-settled', n, () => croupier(server, 'reveal-dice'));
    settled.push(s.ms);
    settledFanout.push(msSince(server.published.get('round-settled')!.atNs, s.lastNs));
    settledBytes = s.bytes;
    settledBare.push(
      (
        await timeToAll(clients, 'bare', n, () =>
          bareBroadcast(server, server.published.get('round-settled')!.companions, s.bytes),
        )
      ).ms,
    );

    const p = await timeToAll(clients, 'prizes-paid', n, () => croupier(server, 'pay-all'));
    paid.push(p.ms);
    paidFanout.push(msSince(server.published.get('prizes-paid')!.atNs, p.lastNs));
    paidBytes = p.bytes;
    paidBare.push(
      (
        await timeToAll(clients, 'bare', n, () =>
          bareBroadcast(server, server.published.get('prizes-paid')!.companions, p.bytes),
        )
      ).ms,
    );
  }
  const report = (
    name: string,
    subject: number[],
    fanout: number[],
    bare: number[],
    bytes: number,
  ): void => {
    const s = median(subject);
    const b = median(bare);
    figures[`${key}_${name}_ms`] = round(s);
    figures[`${key}_${name}_fanout_ms`] = round(median(fanout));
    figures[`${key}_${name}_bare_ms`] = round(b);
    figures[`${key}_${name}_ratio`] = round(s / b);
    figures[`${key}_${name}_frame_bytes`] = bytes;
    log(
      `  N=${n}, ${feed} feed, ${name} (${round(bytes / 1024)} KiB a client): command → last client ${round(s)} ms ` +
        `(publish → last ${round(median(fanout))} ms); bare ws broadcast ${round(b)} ms; ratio ${round(s / b)}`,
    );
  };
  for (const mode of ['paced', 'burst'] as const) {
    for (const q of ['p50', 'p99', 'max'] as const)
      figures[`${key}_ack_${mode}_${q}_ms`] = round(median(ackFigures[mode][q]));
    figures[`${key}_commits_${mode}`] = round(median(ackFigures[mode].commits));
    figures[`${key}_commit_${mode}_p99_ms`] = round(median(ackFigures[mode].commitP99));
    figures[`${key}_commit_${mode}_max_ms`] = round(median(ackFigures[mode].commitMax));
  }
  report('round_settled', settled, settledFanout, settledBare, settledBytes);
  report('prizes_paid', paid, paidFanout, paidBare, paidBytes);
  await clients.ask({ cmd: 'close' });
  const drained = Date.now() + 10_000;
  while (
    (server.app.ctx.hub.clientCount() > 0 || server.bare.clients.size > 0) &&
    Date.now() < drained
  )
    await new Promise((r) => setTimeout(r, 10));
  return figures;
}

function fileDescriptorLimit(): number {
  try {
    return Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim());
  } catch {
    return NaN;
  }
}

async function run(log: (line: string) => void): Promise<Record<string, number | string>> {
  const limit = fileDescriptorLimit();
  const sizes = SIZES.filter((n) => {
    const fits = !(limit < 2 * n + 100);
    if (!fits)
      log(
        `  N=${n} skipped: ulimit -n is ${limit}, it needs ${2 * n + 100} (raise it: ulimit -n ${2 * n + 100})`,
      );
    return fits;
  });
  const figures: Record<string, number | string> = { fd_limit: limit };
  if (sizes.length === 0) return figures;
  const server = await startServer();
  const child = fork(fileURLToPath(import.meta.url), [CLIENT_FLAG], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const clients = new Clients(child);
  try {
    const t0 = Date.now();
    const tokens = await seedPlayers(server.store, Math.max(...sizes));
    log(
      `  seeded ${tokens.length} players (users, wallets, cage deposits, sessions) in ${Date.now() - t0} ms`,
    );
    for (const n of sizes) {
      Object.assign(figures, await runSize(server, clients, tokens, n, 'summary', log));
      if (n <= ALL_FEED_MAX)
        Object.assign(figures, await runSize(server, clients, tokens, n, 'all', log));
    }
  } finally {
    child.kill();
    server.bare.close();
    await server.app.shutdown();
    await server.store.close();
    rmSync(server.dir, { recursive: true, force: true });
  }
  return figures;
}

export const wsPlayersBenchmark: Benchmark = {
  name: 'ws-players',
  description:
    "N WebSocket players on one table: bet ack p50/p99, and the time to deliver a round's results to all beside a bare ws broadcast to the same N",
  run,
};

if (process.argv.includes(CLIENT_FLAG)) clientMain();
