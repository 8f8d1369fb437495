/**
 * Bets per second and acknowledgement latency with 1, 2 and 3 `cussec serve`
 * nodes on one PostgreSQL, players spread over the nodes, all betting on one
 * table. The 1-node run is the baseline of the 2- and 3-node runs.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPgStore } from '../src/ledger/index.js';
import { newToken, tokenHash } from '../src/service/sessions.js';
import { hashPassword } from '../src/service/passwords.js';
import { deposit, openWallet } from '../src/service/cage.js';
import { type Benchmark, round } from './harness.js';
import { freePort, ServeProcess } from '../test/serve-process.js';
import { PG_FALLBACK_URL } from './databases.js';

const PLAYERS = 60;
const DURATION_MS = 4_000;
const SUPERVISOR_PASSWORD = 'bench-supervisor-pw';
/** Every node of a floor is given the same roll key (docs/dice.md). */
const ROLL_KEY = `floor:${randomBytes(32).toString('base64')}`;

export const floorNodesBenchmark: Benchmark = {
  name: 'floor-nodes',
  description: `${PLAYERS} HTTP players betting on one table through 1, 2 and 3 nodes on one PostgreSQL`,
  run: async (log) => {
    const base = await pgBaseUrl();
    if (base === undefined) {
      log('floor-nodes: skipped, no PostgreSQL answered (set CUSSEC_TEST_PG_URL)');
      return { skipped: 'no PostgreSQL' };
    }
    const figures: Record<string, number> = {};
    for (const nodes of [1, 2, 3]) {
      const r = await runFloor(base, nodes);
      log(
        `floor-nodes: ${nodes} node(s): ${Math.round(r.betsPerSecond)} bets/s, ack p50 ${round(r.p50Ms)} ms, p99 ${round(r.p99Ms)} ms`,
      );
      figures[`nodes${nodes}BetsPerSecond`] = Math.round(r.betsPerSecond);
      figures[`nodes${nodes}AckP50Ms`] = round(r.p50Ms);
      figures[`nodes${nodes}AckP99Ms`] = round(r.p99Ms);
    }
    figures['ratio2To1'] = round(figures['nodes2BetsPerSecond']! / figures['nodes1BetsPerSecond']!);
    figures['ratio3To1'] = round(figures['nodes3BetsPerSecond']! / figures['nodes1BetsPerSecond']!);
    return figures;
  },
};

async function runFloor(
  baseUrl: string,
  nodeCount: number,
): Promise<{ betsPerSecond: number; p50Ms: number; p99Ms: number }> {
  const dbName = `cussec_bench_floor_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(baseUrl);
  url.pathname = `/${dbName}`;
  const dbUrl = url.toString();
  const children: ChildProcess[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < nodeCount; i++) {
      ports.push(await freePort());
      children.push(await startNode(dbUrl, ports[i]!));
    }
    const tokens = await seedPlayers(dbUrl);
    const supervisor = await login(ports[0]!, 'supervisor', SUPERVISOR_PASSWORD);
    await call(ports[0]!, supervisor, 'PATCH', '/api/v1/tables/T1/limits', {
      bettingTimerMs: 600_000,
    });
    const croupier = await login(ports[0]!, 'croupier', 'cussec-demo-1');
    for (const type of ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting']) {
      await call(ports[0]!, croupier, 'POST', '/api/v1/tables/T1/commands', { type });
    }
    const latencies: number[] = [];
    const end = Date.now() + DURATION_MS;
    const spots = ['small', 'big', 'odd', 'even'];
    await Promise.all(
      tokens.map(async (token, p) => {
        const port = ports[p % nodeCount]!;
        for (let n = 0; Date.now() < end; n++) {
          const start = performance.now();
          await call(port, token, 'POST', '/api/v1/tables/T1/bets', {
            betId: `p${p}-${n}`,
            spot: spots[n % 4],
            stakeMinor: 1_000,
          });
          latencies.push(performance.now() - start);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    return {
      betsPerSecond: latencies.length / (DURATION_MS / 1000),
      p50Ms: latencies[Math.floor(latencies.length * 0.5)]!,
      p99Ms: latencies[Math.floor(latencies.length * 0.99)]!,
    };
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

/** Players made straight in the store (one shared password hash, sessions minted here) to save scrypt time. */
async function seedPlayers(dbUrl: string): Promise<string[]> {
  const store = await openPgStore({ url: dbUrl, currency: 'MOP' });
  const passwordHash = await hashPassword(randomBytes(12).toString('hex'));
  const tokens: string[] = [];
  try {
    for (let p = 0; p < PLAYERS; p++) {
      const id = `bench-${p}`;
      await store.transaction((tx) =>
        tx.createUser({ id, username: id, displayName: id, role: 'player', passwordHash }),
      );
      await openWallet(store, id);
      await deposit(store, {
        playerId: id,
        amountMinor: 100_000_000,
        cashierId: 'bench',
        idempotencyKey: `bench-${id}`,
      });
      const token = newToken();
      await store.createSession({
        tokenHash: tokenHash(token),
        userId: id,
        createdAtMs: Date.now(),
        expiresAtMs: Date.now() + 3_600_000,
      });
      tokens.push(token);
    }
  } finally {
    await store.close();
  }
  return tokens;
}

async function call(
  port: number,
  token: string,
  method: string,
  path: string,
  body: unknown,
): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function login(port: number, username: string, password: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return ((await response.json()) as { token: string }).token;
}

/** The server the benchmark makes its databases on, if one answers. */
async function pgBaseUrl(): Promise<string | undefined> {
  const url = process.env['CUSSEC_TEST_PG_URL'] || PG_FALLBACK_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return url;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function startNode(dbUrl: string, port: number): Promise<ChildProcess> {
  const node = await ServeProcess.start(['--db', dbUrl, '--port', String(port), '--demo'], {
    CUSSEC_SUPERVISOR_PASSWORD: SUPERVISOR_PASSWORD,
    CUSSEC_ROLL_KEY: ROLL_KEY,
  });
  return node.child;
}
