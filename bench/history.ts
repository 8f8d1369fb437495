/**
 * `npm run bench -- history [--large]`: what the reads of a long-lived table
 * cost. Builds one table's journal of 600 and 6,000 rounds (and 60,000 with
 * --large), 60 players, 300 rounds a Macau day, then times each read on each
 * against a `cussec serve` of it while /healthz is polled, and prints each
 * read's time at every size as a ratio to its time at 600 rounds (goal: at
 * most 1.5 at 6,000), the /healthz p99 during each read (goal: at most 50 ms)
 * and the bytes per bet beside the 875 of the release before read models.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
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
/** Bytes per bet of the release before read models (journal, idempotency records, transfers). */
const BYTES_PER_BET_BEFORE = 875;
const HEALTHZ_PAUSE_MS = 5;
const REPEATS = 3;
const execFileAsync = promisify(execFile);

interface Built {
  readonly path: string;
  readonly rounds: number;
  readonly bets: number;
  readonly buildMs: number;
  /** A day in the middle of the table's history, for the daily report. */
  readonly reportDate: IsoDate;
  readonly bytes: { readonly file: number; readonly used: number };
  readonly byObject: Readonly<Record<string, number>>;
}

/** The table played with the service directly (no HTTP), on a clock of 300 rounds a day. */
async function build(dir: string, rounds: number, log: (line: string) => void): Promise<Built> {
  const path = join(dir, `history-${rounds}.db`);
  const start = macauDayStartMs(FIRST_DAY) + 10 * 60 * 60 * 1000;
  let done = 0;
  let tick = 0;
  const clock = (): number => start + done * ROUND_MS + (tick++ % 60_000);
  const store = await openSqliteStore({ path, currency: 'MOP', clock });
  const began = performance.now();
  const report = await playTable({
    store,
    tableId: 'T1',
    rounds,
    players: PLAYERS,
    seed: `history-${rounds}`,
    shaker: 'electronic',
    clock,
    onRound: (n) => {
      done = n;
      tick = 0;
    },
  });
  const buildMs = performance.now() - began;
  // What a server running at the end of the play keeps: the idempotency records of the
  // retry window (docs/ledger.md) and the table's fairness monitor, kept as it runs.
  await sweepExpiredCommands(store, clock());
  const fairness = new FairnessService({ store, tables: new TableService({ store, clock }) });
  await fairness.evaluate('T1');
  fairness.close();
  await store.close();
  const bytes = storage(path);
  log(
    `built ${rounds} rounds (${report.bets} bets) in ${round(buildMs / 1000)} s: ` +
      `${round(bytes.used / report.bets)} bytes a bet used, ${round(bytes.file / report.bets)} in the file`,
  );
  return {
    path,
    rounds,
    bets: report.bets,
    buildMs,
    reportDate: addDays(FIRST_DAY, Math.floor(rounds / 2 / ROUNDS_PER_DAY)),
    bytes,
    byObject: bytes.byObject,
  };
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
      expiresAtMs: now + 3_600_000,
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

/** Every read on one database: the first after a start, then the others (median of REPEATS). */
async function measure(built: Built, log: (line: string) => void): Promise<Reads> {
  const token = await inspectorToken(built.path);
  const port = await freePort();
  const began = performance.now();
  const server = await ServeProcess.start(['--db', built.path, '--port', String(port)], {});
  const reads: Reads = {
    restart: { ms: performance.now() - began, healthzP99Ms: 0, healthzPolls: 0 },
  };
  try {
    const t = '/api/v1/tables/T1';
    reads['first house-options'] = await timed(port, () => get(port, token, `${t}/house-options`));
    reads['first fairness'] = await timed(port, () => get(port, token, `${t}/fairness`));
    const repeated: Record<string, () => Promise<void>> = {
      'recall 10 rounds': () => get(port, token, `${t}/recall?rounds=10`),
      'daily report': () =>
        get(port, token, `${t}/reports/daily?date=${built.reportDate}&format=json`),
      holidays: () => get(port, token, '/api/v1/holidays'),
      'cli recall 1 round': () => cli(['recall', '--db', built.path, '--rounds', '1']),
      'cli report 1 day': () =>
        cli(['report', '--db', built.path, '--table', 'T1', '--date', built.reportDate]),
    };
    for (const [name, read] of Object.entries(repeated)) {
      const samples: Timed[] = [];
      for (let i = 0; i < REPEATS; i++) samples.push(await timed(port, read));
      reads[name] = {
        ms: median(samples.map((s) => s.ms)),
        healthzP99Ms: Math.max(...samples.map((s) => s.healthzP99Ms)),
        healthzPolls: samples.reduce((n, s) => n + s.healthzPolls, 0),
      };
    }
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  for (const [name, r] of Object.entries(reads))
    log(
      `  ${built.rounds} rounds, ${name}: ${round(r.ms)} ms` +
        (r.healthzPolls > 0
          ? `, /healthz p99 ${round(r.healthzP99Ms)} ms (${r.healthzPolls} polls)`
          : ''),
    );
  return reads;
}

export const historyBenchmark: Benchmark = {
  name: 'history',
  description:
    "reads of a long-lived table (600 vs 6,000 rounds; 60,000 with --large): each read's ratio to 600 rounds, /healthz p99 during it, bytes per bet",
  async run(log) {
    const sizes = process.argv.includes('--large') ? [600, 6_000, 60_000] : [600, 6_000];
    const dir = mkdtempSync(join(tmpdir(), 'cussec-history-'));
    const figures: Record<string, number | string> = {};
    try {
      const results: { built: Built; reads: Reads }[] = [];
      for (const rounds of sizes) {
        const built = await build(dir, rounds, log);
        results.push({ built, reads: await measure(built, log) });
      }
      const base = results[0]!;
      for (const { built, reads } of results) {
        const n = built.rounds;
        figures[`bytes_per_bet_used_${n}`] = round(built.bytes.used / built.bets);
        figures[`bytes_per_bet_file_${n}`] = round(built.bytes.file / built.bets);
        figures[`build_s_${n}`] = round(built.buildMs / 1000);
        for (const [name, r] of Object.entries(reads)) {
          const key = name.replaceAll(' ', '_').replaceAll('-', '_');
          figures[`${key}_ms_${n}`] = round(r.ms);
          if (r.healthzPolls > 0) figures[`${key}_healthz_p99_ms_${n}`] = round(r.healthzP99Ms);
          if (n !== base.built.rounds)
            figures[`${key}_ratio_${n}_to_${base.built.rounds}`] = round(
              r.ms / base.reads[name]!.ms,
            );
        }
      }
      const last = results[results.length - 1]!;
      log(`ratios to ${base.built.rounds} rounds (goal at 6,000: at most 1.5):`);
      for (const name of Object.keys(base.reads))
        log(
          `  ${name}: ` +
            results
              .slice(1)
              .map(
                ({ built, reads }) =>
                  `${built.rounds} rounds ${round(reads[name]!.ms / base.reads[name]!.ms)}×`,
              )
              .join(', '),
        );
      const worstP99 = Math.max(
        ...results.flatMap(({ reads }) => Object.values(reads).map((r) => r.healthzP99Ms)),
      );
      figures['healthz_p99_ms_worst'] = round(worstP99);
      log(`/healthz p99, worst read at any size: ${round(worstP99)} ms (goal: at most 50 ms)`);
      log(
        `bytes per bet at ${last.built.rounds} rounds: ${round(last.built.bytes.used / last.built.bets)} used ` +
          `(${round(last.built.bytes.file / last.built.bets)} in the file) beside ${BYTES_PER_BET_BEFORE} before; ` +
          `largest: ${Object.entries(last.built.byObject)
            .map(([k, v]) => `${k} ${round(v / last.built.bets)}`)
            .join(', ')}`,
      );
      figures['bytes_per_bet_before'] = BYTES_PER_BET_BEFORE;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return figures;
  },
};
