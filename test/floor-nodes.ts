/**
 * A floor of real `cussec serve` nodes on a PostgreSQL database made for the
 * run, with players made straight in the store (one shared password hash,
 * sessions minted here, to save scrypt time): what the lease-kill suite and
 * the floor benchmarks share.
 */
import { bundledCalendar } from '../src/compliance/index.js';
import { People } from '../src/service/people.js';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPgStore } from '../src/ledger/index.js';
import { newToken, tokenHash } from '../src/service/sessions.js';
import { hashPassword } from '../src/service/passwords.js';
import { deposit, openWallet } from '../src/service/cage.js';
import { macauDate } from '../src/compliance/index.js';
import { defaultTableSettings, markedAuthorization } from '../src/service/table-settings.js';
import { TableService } from '../src/service/table-service.js';
import { freePort, ServeProcess } from './serve-process.js';

export const FLOOR_SUPERVISOR_PASSWORD = 'floor-supervisor-pw';
export const FLOOR_DEMO_PASSWORD = 'cussec-demo-1';

export interface FloorNode {
  readonly port: number;
  readonly base: string;
  readonly server: ServeProcess;
}

export class TestFloor {
  readonly nodes: FloorNode[] = [];
  /** Every node of a floor is given the same roll key (docs/dice.md). */
  private readonly rollKey = `floor:${randomBytes(32).toString('base64')}`;

  private constructor(
    private readonly admin: pg.Client,
    readonly dbName: string,
    readonly url: string,
  ) {}

  /** A fresh database on the server `baseUrl` names. */
  static async create(baseUrl: string): Promise<TestFloor> {
    const dbName = `cussec_floor_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = new URL(baseUrl);
    url.pathname = `/${dbName}`;
    return new TestFloor(admin, dbName, url.toString());
  }

  /**
   * Starts a node (`--demo`: the croupier and the supervisor) and waits for it
   * to serve; `nodeArgs` go to node itself.
   */
  async start(
    extraEnv: NodeJS.ProcessEnv = {},
    nodeArgs: readonly string[] = [],
  ): Promise<FloorNode> {
    const port = await freePort();
    const server = await ServeProcess.start(
      ['--db', this.url, '--port', String(port), '--demo'],
      {
        CUSSEC_SUPERVISOR_PASSWORD: FLOOR_SUPERVISOR_PASSWORD,
        CUSSEC_ROLL_KEY: this.rollKey,
        CUSSEC_LOG_LEVEL: 'error',
        ...extraEnv,
      },
      60_000,
      nodeArgs,
    );
    const node = { port, base: `http://127.0.0.1:${port}`, server };
    this.nodes.push(node);
    return node;
  }

  /** Tables T2…Tn besides the first node's T1, with no betting timer. */
  async createTables(ids: readonly string[]): Promise<void> {
    const store = await openPgStore({ url: this.url, currency: 'MOP' });
    try {
      const service = new TableService({ store });
      // As `cussec serve --demo` makes its first table.
      const authorization = markedAuthorization('demonstration', macauDate(Date.now()), 'floor');
      for (const id of ids)
        await service.createTable({ ...defaultTableSettings(id), authorization });
    } finally {
      await store.close();
    }
  }

  /** `count` funded players, each with a live session; their bearer tokens. */
  async seedPlayers(count: number): Promise<string[]> {
    const store = await openPgStore({ url: this.url, currency: 'MOP' });
    const passwordHash = await hashPassword(randomBytes(12).toString('hex'));
    const tokens: string[] = [];
    try {
      for (let p = 0; p < count; p++) {
        const id = `floor-${p}`;
        await store.transaction((tx) =>
          tx.createUser({ id, username: id, displayName: id, role: 'player', passwordHash }),
        );
        await openWallet(store, id);
        await deposit(store, {
          playerId: id,
          amountMinor: 100_000_000,
          cashierId: 'floor',
          idempotencyKey: `floor-${id}`,
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
      // Instrução 1/2016: nobody bets without an identity; these are marked as simulated.
      const ids = Array.from({ length: count }, (_, p) => ({
        id: `floor-${p}`,
        displayName: `floor-${p}`,
      }));
      await new People({ store, calendar: () => Promise.resolve(bundledCalendar()) }).recordMarked(
        ids,
        'simulated',
        'floor',
      );
    } finally {
      await store.close();
    }
    return tokens;
  }

  async sql(text: string, values: unknown[] = []): Promise<pg.QueryResultRow[]> {
    const client = new pg.Client({ connectionString: this.url });
    await client.connect();
    try {
      return (await client.query<pg.QueryResultRow>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  /** The node the table row names as its lease holder. */
  async holderOf(tableId: string): Promise<FloorNode | undefined> {
    const [row] = await this.sql('SELECT lease_holder FROM tables WHERE id = $1', [tableId]);
    const holder = row?.['lease_holder'] as string | null | undefined;
    return this.nodes.find((n) => holder != null && new URL(holder).port === String(n.port));
  }

  /**
   * Stops every node (SIGTERM: a node started with --cpu-prof in NODE_OPTIONS
   * writes its profile as it exits; SIGKILL after 15 s) and drops the database.
   */
  async destroy(): Promise<void> {
    const running = this.nodes.filter((n) => n.server.running);
    for (const node of running) node.server.child.kill('SIGTERM');
    const killer = setTimeout(() => {
      for (const node of running) node.server.child.kill('SIGKILL');
    }, 15_000);
    await Promise.all(running.map((n) => n.server.exited));
    clearTimeout(killer);
    await this.admin.query(`DROP DATABASE IF EXISTS ${this.dbName} WITH (FORCE)`);
    await this.admin.end();
  }
}

/** A JSON request with a bearer token; the status and the parsed body. */
export async function call(
  base: string,
  token: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

export async function login(base: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200) throw new Error(`login ${username}: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * Opens betting on the table for ten minutes (a bench's or a test's round that
 * stays open), through node `via`: where no node holds the table, it takes the lease.
 */
export async function openBetting(floor: TestFloor, tableId: string, via = 0): Promise<void> {
  const base = floor.nodes[via]!.base;
  const supervisor = await login(base, 'supervisor', FLOOR_SUPERVISOR_PASSWORD);
  const limits = await call(base, supervisor, 'PATCH', `/api/v1/tables/${tableId}/limits`, {
    bettingTimerMs: 600_000,
  });
  if (limits.status !== 200) throw new Error(`limits ${tableId}: ${JSON.stringify(limits)}`);
  const croupier = await login(base, 'croupier', FLOOR_DEMO_PASSWORD);
  for (const type of ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting']) {
    const answer = await call(base, croupier, 'POST', `/api/v1/tables/${tableId}/commands`, {
      type,
    });
    if (answer.status !== 200) throw new Error(`${tableId} ${type}: ${JSON.stringify(answer)}`);
  }
}
