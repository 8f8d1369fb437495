/**
 * Durable bets per second through the TableService on SQLite: many simulated
 * clients bet on one table, each waiting for its answer (given only after the
 * commit that holds the bet) before sending the next, while a croupier plays
 * rounds of ROUND_BETS bets: ring the bell, reveal, pay, open the next. Bets
 * that meet a closed table wait for the next opening and are not counted.
 *
 * Group commit is what makes this fast: the bets that arrive while a batch
 * commits share the next commit. The baseline is what a service without it
 * would reach: one single-row insert per commit, synchronous=FULL, on the same
 * database.
 */
import Database from 'better-sqlite3';
import { createPrng } from '../src/dice/index.js';
import { TableService } from '../src/service/table-service.js';
import { type BenchDatabase, fundWallets, seconds, sqliteDatabase } from './databases.js';
import { type Benchmark, median, round } from './harness.js';
import { benchSettings, OPEN_STEPS, randomBet, SETTLE_STEPS, type Step } from './settle-round.js';

const CLIENTS = Number(process.env['BENCH_CLIENTS'] ?? 200);
export const ROUND_BETS = Number(process.env['BENCH_ROUND_BETS'] ?? 2_000);
const WARMUP_MS = 1_000;
const SAMPLES = 5;
const SAMPLE_MS = 1_000;
const BASELINE_MS = 300;
const TABLE = 'D1';

/** Where betting stands, shared by the croupier and the clients. */
class Gate {
  open = false;
  private waiting: (() => void)[] = [];
  betsThisRound = 0;

  opened(): Promise<void> {
    return this.open ? Promise.resolve() : new Promise((r) => this.waiting.push(r));
  }

  setOpen(open: boolean): void {
    this.open = open;
    if (!open) return;
    this.betsThisRound = 0;
    for (const wake of this.waiting.splice(0)) wake();
  }
}

/** Lets the measurement stop the table between samples, to run the baseline on a quiet file. */
class Pause {
  private paused = false;
  private waiting: (() => void)[] = [];
  inFlight = 0;

  async until(): Promise<void> {
    while (this.paused) await new Promise<void>((r) => this.waiting.push(r));
  }

  async pause(): Promise<void> {
    this.paused = true;
    while (this.inFlight > 0) await new Promise((r) => setTimeout(r, 1));
  }

  resume(): void {
    this.paused = false;
    for (const wake of this.waiting.splice(0)) wake();
  }
}

interface Counters {
  measuring: boolean;
  stopped: boolean;
  acknowledged: number;
  latenciesMs: number[];
  rounds: number;
}

async function croupier(service: TableService, gate: Gate, pause: Pause, c: Counters) {
  const step = async (command: Step) => {
    await pause.until();
    pause.inFlight++;
    const outcome = await service.execute({ tableId: TABLE, command });
    pause.inFlight--;
    if (!outcome.ok) throw new Error(`bench: ${command.type} refused: ${outcome.rejection.code}`);
  };
  while (!c.stopped) {
    for (const command of OPEN_STEPS) await step(command);
    gate.setOpen(true);
    while (gate.betsThisRound < ROUND_BETS && !c.stopped)
      await new Promise((r) => setTimeout(r, 1));
    gate.setOpen(false);
    for (const command of SETTLE_STEPS) await step(command);
    c.rounds++;
  }
}

async function client(service: TableService, id: number, gate: Gate, pause: Pause, c: Counters) {
  const prng = createPrng(`client-${id}`);
  for (let n = 0; !c.stopped; n++) {
    await gate.opened();
    await pause.until();
    if (c.stopped) return;
    const command = randomBet(prng, `c${id}-${n}`, `c${id}`);
    const measured = c.measuring;
    const start = process.hrtime.bigint();
    pause.inFlight++;
    const outcome = await service.execute({
      tableId: TABLE,
      command,
      idempotencyKey: `bench:${id}:${n}`,
    });
    pause.inFlight--;
    if (outcome.ok) {
      gate.betsThisRound++;
      if (measured && c.measuring) {
        c.acknowledged++;
        c.latenciesMs.push(seconds(start) * 1e3);
      }
    } else if (!['betting_closed', 'betting_not_open'].includes(outcome.rejection.code)) {
      throw new Error(`bench: a bet was refused: ${outcome.rejection.code}`);
    }
  }
}

/** Commits per second of single-row inserts, one transaction each (no group commit). */
function oneRowPerCommit(db: Database.Database, durationMs: number): number {
  const insert = db.prepare('INSERT INTO bench_commit (body) VALUES (?)');
  const start = process.hrtime.bigint();
  let rows = 0;
  while (seconds(start) * 1e3 < durationMs) {
    insert.run(`bet ${rows}`);
    rows++;
  }
  return rows / seconds(start);
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function measure(db: BenchDatabase & { path: string }, log: (line: string) => void) {
  const service = new TableService({ store: db.store, random: createPrng('durable') });
  await service.createTable(benchSettings(TABLE));
  await fundWallets(
    db.store,
    Array.from({ length: CLIENTS }, (_, i) => `c${i}`),
    1_000_000_000_000,
  );
  const plain = new Database(db.path);
  plain.pragma('journal_mode = WAL');
  plain.pragma('synchronous = FULL');
  plain.pragma('busy_timeout = 5000');
  plain.exec('CREATE TABLE bench_commit (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT');
  const gate = new Gate();
  const pause = new Pause();
  const c: Counters = {
    measuring: false,
    stopped: false,
    acknowledged: 0,
    latenciesMs: [],
    rounds: 0,
  };
  const running = [croupier(service, gate, pause, c)];
  for (let i = 0; i < CLIENTS; i++) running.push(client(service, i, gate, pause, c));
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  const rates: number[] = [];
  const baselines: number[] = [];
  const ratios: number[] = [];
  const roundsBefore = c.rounds;
  // Samples of the table and of the baseline alternate, so that load from
  // other processes on a shared machine falls on both alike.
  for (let s = 0; s < SAMPLES; s++) {
    const acknowledged = c.acknowledged;
    c.measuring = true;
    const start = process.hrtime.bigint();
    await new Promise((r) => setTimeout(r, SAMPLE_MS));
    c.measuring = false;
    const rate = (c.acknowledged - acknowledged) / seconds(start);
    await pause.pause();
    const baseline = oneRowPerCommit(plain, BASELINE_MS);
    pause.resume();
    rates.push(rate);
    baselines.push(baseline);
    ratios.push(rate / baseline);
    log(
      `  sample ${s + 1}: ${Math.round(rate)} bets/s; baseline ${Math.round(baseline)} commits/s`,
    );
  }
  const rounds = c.rounds - roundsBefore;
  c.stopped = true;
  gate.setOpen(true);
  await Promise.all(running);
  await service.drainAll();
  plain.close();
  const sorted = [...c.latenciesMs].sort((a, b) => a - b);
  log(`  ${c.acknowledged} bets acknowledged over ${rounds} rounds while measuring`);
  return {
    clients: CLIENTS,
    roundBets: ROUND_BETS,
    betsPerSecond: Math.round(median(rates)),
    baselineCommitsPerSecond: Math.round(median(baselines)),
    ratio: round(median(ratios)),
    latencyMsP50: Number(percentile(sorted, 0.5).toFixed(1)),
    latencyMsP99: Number(percentile(sorted, 0.99).toFixed(1)),
  };
}

export const durableBetsSqlite: Benchmark = {
  name: 'durable-bets-sqlite',
  description: `${CLIENTS} clients betting through the service on one SQLite table (rounds of ${ROUND_BETS.toLocaleString('en')} bets), each bet acknowledged after its commit, vs one single-row commit at a time`,
  run: async (log) => {
    const db = await sqliteDatabase();
    try {
      const figures = await measure(db, log);
      log(
        `durable-bets-sqlite: ${figures.betsPerSecond.toLocaleString('en')} bets/s (p50 ${figures.latencyMsP50} ms, p99 ${figures.latencyMsP99} ms), ` +
          `baseline ${figures.baselineCommitsPerSecond.toLocaleString('en')} commits/s, ratio ${figures.ratio} (goal ≥ 10,000 bets/s)`,
      );
      return figures;
    } finally {
      await db.dispose();
    }
  },
};
