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
import { type Benchmark, round } from './harness.js';
import { call, openBetting, TestFloor } from '../test/floor-nodes.js';
import pg from 'pg';
import { PG_FALLBACK_URL } from './databases.js';

const PLAYERS = 60;
const DURATION_MS = Number(process.env['BENCH_FLOOR_MS'] ?? 4_000);
const SPOTS = ['small', 'big', 'odd', 'even'];

interface Run {
  readonly betsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
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
      `${name}: ${nodes} node(s), ${tableCount} table(s): ${Math.round(r.betsPerSecond)} bets/s, ack p50 ${round(r.p50Ms)} ms, p99 ${round(r.p99Ms)} ms; leases per node ${r.leases.join('/')}`,
    );
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

async function runFloor(baseUrl: string, nodeCount: number, tableCount: number): Promise<Run> {
  const floor = await TestFloor.create(baseUrl);
  try {
    // BENCH_FLOOR_PROFILE=DIR: each node writes a CPU profile there (node --cpu-prof) as it stops.
    const profile = process.env['BENCH_FLOOR_PROFILE'];
    const env = profile
      ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profile}/${nodeCount}` }
      : {};
    for (let i = 0; i < nodeCount; i++) await floor.start(env);
    const tables = Array.from({ length: tableCount }, (_, i) => `T${i + 1}`);
    await floor.createTables(tables.slice(1));
    const tokens = await floor.seedPlayers(PLAYERS);
    // Table i's first command reaches node i mod N, which takes its lease.
    await Promise.all(tables.map((t, i) => openBetting(floor, t, i % nodeCount)));
    const latencies: number[] = [];
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
    };
  } finally {
    await floor.destroy();
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
