/**
 * A casino floor: three `cussec serve` nodes on one PostgreSQL. Players bet on
 * different nodes, every node's sockets see every event, a node is killed with
 * SIGKILL mid-round and the table's betting timer moves to a surviving node,
 * PostgreSQL is restarted and play goes on; the audit passes at the end and no
 * acknowledged bet is lost or paid twice.
 *
 * It restarts PostgreSQL, so it runs alone, after the other suites
 * (vitest.floor.config.ts, the last step of `npm test`).
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgStore, type Store, walletAccount } from '../src/ledger/index.js';
import { freePort, ServeProcess } from './serve-process.js';
import { http, SocketClient } from './server-harness.js';

const BASE_URL = process.env['CUSSEC_TEST_PG_URL'];
const SUPERVISOR_PASSWORD = 'floor-supervisor-pw';
/** Every node of a floor is given the same roll key (docs/dice.md). */
const ROLL_KEY = `floor:${randomBytes(32).toString('base64')}`;
const DEMO_PASSWORD = 'cussec-demo-1';
const PG_CLUSTER = existsSync('/etc/postgresql')
  ? execFileSync('ls', ['/etc/postgresql']).toString().trim().split('\n')[0]
  : undefined;
const CAN_RESTART_PG =
  PG_CLUSTER !== undefined &&
  process.getuid?.() === 0 &&
  process.env['CUSSEC_TEST_NO_PG_RESTART'] === undefined;

if (BASE_URL === undefined)
  console.warn(
    'SKIPPED: the floor suite (three nodes) needs PostgreSQL: CUSSEC_TEST_PG_URL is unset.',
  );

interface Node {
  readonly port: number;
  readonly base: string;
  process: ChildProcess;
}

async function login(base: string, username: string, password = DEMO_PASSWORD): Promise<string> {
  const answer = await http(base, 'POST', '/api/v1/session', { body: { username, password } });
  if (answer.status !== 200) throw new Error(`login ${username}: ${answer.text}`);
  return (answer.body as { token: string }).token;
}

async function command(
  base: string,
  token: string,
  type: string,
  extra: object = {},
): Promise<void> {
  const answer = await http(base, 'POST', '/api/v1/tables/T1/commands', {
    token,
    body: { type, ...extra },
  });
  if (answer.status !== 200) throw new Error(`${type}: ${answer.text}`);
}

/** Retries while PostgreSQL is restarting (503/500 or a refused connection). */
async function eventually<T>(fn: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (Date.now() - start > timeoutMs) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

describe.skipIf(BASE_URL === undefined)('a floor of three nodes on one PostgreSQL', () => {
  const dbName = `cussec_floor_${randomBytes(4).toString('hex')}`;
  let dbUrl = '';
  const nodes: Node[] = [];
  let store: Store | undefined;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: BASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(BASE_URL!);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
    // The first node creates the table and the users; the others find them.
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      nodes.push({
        port,
        base: `http://127.0.0.1:${port}`,
        process: await startNode(dbUrl, port, `/tmp/${dbName}-${i}`),
      });
    }
  }, 120_000);

  afterAll(async () => {
    for (const node of nodes) node.process.kill('SIGKILL');
    await store?.close();
    const admin = new pg.Client({ connectionString: BASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }, 60_000);

  it('plays on through a dead node and a PostgreSQL restart, and the audit passes', async () => {
    const [n1, n2, n3] = nodes as [Node, Node, Node];
    const supervisor = await login(n1.base, 'supervisor', SUPERVISOR_PASSWORD);
    const limits = await http(n1.base, 'PATCH', '/api/v1/tables/T1/limits', {
      token: supervisor,
      body: { bettingTimerMs: 3_000 },
    });
    expect(limits.status).toBe(200);
    const p1 = await login(n1.base, 'player1');
    const p2 = await login(n2.base, 'player2');
    const croupier = await login(n3.base, 'croupier');
    const watcher = await SocketClient.connect(`ws://127.0.0.1:${n2.port}/api/v1/tables/T1/ws`);
    const acked: { base: string; token: string; betId: string }[] = [];

    const playRound = async (round: number, killDuringBetting: boolean): Promise<void> => {
      for (const step of ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'])
        await eventually(() => command(n3.base, croupier, step));
      // Events made on node 3 reach the sockets of node 2 (LISTEN/NOTIFY).
      await watcher.event('betting-opened', 10_000);
      const bettors = killDuringBetting
        ? [{ base: n2.base, token: p2 }]
        : [
            { base: n1.base, token: p1 },
            { base: n2.base, token: p2 },
          ];
      if (killDuringBetting) {
        const answer = await http(n1.base, 'POST', '/api/v1/tables/T1/bets', {
          token: p1,
          body: { betId: `r${round}-p1`, spot: 'small', stakeMinor: 5_000 },
        });
        if (answer.status === 201) acked.push({ base: n1.base, token: p1, betId: `r${round}-p1` });
        n1.process.kill('SIGKILL');
      }
      for (const [i, b] of bettors.entries()) {
        const betId = `r${round}-${i}`;
        const answer = await eventually(async () => {
          const a = await http(b.base, 'POST', '/api/v1/tables/T1/bets', {
            token: b.token,
            body: { betId, spot: i === 0 ? 'big' : 'odd', stakeMinor: 2_000 },
          });
          if (a.status >= 500) throw new Error(a.text);
          return a;
        });
        if (answer.status === 201) acked.push({ base: b.base, token: b.token, betId });
      }
      // Nobody rings the bell: the timer of the lease holder does (Art. 3.1), even after node 1 died.
      await watcher.event('bell-rung', 15_000);
      for (const step of ['lift-dome', 'reveal-dice', 'pay-all'])
        await eventually(() => command(n3.base, croupier, step));
      await watcher.event('prizes-paid', 10_000);
    };

    await playRound(1, false);
    await playRound(2, true);
    // The dead node comes back and serves again; then PostgreSQL restarts under all three.
    n1.process = await startNode(dbUrl, n1.port, `/tmp/${dbName}-0`);
    if (CAN_RESTART_PG) {
      execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', PG_CLUSTER, 'main', 'restart']);
    }
    await playRound(3, false);

    store = await eventually(() => openPgStore({ url: dbUrl, currency: 'MOP' }));
    // Every acknowledged bet is in the ledger, once.
    for (const bet of acked) {
      const transfers = await store.transfersByReference(
        `round:T1:${bet.betId.split('-')[0]!.slice(1)}`,
      );
      expect(
        transfers.filter((t) => t.id.endsWith(`:${bet.betId}`) && t.kind === 'bet'),
      ).toHaveLength(1);
    }
    const audit = execFileSync(process.execPath, [
      '--import',
      'tsx',
      'src/cli/main.ts',
      'audit',
      'verify',
      '--db',
      dbUrl,
    ]).toString();
    expect(audit).toContain('audit passed');
    // Each wallet holds what its transfers say (the audit checked), and nothing went below zero.
    for (const username of ['player1', 'player2']) {
      const user = await store.findUserByUsername(username);
      expect(
        (await store.getAccount(walletAccount(user!.id).id))!.balanceMinor,
      ).toBeGreaterThanOrEqual(0);
    }
    watcher.socket.close();
  }, 180_000);
});

async function startNode(dbUrl: string, port: number, dataDir: string): Promise<ChildProcess> {
  const args = ['--db', dbUrl, '--port', String(port), '--data', dataDir, '--demo'];
  const node = await ServeProcess.start(args, {
    CUSSEC_SUPERVISOR_PASSWORD: SUPERVISOR_PASSWORD,
    CUSSEC_ROLL_KEY: ROLL_KEY,
  });
  return node.child;
}
