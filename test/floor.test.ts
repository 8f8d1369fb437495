/**
 * The fault suite: a casino floor of three `cussec serve` nodes on a
 * PostgreSQL of its own (initdb into a temporary folder, run as the `postgres`
 * OS user), so that it never touches the machine's server. The nodes start
 * together on the empty database; a socket watcher on each node and players
 * betting on all of them; then, one round each, with bets in flight:
 *
 * - terminate: pg_terminate_backend of every backend of the nodes;
 * - restart: pg_ctl restart -m fast;
 * - down: pg_ctl stop -m fast, /readyz and a bet probed while it is down, then start;
 * - freeze: SIGSTOP of the postmaster and its children for a few seconds, then SIGCONT;
 * - kill: SIGKILL of the node holding the table's lease (its betting timer,
 *   Art. 3.1, moves to another node), which is then started again.
 *
 * All the while `cussec audit verify` runs beside the floor, again and again,
 * each run on a snapshot of a database being written (and, at times, away).
 *
 * Then: no node exited but the killed one; every watcher's seqs are gapless
 * and equal to GET /events; every acknowledged bet is in the ledger once;
 * every live audit either passed or said the database was away (never a false
 * failure), and one passed on a snapshot taken mid-loop; and `cussec audit
 * verify` passes at the end. CUSSEC_FLOOR_PASSES repeats the loop of faults
 * (default once). It always stops PostgreSQL and removes its
 * folder, even on failure. Needs root (to run initdb as `postgres`) and
 * PostgreSQL's binaries under /usr/lib/postgresql/<version>/bin; skipped, with
 * the reason, without them.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_UNAVAILABLE } from '../src/cli/errors.js';
import { EVENT_TYPES } from '../src/table/index.js';
import { freePort, ServeProcess } from './serve-process.js';
import { type ErrorAnswer, http, type HttpAnswer, SocketClient } from './server-harness.js';

const SUPERVISOR_PASSWORD = 'floor-supervisor-pw';
const ROLL_KEY = `floor:${randomBytes(32).toString('base64')}`;
const DEMO_PASSWORD = 'cussec-demo-1';
const NODES = 3;
const FAULTS = ['terminate', 'restart', 'down', 'freeze', 'kill'] as const;
type Fault = (typeof FAULTS)[number];
/** How many times the loop of faults runs. */
const PASSES = Number(process.env['CUSSEC_FLOOR_PASSES'] ?? 1);
/** A node started from the sources may take a minute on a loaded machine; three start at once. */
const NODE_START_MS = 150_000;
/** Short timeouts, so that a frozen or stopped database costs seconds, not the suite's budget. */
const STATEMENT_TIMEOUT_MS = 1_500;
const TIMEOUT_FLAGS = [
  '--db-connect-timeout-ms',
  '1500',
  '--db-statement-timeout-ms',
  String(STATEMENT_TIMEOUT_MS),
  '--db-lock-timeout-ms',
  '1500',
  '--db-idle-in-transaction-timeout-ms',
  '5000',
];
/** The longest a client may wait for an answer while the database is away: the timeouts and a margin. */
const ANSWER_WITHIN_MS = 8_000;
const FREEZE_MS = 3_000;
/** Long enough that the bets sent with a fault mostly land before the bell on a loaded machine. */
const BETTING_TIMER_MS = 8_000;
const ROUND_EVENTS = new Set<string>(EVENT_TYPES);
const EVENTS_PATH = '/api/v1/tables/T1/events?after=0&limit=1000';

function pgBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

const PG_BIN = pgBin();
const SKIP_REASON =
  process.getuid?.() !== 0
    ? 'it must run as root, to run initdb as the postgres user'
    : PG_BIN === undefined
      ? 'no initdb under /usr/lib/postgresql/<version>/bin (install the postgresql package)'
      : undefined;
if (SKIP_REASON !== undefined)
  console.warn(`SKIPPED: the fault suite (three nodes): ${SKIP_REASON}.`);

/** A PostgreSQL of the suite's own, in a temporary folder, owned and run by `postgres`. */
class OwnPostgres {
  readonly dir = mkdtempSync(join(tmpdir(), 'cussec-floor-'));
  readonly data = join(this.dir, 'data');
  port = 0;

  get adminUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/cussec`;
  }

  private asPostgres(command: string, args: readonly string[]): void {
    execFileSync('runuser', ['-u', 'postgres', '--', join(PG_BIN!, command), ...args], {
      stdio: 'ignore',
      timeout: 60_000,
    });
  }

  async init(): Promise<void> {
    const { uid, gid } = postgresUser();
    chownSync(this.dir, uid, gid);
    this.port = await freePort();
    this.asPostgres('initdb', ['-D', this.data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    this.start();
  }

  start(): void {
    // fsync off: the suite tests processes that die, not disks; a fast shutdown writes everything.
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    this.asPostgres('pg_ctl', [
      '-D',
      this.data,
      '-o',
      options,
      '-l',
      join(this.dir, 'log'),
      '-w',
      'start',
    ]);
  }

  stop(mode: 'fast' | 'immediate' = 'fast'): void {
    this.asPostgres('pg_ctl', ['-D', this.data, '-m', mode, '-w', 'stop']);
  }

  restart(): void {
    this.asPostgres('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', 'restart']);
  }

  /** The postmaster and every process it started. */
  pids(): number[] {
    const pidFile = join(this.data, 'postmaster.pid');
    if (!existsSync(pidFile)) return [];
    const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after ')'.
          const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  }

  signal(signal: 'SIGSTOP' | 'SIGCONT'): void {
    for (const pid of this.pids()) {
      try {
        process.kill(pid, signal);
      } catch {
        // The process ended meanwhile.
      }
    }
  }

  /** Always safe: wakes a frozen server, stops it, and removes the folder. */
  destroy(): void {
    this.signal('SIGCONT');
    try {
      this.stop('immediate');
    } catch {
      // Not running.
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (line === undefined) throw new Error('no postgres user');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function sql(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<pg.QueryResultRow[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<pg.QueryResultRow>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends a request until it gets an answer below 500 (a 503 or a refused connection is retried). */
async function retrying(send: () => Promise<HttpAnswer>, timeoutMs = 45_000): Promise<HttpAnswer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: string;
    try {
      const answer = await send();
      if (answer.status < 500) return answer;
      last = `${answer.status} ${answer.text}`;
    } catch (error) {
      last = String(error);
    }
    if (Date.now() > deadline) throw new Error(`no answer below 500 in ${timeoutMs} ms: ${last}`);
    await sleep(250);
  }
}

interface Node {
  readonly index: number;
  readonly port: number;
  readonly base: string;
  server: ServeProcess;
  watcher: SocketClient | undefined;
  /** The seqs of the events this node's watchers got, across reconnections. */
  readonly seqs: number[];
}

describe.skipIf(SKIP_REASON !== undefined)(
  'the fault suite: three nodes on a PostgreSQL of its own',
  () => {
    const db = new OwnPostgres();
    const nodes: Node[] = [];
    /** Nodes this suite killed on purpose: their exits are expected. */
    const killed = new Set<ServeProcess>();
    const unexpectedExits: string[] = [];

    const startNode = async (index: number, port: number): Promise<ServeProcess> => {
      const args = [
        '--db',
        db.url,
        '--port',
        String(port),
        '--data',
        join(db.dir, `node-${index}`),
        '--demo',
        ...TIMEOUT_FLAGS,
      ];
      const server = await ServeProcess.start(
        args,
        {
          CUSSEC_SUPERVISOR_PASSWORD: SUPERVISOR_PASSWORD,
          // Every node of a floor seals and reveals rolls with the same key (docs/dice.md).
          CUSSEC_ROLL_KEY: ROLL_KEY,
          CUSSEC_LOG_LEVEL: 'error',
        },
        NODE_START_MS,
      );
      void server.exited.then((code) => {
        if (!killed.has(server))
          unexpectedExits.push(`node ${index} exited (${code}):\n${server.output.slice(-2_000)}`);
      });
      return server;
    };

    /** A watcher on the node, resuming after the last seq it got. */
    const watch = async (node: Node): Promise<void> => {
      const after = node.seqs[node.seqs.length - 1] ?? 0;
      const watcher = await SocketClient.connect(
        `ws://127.0.0.1:${node.port}/api/v1/tables/T1/ws?after=${after}`,
      );
      watcher.socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as { type: string; seq?: number };
        if (message.type === 'event') node.seqs.push(message.seq!);
      });
      node.watcher = watcher;
    };

    beforeAll(async () => {
      await db.init();
      await sql(db.adminUrl, 'CREATE DATABASE cussec');
      // All three at once on the empty database: one makes the table and the users, the others find them.
      const ports = await Promise.all(Array.from({ length: NODES }, () => freePort()));
      const servers = await Promise.all(ports.map((port, i) => startNode(i, port)));
      for (const [i, server] of servers.entries())
        nodes.push({
          index: i,
          port: ports[i]!,
          base: `http://127.0.0.1:${ports[i]}`,
          server,
          watcher: undefined,
          seqs: [],
        });
      for (const node of nodes) await watch(node);
    }, NODE_START_MS + 60_000);

    afterAll(() => {
      for (const node of nodes) {
        node.watcher?.socket.terminate();
        killed.add(node.server);
        node.server.child.kill('SIGKILL');
      }
      db.destroy();
    }, 60_000);

    it('loses no node, no event and no acknowledged bet, and the audit passes', async () => {
      const login = async (username: string, password = DEMO_PASSWORD): Promise<string> => {
        const answer = await retrying(() =>
          http(nodes[0]!.base, 'POST', '/api/v1/session', { body: { username, password } }),
        );
        if (answer.status !== 200) throw new Error(`login ${username}: ${answer.text}`);
        return (answer.body as { token: string }).token;
      };
      const supervisor = await login('supervisor', SUPERVISOR_PASSWORD);
      const croupier = await login('croupier');
      const players = [await login('player1'), await login('player2')];
      // The lease holder's betting timer rings the bell (Art. 3.1).
      const limits = await http(nodes[0]!.base, 'PATCH', '/api/v1/tables/T1/limits', {
        token: supervisor,
        body: { bettingTimerMs: BETTING_TIMER_MS },
      });
      expect(limits.status).toBe(200);

      const acked: string[] = [];
      const refused: string[] = [];
      const timings: string[] = [];

      const step = async (round: number, type: string): Promise<void> => {
        const node = nodes[round % NODES]!;
        const answer = await retrying(() =>
          http(node.base, 'POST', '/api/v1/tables/T1/commands', {
            token: croupier,
            body: { type },
            headers: { 'idempotency-key': `r${round}-${type}` },
          }),
        );
        if (answer.status !== 200) throw new Error(`round ${round} ${type}: ${answer.text}`);
      };

      /** Each player bets on each node, all at once; resolves with the bets acknowledged. */
      const placeBets = (round: number): Promise<void>[] =>
        nodes.flatMap((node) =>
          players.map(async (token, p) => {
            const betId = `r${round}-p${p}-n${node.index}`;
            const answer = await retrying(() =>
              http(node.base, 'POST', '/api/v1/tables/T1/bets', {
                token,
                body: { betId, spot: p === 0 ? 'small' : 'big', stakeMinor: 1_000 },
                headers: { 'idempotency-key': betId },
              }),
            );
            if (answer.status === 201) acked.push(betId);
            else refused.push(`${answer.status} ${(answer.body as ErrorAnswer).error.code}`);
          }),
        );

      const timed = async (what: string, send: () => Promise<HttpAnswer>): Promise<HttpAnswer> => {
        const started = Date.now();
        const answer = await send();
        const ms = Date.now() - started;
        timings.push(`${what}: ${answer.status} in ${ms} ms`);
        expect(ms, what).toBeLessThan(ANSWER_WITHIN_MS);
        return answer;
      };

      /** While the database is away: /healthz answers, /readyz and a bet get a clear 503 in time. */
      const probeAway = async (what: string, round: number): Promise<void> => {
        const node = nodes[1]!;
        const [health, ready, bet] = await Promise.all([
          timed(`${what} /healthz`, () => http(node.base, 'GET', '/healthz')),
          timed(`${what} /readyz`, () => http(node.base, 'GET', '/readyz')),
          timed(`${what} bet`, () =>
            http(node.base, 'POST', '/api/v1/tables/T1/bets', {
              token: players[0],
              body: { betId: `r${round}-${what}-probe`, spot: 'odd', stakeMinor: 1_000 },
              headers: { 'idempotency-key': `r${round}-${what}-probe` },
            }),
          ),
        ]);
        expect(health.status).toBe(200);
        expect(ready.status).toBe(503);
        expect(ready.body).toMatchObject({ error: { code: 'database_unavailable' } });
        expect(bet.status).toBe(503);
        expect(bet.body).toMatchObject({ error: { code: 'database_unavailable' } });
      };

      /**
       * The node the table row names as its lease holder (the URL it listens on),
       * read while a node holds the lease, and twice alike, so that a holder just
       * killed, or a node between taking the lease and recording itself, is not it.
       */
      const leaseHolder = async (): Promise<Node> => {
        const deadline = Date.now() + 20_000;
        const named = async (): Promise<Node | undefined> => {
          const rows = await sql(
            db.url,
            `SELECT lease_holder AS holder FROM tables WHERE id = 'T1' AND EXISTS (
              SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))`,
          ).catch(() => []);
          const holder: unknown = rows[0]?.['holder'];
          if (typeof holder !== 'string') return undefined;
          return nodes.find((n) => new URL(holder).port === String(n.port));
        };
        for (;;) {
          const first = await named();
          await sleep(250);
          if (first !== undefined && (await named()) === first) return first;
          if (Date.now() > deadline) throw new Error('no node holds the lease');
        }
      };

      const inject = async (fault: Fault, round: number): Promise<void> => {
        switch (fault) {
          case 'terminate':
            await sql(
              db.adminUrl,
              "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'cussec'",
            );
            return;
          case 'restart':
            db.restart();
            return;
          case 'down':
            db.stop();
            try {
              await probeAway('down', round);
            } finally {
              db.start();
            }
            return;
          case 'freeze':
            db.signal('SIGSTOP');
            try {
              await Promise.all([probeAway('frozen', round), sleep(FREEZE_MS)]);
            } finally {
              db.signal('SIGCONT');
            }
            return;
          case 'kill': {
            const holder = await leaseHolder();
            killed.add(holder.server);
            holder.server.child.kill('SIGKILL');
            await holder.server.exited;
            holder.watcher?.socket.terminate();
            holder.server = await startNode(holder.index, holder.port);
            await watch(holder);
            return;
          }
        }
      };

      /** Waits until the table's journal holds `count` entries of the type (one a round). */
      const waitFor = async (count: number, type: string): Promise<void> => {
        const deadline = Date.now() + 45_000;
        for (;;) {
          const answer = await http(nodes[0]!.base, 'GET', EVENTS_PATH, { token: croupier }).catch(
            () => undefined,
          );
          const entries = (answer?.status === 200 ? answer.body : []) as { type: string }[];
          if (entries.filter((e) => e.type === type).length >= count) return;
          if (Date.now() > deadline)
            throw new Error(
              `round ${count}: no ${type} in ${answer?.status} ${entries.map((e) => e.type).join(' ')}\n${nodes.map((n) => n.server.output.slice(-1_500)).join('\n---\n')}`,
            );
          await sleep(250);
        }
      };

      // The inspector audits the live floor all through the loop, one run after another.
      const headBefore = await journalHead(db.url);
      let looping = true;
      const liveAudits = (async () => {
        const runs: LiveAudit[] = [];
        while (looping) runs.push(await liveAudit(db.url));
        return runs;
      })();
      try {
        for (let pass = 0; pass < PASSES; pass++)
          for (const [i, fault] of FAULTS.entries()) {
            const round = pass * FAULTS.length + i + 1;
            for (const type of ['cover', 'fasten-latches', 'trigger-shaker', 'open-betting'])
              await step(round, type);
            const bets = placeBets(round);
            await inject(fault, round);
            await Promise.all(bets);
            // Art. 3.1: the lease holder's timer rings the bell, whichever node that is now.
            await waitFor(round, 'bell-rung');
            for (const type of ['lift-dome', 'reveal-dice', 'pay-all']) await step(round, type);
          }
      } finally {
        looping = false;
      }
      const audits = await liveAudits;
      const headAfter = await journalHead(db.url);

      // Every node still runs (the killed one was started again), and none exited by itself.
      expect(unexpectedExits).toEqual([]);
      for (const node of nodes) expect(node.server.running).toBe(true);

      // Every watcher got every round event of the table once, in seq order: what GET /events lists.
      const entries = (
        await retrying(() => http(nodes[0]!.base, 'GET', EVENTS_PATH, { token: croupier }))
      ).body as {
        seq: number;
        type: string;
      }[];
      const expected = entries.filter((e) => ROUND_EVENTS.has(e.type)).map((e) => e.seq);
      for (const node of nodes) {
        await expect
          .poll(() => node.seqs.length, { timeout: 10_000 })
          .toBeGreaterThanOrEqual(expected.length);
        expect({ node: node.index, seqs: node.seqs }).toEqual({ node: node.index, seqs: expected });
      }

      // Every acknowledged bet is in the ledger once.
      expect(acked.length).toBeGreaterThan(0);
      const stakes = await sql(db.url, "SELECT id FROM transfers WHERE kind = 'bet'");
      for (const betId of acked)
        expect({
          betId,
          n: stakes.filter((t) => String(t['id']).endsWith(`:${betId}`)).length,
        }).toEqual({ betId, n: 1 });

      // Every live audit passed or found the database away (exit 75); none failed on a moving
      // database, and one passed on a snapshot taken mid-loop: entries before it and after it.
      const summary = audits.map((a) => `${a.code}${a.seq === undefined ? '' : `@${a.seq}`}`);
      for (const run of audits)
        expect(
          [0, EXIT_UNAVAILABLE].includes(run.code),
          `live audit exited ${run.code} (runs: ${summary.join(' ')}): ${run.said}`,
        ).toBe(true);
      expect(
        audits.some((a) => a.code === 0 && a.seq! > headBefore && a.seq! < headAfter),
        `live audits ${summary.join(' ')} between entries ${headBefore} and ${headAfter}`,
      ).toBe(true);
      expect(audit(db.url)).toContain('audit passed');
      console.info(
        `fault suite: ${acked.length} bets acknowledged, refused: ${refused.join(', ') || 'none'}; ` +
          `live audits (exit code@entry checked up to) ${summary.join(' ')} while the journal went from ${headBefore} to ${headAfter}\n${timings.join('\n')}`,
      );
    }, 600_000);
  },
);

const execFileAsync = promisify(execFile);

/** The journal's last seq. */
async function journalHead(url: string): Promise<number> {
  const rows = await sql(url, "SELECT last_seq FROM journal_head WHERE chain = 'global'");
  return Number(rows[0]!['last_seq']);
}

/** One `cussec audit verify --json` beside the floor: its exit code, the entry it checked up to, what it said. */
interface LiveAudit {
  readonly code: number;
  readonly seq?: number;
  readonly said: string;
}

async function liveAudit(url: string): Promise<LiveAudit> {
  try {
    const { stdout } = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'audit', 'verify', '--db', url, '--json'],
      { timeout: 120_000 },
    );
    const verdict = JSON.parse(stdout) as { checkedTo: { seq: number } };
    return { code: 0, seq: verdict.checkedTo.seq, said: stdout.trim() };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string };
    const code = typeof e.code === 'number' ? e.code : -1;
    return { code, said: `${e.stdout ?? ''}${e.stderr ?? String(error)}`.trim() };
  }
}

/** `cussec audit verify` on the database; its output (it exits non-zero on a failed audit). */
function audit(url: string): string {
  try {
    return execFileSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'audit', 'verify', '--db', url],
      {
        timeout: 120_000,
      },
    ).toString();
  } catch (error) {
    const e = error as { stdout?: Buffer; stderr?: Buffer };
    return `audit failed: ${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}`;
  }
}
