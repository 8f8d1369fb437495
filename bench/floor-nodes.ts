/**
 * A floor's throughput as nodes are added, all `cussec serve` processes on one
 * PostgreSQL, each run on a database of its own:
 *
 * - floor-nodes: 60 HTTP players betting on one table through 1, 2 and 3
 *   nodes, spread over the nodes round robin. The table's commands run on its
 *   lease holder; the other nodes pass theirs to it. The 1-node run is the
 *   baseline of the others (goal: 3 nodes ≥ 0.8 of it; ack p50 ≤ 20 ms on one).
 * - floor-tables: 60 players on 10 tables (6 each) through 1, 2 and 3 nodes;
 *   table i is opened through node i mod N, so that the leases spread; each
 *   player bets through node p mod N, as a load balancer without stickiness
 *   would send them. Bets/s on the floor must not fall as nodes are added.
 *
 * BENCH_FLOOR_MS: how long the players bet (4,000 ms); BENCH_FLOOR_NODES: the
 * node counts (1,2,3; the ratios only with all three); BENCH_FLOOR_PROFILE:
 * a folder where each node writes a CPU profile.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { type Benchmark, round } from './harness.js';
import { call, openBetting, TestFloor } from '../test/floor-nodes.js';
import pg from 'pg';
import { PG_FALLBACK_URL } from './databases.js';

const PLAYERS = 60;
const DURATION_MS = Number(process.env['BENCH_FLOOR_MS'] ?? 4_000);
const SPOTS = ['small', 'big', 'odd', 'even'];
const CORES = availableParallelism();

interface Run {
  readonly betsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** CPU time a bet of the nodes (all together; and each, in node order) and of the database's backends. */
  readonly nodeCpuMsPerBet: number;
  readonly eachNodeCpuMsPerBet: readonly number[];
  readonly pgCpuMsPerBet: number;
  /** CPU time a bet of the players' side: this process, which makes the requests. */
  readonly loadCpuMsPerBet: number;
  /** Transactions a bet on the floor's database (each statement outside a transaction is one). */
  readonly transactionsPerBet: number;
  /** Batches of the tables' commands committed a second (group commits). */
  readonly commitsPerSecond: number;
  /** Tables whose lease each node held at the end, in node order. */
  readonly leases: readonly number[];
}

export const floorNodesBenchmark: Benchmark = {
  name: 'floor-nodes',
  description: `${PLAYERS} HTTP players betting on one table through 1, 2 and 3 nodes on one PostgreSQL`,
  run: (log) => floorRuns(log, 'floor-nodes', 1),
};

export const floorTablesBenchmark: Benchmark = {
  name: 'floor-tables',
  description: `${PLAYERS} HTTP players betting on 10 tables through 1, 2 and 3 nodes on one PostgreSQL`,
  run: (log) => floorRuns(log, 'floor-tables', 10),
};

async function floorRuns(
  log: (line: string) => void,
  name: string,
  tableCount: number,
): Promise<Record<string, number>> {
  const base = await pgBaseUrl();
  if (base === undefined) {
    log(`${name}: skipped, no PostgreSQL answered (set CUSSEC_TEST_PG_URL)`);
    return {};
  }
  const figures: Record<string, number> = {};
  const counts = (process.env['BENCH_FLOOR_NODES'] ?? '1,2,3').split(',').map(Number);
  for (const nodes of counts) {
    const r = await runFloor(base, nodes, tableCount);
    log(
      `${name}: ${nodes} node(s), ${tableCount} table(s): ${Math.round(r.betsPerSecond)} bets/s, ack p50 ${round(r.p50Ms)} ms, p99 ${round(r.p99Ms)} ms; leases per node ${r.leases.join('/')}; CPU a bet: nodes ${round(r.nodeCpuMsPerBet)} ms (${r.eachNodeCpuMsPerBet.map((v) => round(v)).join(' + ')}), PostgreSQL ${round(r.pgCpuMsPerBet)} ms, load ${round(r.loadCpuMsPerBet)} ms: at most ${Math.round(ceiling(r))} bets/s on ${CORES} cores; ${round(r.transactionsPerBet)} transactions a bet; ${Math.round(r.commitsPerSecond)} commits/s (${round(r.betsPerSecond / r.commitsPerSecond)} bets a commit)`,
    );
    figures[`nodes${nodes}TransactionsPerBet`] = round(r.transactionsPerBet);
    figures[`nodes${nodes}LoadCpuMsPerBet`] = round(r.loadCpuMsPerBet);
    figures[`nodes${nodes}CeilingBetsPerSecond`] = Math.round(ceiling(r));
    figures[`nodes${nodes}NodeCpuMsPerBet`] = round(r.nodeCpuMsPerBet);
    figures[`nodes${nodes}PgCpuMsPerBet`] = round(r.pgCpuMsPerBet);
    figures[`nodes${nodes}CommitsPerSecond`] = Math.round(r.commitsPerSecond);
    figures[`nodes${nodes}BetsPerSecond`] = Math.round(r.betsPerSecond);
    figures[`nodes${nodes}AckP50Ms`] = round(r.p50Ms);
    figures[`nodes${nodes}AckP99Ms`] = round(r.p99Ms);
  }
  if (counts.join() === '1,2,3') {
    figures['ratio2To1'] = round(figures['nodes2BetsPerSecond']! / figures['nodes1BetsPerSecond']!);
    figures['ratio3To1'] = round(figures['nodes3BetsPerSecond']! / figures['nodes1BetsPerSecond']!);
    log(`${name}: 2 nodes / 1 = ${figures['ratio2To1']}, 3 nodes / 1 = ${figures['ratio3To1']}`);
  }
  return figures;
}

/**
 * The bets/s the machine's cores could carry at most, were they busy with
 * nothing else: each bet costs the nodes, PostgreSQL and the load generator
 * their CPU a bet (in a closed loop, ack p50 ≈ players ÷ bets/s).
 */
function ceiling(r: Run): number {
  return (CORES * 1_000) / (r.nodeCpuMsPerBet + r.pgCpuMsPerBet + r.loadCpuMsPerBet);
}

async function runFloor(baseUrl: string, nodeCount: number, tableCount: number): Promise<Run> {
  const floor = await TestFloor.create(baseUrl);
  try {
    // BENCH_FLOOR_PROFILE=DIR: each node writes a CPU profile there (node --cpu-prof) as it stops.
    const profile = process.env['BENCH_FLOOR_PROFILE'];
    const nodeArgs = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}/${nodeCount}`] : [];
    for (let i = 0; i < nodeCount; i++) await floor.start({}, nodeArgs);
    const tables = Array.from({ length: tableCount }, (_, i) => `T${i + 1}`);
    await floor.createTables(tables.slice(1));
    const tokens = await floor.seedPlayers(PLAYERS);
    // Table i's first command reaches node i mod N, which takes its lease.
    await Promise.all(tables.map((t, i) => openBetting(floor, t, i % nodeCount)));
    const latencies: number[] = [];
    const transactionsBefore = await transactions(floor);
    const before = await usage(floor);
    const loadBefore = process.cpuUsage();
    const end = Date.now() + DURATION_MS;
    await Promise.all(
      tokens.map(async (token, p) => {
        const node = floor.nodes[p % nodeCount]!;
        const table = tables[p % tableCount]!;
        for (let n = 0; Date.now() < end; n++) {
          const start = performance.now();
          const answer = await call(node.base, token, 'POST', `/api/v1/tables/${table}/bets`, {
            betId: `p${p}-${n}`,
            spot: SPOTS[n % 4],
            stakeMinor: 1_000,
          });
          if (answer.status !== 201)
            throw new Error(`bet on ${table}: ${answer.status} ${JSON.stringify(answer.body)}`);
          latencies.push(performance.now() - start);
        }
      }),
    );
    const load = process.cpuUsage(loadBefore);
    const after = await usage(floor);
    const transactionsAfter = await transactions(floor);
    latencies.sort((a, b) => a - b);
    const holders = await floor.sql('SELECT lease_holder FROM tables');
    const leases = floor.nodes.map(
      (n) =>
        holders.filter(
          (h) =>
            typeof h['lease_holder'] === 'string' &&
            new URL(h['lease_holder']).port === String(n.port),
        ).length,
    );
    return {
      betsPerSecond: latencies.length / (DURATION_MS / 1000),
      p50Ms: latencies[Math.floor(latencies.length * 0.5)]!,
      p99Ms: latencies[Math.floor(latencies.length * 0.99)]!,
      leases,
      nodeCpuMsPerBet: (after.nodeCpuMs - before.nodeCpuMs) / latencies.length,
      eachNodeCpuMsPerBet: after.eachNodeCpuMs.map(
        (ms, i) => (ms - before.eachNodeCpuMs[i]!) / latencies.length,
      ),
      pgCpuMsPerBet: cpuDelta(before.pgCpuMs, after.pgCpuMs) / latencies.length,
      loadCpuMsPerBet: (load.user + load.system) / 1_000 / latencies.length,
      commitsPerSecond: (after.commits - before.commits) / (DURATION_MS / 1000),
      // Less this bench's own statements in between: the first count's, and usage()'s two twice.
      transactionsPerBet: (transactionsAfter - transactionsBefore - 5) / latencies.length,
    };
  } finally {
    await floor.destroy();
  }
}

/** CPU time so far of the nodes and of each backend on the floor's database, and the tables' commits. */
async function usage(floor: TestFloor): Promise<{
  nodeCpuMs: number;
  eachNodeCpuMs: number[];
  pgCpuMs: Map<number, number>;
  commits: number;
}> {
  const backends = await floor.sql(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  // Each batch of a table's commands that changed it is one commit that raised its version.
  const [stat] = await floor.sql('SELECT coalesce(sum(version), 0)::int AS commits FROM tables');
  return {
    nodeCpuMs: floor.nodes.reduce((sum, n) => sum + cpuMsOf(n.server.child.pid!), 0),
    eachNodeCpuMs: floor.nodes.map((n) => cpuMsOf(n.server.child.pid!)),
    pgCpuMs: new Map(backends.map((b) => [Number(b['pid']), cpuMsOf(Number(b['pid']))])),
    commits: Number(stat?.['commits'] ?? 0),
  };
}

/**
 * Transactions on the floor's database so far, once the backends have
 * reported theirs (PostgreSQL's statistics reach the view within a second).
 */
async function transactions(floor: TestFloor): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const [db] = await floor.sql(
    'SELECT (xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(db?.['n'] ?? 0);
}

/** CPU of the backends that lived through the run (a pool keeps its connections). */
function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

/** User + system CPU of a process, from /proc (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
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
