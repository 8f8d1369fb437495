/**
 * `npm run bench -- history [--large]`: what the reads of a long-lived table
 * cost. Grows one table's journal to 600 and 6,000 rounds (and 60,000 with
 * --large), 60 players, 300 rounds a Macau day, then times each read on each
 * size beside 600 rounds, against `cussec serve` started on each in turn while
 * /healthz is polled, and prints each read's time as a ratio to its time at
 * 600 rounds (goal: at most 1.5 at 6,000), the /healthz p99 during each read
 * (goal: at most 50 ms, beside an idle server's) and the bytes per bet beside
 * the 875 of the release before read models.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { playTable } from '../src/service/simulated-table.js';
import { addDays, type IsoDate } from '../src/compliance/index.js';
import { openSqliteStore } from '../src/ledger/index.js';
import { newToken, tokenHash } from '../src/service/sessions.js';
import { hashPassword } from '../src/service/passwords.js';
import { sweepExpiredCommands } from '../src/service/command-sweeper.js';
import { macauDayStartMs } from '../src/service/daily-report.js';
import { FairnessService } from '../src/service/fairness.js';
import { TableService } from '../src/service/table-service.js';
import { freePort, ServeProcess } from '../test/serve-process.js';
import { type Benchmark, median, round } from './harness.js';

const PLAYERS = 60;
const ROUNDS_PER_DAY = 300;
const ROUND_MS = (24 * 60 * 60 * 1000) / ROUNDS_PER_DAY;
const FIRST_DAY: IsoDate = '2026-03-02';
const SEED = 'history';
/** Bytes per bet of the release before read models (journal, idempotency records, transfers). */
const BYTES_PER_BET_BEFORE = 875;
const HEALTHZ_PAUSE_MS = 5;
/** Server starts per size; each read is timed once per start and the median kept. */
const REPEATS = 5;
/** How long a start may take (tsx loads the sources in each worker thread too). */
const SERVE_START_MS = 300_000;
const execFileAsync = promisify(execFile);

interface Built {
  readonly path: string;
  readonly rounds: number;
  readonly bets: number;
  /** The time this size's rounds took to play, on top of the smaller size's. */
  readonly buildMs: number;
  /** A day in the middle of the table's history, for the daily report. */
  readonly reportDate: IsoDate;
  readonly bytes: { readonly file: number; readonly used: number };
  readonly byObject: Readonly<Record<string, number>>;
}

/**
 * One table's history, grown size by size in one file (each size a copy of
 * it): played with the service directly (no HTTP) on a clock of 300 rounds a
 * Macau day, a day at a time, with the idempotency records past the retry
 * window swept after each day as a running server sweeps them. The file is
 * written without syncing (durability 'none': a benchmark's database, thrown
 * away after), which is what makes 60,000 rounds a matter of minutes; what it
 * holds is what a synced one holds.
 */
class History {
  private readonly path: string;
  private rounds = 0;
  private bets = 0;

  constructor(private readonly dir: string) {
    this.path = join(dir, 'history.db');
  }

  async growTo(rounds: number, log: (line: string) => void): Promise<Built> {
    const start = macauDayStartMs(FIRST_DAY) + 10 * 60 * 60 * 1000;
    let played = this.rounds;
    let tick = 0;
    const clock = (): number => start + played * ROUND_MS + (tick++ % 60_000);
    const store = await openSqliteStore({
      path: this.path,
      currency: 'MOP',
      clock,
      durability: 'none',
    });
    const began = performance.now();
    let lastLog = began;
    try {
      while (this.rounds < rounds) {
        const from = this.rounds;
        const report = await playTable({
          store,
          tableId: 'T1',
          rounds: Math.min(ROUNDS_PER_DAY, rounds - from),
          players: PLAYERS,
          seed: SEED,
          shaker: 'electronic',
          clock,
          onRound: (n) => {
            played = from + n;
            tick = 0;
          },
        });
        this.rounds += report.rounds;
        this.bets += report.bets;
        await sweepExpiredCommands(store, clock());
        if (performance.now() - lastLog > 60_000) {
          lastLog = performance.now();
          log(`  … ${this.rounds} rounds played, ${round((lastLog - began) / 1000)} s`);
        }
      }
      // The table's fairness monitor, kept as a running server keeps it.
      const fairness = new FairnessService({ store, tables: new TableService({ store, clock }) });
      await fairness.evaluate('T1');
      fairness.close();
    } finally {
      await store.close();
    }
    const buildMs = performance.now() - began;
    const path = join(this.dir, `history-${rounds}.db`);
    copyFileSync(this.path, path);
    const bytes = storage(path);
    log(
      `built ${rounds} rounds (${this.bets} bets) in ${round(buildMs / 1000)} s more: ` +
        `${round(bytes.used / this.bets)} bytes a bet used, ${round(bytes.file / this.bets)} in the file`,
    );
    return {
      path,
      rounds,
      bets: this.bets,
      buildMs,
      reportDate: addDays(FIRST_DAY, Math.floor(rounds / 2 / ROUNDS_PER_DAY)),
      bytes,
      byObject: bytes.byObject,
    };
  }
}

function storage(path: string): {
  file: number;
  used: number;
  byObject: Record<string, number>;
} {
  const db = new Database(path, { readonly: true });
  try {
    const pages = db.pragma('page_count', { simple: true }) as number;
    const free = db.pragma('freelist_count', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const rows = db
      .prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC')
      .all() as { name: string; bytes: number }[];
    const byObject: Record<string, number> = {};
    for (const r of rows.slice(0, 8)) byObject[r.name] = r.bytes;
    let file = statSync(path).size;
    for (const suffix of ['-wal', '-shm'])
      file += statSync(path + suffix, { throwIfNoEntry: false })?.size ?? 0;
    return { file, used: (pages - free) * pageSize, byObject };
  } finally {
    db.close();
  }
}

/** An inspector and a session minted in the store (no scrypt round trip at login). */
async function inspectorToken(path: string): Promise<string> {
  const store = await openSqliteStore({ path, currency: 'MOP' });
  try {
    await store.transaction(async (tx) =>
      tx.createUser({
        id: 'bench-inspector',
        username: 'bench-inspector',
        displayName: 'Bench inspector',
        role: 'inspector',
        passwordHash: await hashPassword('bench-inspector-password'),
      }),
    );
    const token = newToken();
    const now = Date.now();
    await store.createSession({
      tokenHash: tokenHash(token),
      userId: 'bench-inspector',
      createdAtMs: now,
      expiresAtMs: now + 24 * 3_600_000,
    });
    return token;
  } finally {
    await store.close();
  }
}

interface Timed {
  readonly ms: number;
  readonly healthzP99Ms: number;
  readonly healthzPolls: number;
}

/** Runs `read` while another loop polls /healthz; the read's time and the polls' p99. */
async function timed(port: number, read: () => Promise<unknown>): Promise<Timed> {
  const latencies: number[] = [];
  let reading = true;
  const poller = (async () => {
    while (reading) {
      const began = performance.now();
      await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.arrayBuffer());
      latencies.push(performance.now() - began);
      await new Promise((resolve) => setTimeout(resolve, HEALTHZ_PAUSE_MS));
    }
  })();
  // One poll before the read starts, so that the poller is under way.
  await new Promise((resolve) => setTimeout(resolve, 2 * HEALTHZ_PAUSE_MS));
  const began = performance.now();
  await read();
  const ms = performance.now() - began;
  reading = false;
  await poller;
  const sorted = [...latencies].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
  return { ms, healthzP99Ms: p99, healthzPolls: sorted.length };
}

async function get(port: number, token: string, path: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
}

async function cli(args: readonly string[]): Promise<void> {
  await execFileAsync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    maxBuffer: 64 * 1024 * 1024,
  });
}

type Reads = Record<string, Timed>;

/** The /healthz polls of an idle server: what the machine's load alone costs them. */
const IDLE_MS = 500;

/**
 * One start of `cussec serve` on a database and every read once: the restart,
 * the first reads after it (house options, fairness, recall: each rebuilds or
 * starts what it needs), then the others, and the CLI's reads beside it.
 */
async function measureOnce(built: Built, token: string): Promise<Reads> {
  const port = await freePort();
  const began = performance.now();
  // A start loads the read workers before it listens: from the sources, on a loaded machine, slow.
  // --demo: the history is a simulation's (cussec play's tables), which only a demonstration serves.
  const server = await ServeProcess.start(
    ['--db', built.path, '--port', String(port), '--demo'],
    {},
    SERVE_START_MS,
  );
  const reads: Reads = {
    restart: { ms: performance.now() - began, healthzP99Ms: 0, healthzPolls: 0 },
  };
  // The poller's first request to a new server costs this client 60–120 ms (its connection
  // and fetch's pool), while the server answers it in 8–9 ms (curl's time to first byte):
  // made once, untimed, so that the idle row shows the machine's load, not the client.
  await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.arrayBuffer());
  try {
    const t = '/api/v1/tables/T1';
    const steps: [string, () => Promise<unknown>][] = [
      ['idle server', () => new Promise((resolve) => setTimeout(resolve, IDLE_MS))],
      ['first house-options', () => get(port, token, `${t}/house-options`)],
      ['first fairness', () => get(port, token, `${t}/fairness`)],
      ['first recall 10 rounds', () => get(port, token, `${t}/recall?rounds=10`)],
      ['recall 10 rounds', () => get(port, token, `${t}/recall?rounds=10`)],
      [
        'daily report',
        () => get(port, token, `${t}/reports/daily?date=${built.reportDate}&format=json`),
      ],
      ['fairness', () => get(port, token, `${t}/fairness`)],
      ['holidays', () => get(port, token, '/api/v1/holidays')],
      ['cli recall 1 round', () => cli(['recall', '--db', built.path, '--rounds', '1'])],
      [
        'cli report 1 day',
        () => cli(['report', '--db', built.path, '--table', 'T1', '--date', built.reportDate]),
      ],
    ];
    for (const [name, read] of steps) reads[name] = await timed(port, read);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  return reads;
}

/**
 * The reads of two sizes, interleaved start by start (the machine's load moves
 * between them alike): the median time of each read, the worst /healthz p99.
 */
async function measurePair(
  sizes: readonly [Built, Built],
  tokens: Map<string, string>,
  log: (line: string) => void,
): Promise<[Reads, Reads]> {
  const samples: [Reads[], Reads[]] = [[], []];
  for (let rep = 0; rep < REPEATS; rep++)
    for (const i of [0, 1] as const) {
      const built = sizes[i];
      let token = tokens.get(built.path);
      if (token === undefined) {
        token = await inspectorToken(built.path);
        tokens.set(built.path, token);
      }
      samples[i].push(await measureOnce(built, token));
    }
  const fold = (runs: readonly Reads[]): Reads =>
    Object.fromEntries(
      Object.keys(runs[0]!).map((name) => [
        name,
        {
          ms: median(runs.map((r) => r[name]!.ms)),
          healthzP99Ms: Math.max(...runs.map((r) => r[name]!.healthzP99Ms)),
          healthzPolls: runs.reduce((n, r) => n + r[name]!.healthzPolls, 0),
        },
      ]),
    );
  const [base, other] = [fold(samples[0]), fold(samples[1])];
  log(
    `reads at ${sizes[1].rounds} rounds beside ${sizes[0].rounds} (medians of ${REPEATS} starts each, interleaved):`,
  );
  for (const name of Object.keys(base)) {
    const a = base[name]!;
    const b = other[name]!;
    const p99 = (r: Timed) =>
      r.healthzPolls > 0 ? `, /healthz p99 ${round(r.healthzP99Ms)} ms` : '';
    log(
      `  ${name}: ${round(a.ms)} ms${p99(a)} | ${round(b.ms)} ms${p99(b)} | ` +
        `ratio ${round(b.ms / a.ms)}×`,
    );
  }
  return [base, other];
}

const key = (name: string): string => name.replaceAll(' ', '_').replaceAll('-', '_');

export const historyBenchmark: Benchmark = {
  name: 'history',
  description:
    "reads of a long-lived table (600 vs 6,000 rounds; 60,000 with --large): each read's ratio to 600 rounds, /healthz p99 during it, bytes per bet",
  async run(log) {
    const sizes = process.argv.includes('--large') ? [600, 6_000, 60_000] : [600, 6_000];
    const dir = mkdtempSync(join(tmpdir(), 'cussec-history-'));
    const figures: Record<string, number | string> = {};
    try {
      const history = new History(dir);
      const tokens = new Map<string, string>();
      let base: Built | undefined;
      let worstP99 = 0;
      for (const rounds of sizes) {
        const built = await history.growTo(rounds, log);
        const n = built.rounds;
        figures[`bytes_per_bet_used_${n}`] = round(built.bytes.used / built.bets);
        figures[`bytes_per_bet_file_${n}`] = round(built.bytes.file / built.bets);
        figures[`build_s_${n}`] = round(built.buildMs / 1000);
        log(
          `bytes per bet at ${n} rounds: ${round(built.bytes.used / built.bets)} used ` +
            `(${round(built.bytes.file / built.bets)} in the file) beside ${BYTES_PER_BET_BEFORE} before; ` +
            `largest: ${Object.entries(built.byObject)
              .map(([k, v]) => `${k} ${round(v / built.bets)}`)
              .join(', ')}`,
        );
        if (base === undefined) {
          base = built;
          continue;
        }
        const [atBase, atSize] = await measurePair([base, built], tokens, log);
        for (const [name, r] of Object.entries(atSize)) {
          const k = key(name);
          figures[`${k}_ms_${base.rounds}_beside_${n}`] = round(atBase[name]!.ms);
          figures[`${k}_ms_${n}`] = round(r.ms);
          figures[`${k}_ratio_${n}_to_${base.rounds}`] = round(r.ms / atBase[name]!.ms);
          if (r.healthzPolls > 0) {
            figures[`${k}_healthz_p99_ms_${n}`] = round(r.healthzP99Ms);
            figures[`${k}_healthz_p99_ms_${base.rounds}_beside_${n}`] = round(
              atBase[name]!.healthzP99Ms,
            );
          }
        }
        const reads = [...Object.entries(atBase), ...Object.entries(atSize)].filter(
          ([name, r]) => name !== 'idle server' && r.healthzPolls > 0,
        );
        worstP99 = Math.max(worstP99, ...reads.map(([, r]) => r.healthzP99Ms));
        log(
          `/healthz p99, worst read so far: ${round(worstP99)} ms (goal: at most 50 ms); ` +
            `idle server ${round(atBase['idle server']!.healthzP99Ms)} and ${round(atSize['idle server']!.healthzP99Ms)} ms`,
        );
      }
      figures['healthz_p99_ms_worst'] = round(worstP99);
      figures['bytes_per_bet_before'] = BYTES_PER_BET_BEFORE;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return figures;
  },
};
