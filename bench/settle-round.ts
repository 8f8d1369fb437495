/**
 * Settling a round of 10,000 bets through the TableService, on SQLite and on
 * PostgreSQL: the reveal (dice-revealed and round-settled journal entries) and
 * pay-all (prizes-paid, the stakes-collected transfer and one payout transfer a
 * winning bet), each its own transaction with the croupier's idempotency key,
 * as a console sends them. Placing the bets is setup and not timed.
 *
 * Rows per second counts the transfers and journal entries the settlement
 * writes. The baseline inserts as many plain rows with one prepared statement
 * in one transaction on the same database, right after each round, and the
 * median of the per-round ratios is reported.
 */
import { createPrng, type Prng } from '../src/dice/index.js';
import { type SpotKind, SPOTS } from '../src/rules/index.js';
import { simulatedTableSettings } from '../src/service/table-settings.js';
import { type CommandOutcome, TableService } from '../src/service/table-service.js';
import type { Command } from '../src/table/index.js';
import {
  type BenchDatabase,
  fundWallets,
  postgresDatabase,
  seconds,
  sqliteDatabase,
} from './databases.js';
import { type Benchmark, median, round } from './harness.js';

export const ROUND_BETS = 10_000;
const PLAYERS = 2_000;
const SAMPLES = 9;
/** Rounds that warm up the caches and the JIT (one settlement a round is slow to get hot). */
const WARMUP_ROUNDS = 3;
const TABLE = 'B1';
/** Waits longer than the store's delay before a checkpoint, and the checkpoint itself. */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 300));

/** Spots grouped by kind: a bet picks a kind of Art. 5, then a spot of it, as players spread. */
const SPOTS_BY_KIND: readonly (readonly string[])[] = (() => {
  const byKind = new Map<SpotKind, string[]>();
  for (const s of SPOTS) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s.id]);
  return [...byKind.values()];
})();

export function randomBet(prng: Prng, betId: string, playerId: string): Command {
  return {
    type: 'place-bet',
    betId,
    playerId,
    spot: prng.pick(prng.pick(SPOTS_BY_KIND)),
    stakeMinor: 1_000 * prng.int(1, 20),
  };
}

export type Step = Command | { readonly type: 'trigger-shaker' };
/** The croupier's steps up to betting, and from the bell to the payment. */
export const OPEN_STEPS: readonly Step[] = [
  { type: 'cover' },
  { type: 'fasten-latches' },
  { type: 'trigger-shaker' },
  { type: 'open-betting' },
];
export const SETTLE_STEPS: readonly Step[] = [
  { type: 'ring-bell' },
  { type: 'lift-dome' },
  { type: 'reveal-dice' },
  { type: 'pay-all' },
];

/** The table of the benchmarks: no timer, and limits wide enough never to refuse a bet. */
export function benchSettings(tableId: string, betsPerRoundMax = 20_000) {
  return {
    ...simulatedTableSettings(tableId),
    bettingTimerMs: null,
    betsPerRoundMax,
    liabilityMinorMax: Number.MAX_SAFE_INTEGER,
  };
}

async function must(outcome: Promise<CommandOutcome>, what: string): Promise<CommandOutcome> {
  const o = await outcome;
  if (!o.ok) throw new Error(`bench: ${what} refused: ${o.rejection.code}`);
  return o;
}

/** Opens a round and places ROUND_BETS bets (not timed); the bell rings and the dome is lifted. */
async function placeRound(service: TableService, prng: Prng, roundNo: number): Promise<void> {
  const run = (command: Step) => must(service.execute({ tableId: TABLE, command }), command.type);
  for (const command of OPEN_STEPS) await run(command);
  const bets: Promise<CommandOutcome>[] = [];
  for (let i = 0; i < ROUND_BETS; i++)
    bets.push(run(randomBet(prng, `r${roundNo}b${i}`, `p${i % PLAYERS}`)));
  await Promise.all(bets);
  await run({ type: 'ring-bell' });
  await run({ type: 'lift-dome' });
}

/** Times reveal + pay-all; returns the seconds and the rows (transfers + journal entries) written. */
async function settleRound(
  service: TableService,
  roundNo: number,
): Promise<{ seconds: number; revealSeconds: number; rows: number; transfers: number }> {
  const key = (step: string) => `bench:${TABLE}:${roundNo}:${step}`;
  const start = process.hrtime.bigint();
  const revealed = await must(
    service.execute({
      tableId: TABLE,
      command: { type: 'reveal-dice' },
      idempotencyKey: key('reveal'),
    }),
    'reveal-dice',
  );
  const revealSeconds = seconds(start);
  const paid = await must(
    service.execute({ tableId: TABLE, command: { type: 'pay-all' }, idempotencyKey: key('pay') }),
    'pay-all',
  );
  const elapsed = seconds(start);
  const events = [...(revealed.ok ? revealed.events : []), ...(paid.ok ? paid.events : [])];
  const prizes = events.find((e) => e.event.type === 'prizes-paid')!.event;
  const payouts = prizes.type === 'prizes-paid' ? prizes.payoutCount : 0;
  // One stakes-collected transfer, then a payout a winning bet (src/service/money.ts).
  const transfers = 1 + payouts;
  return { seconds: elapsed, revealSeconds, rows: transfers + events.length, transfers };
}

async function measure(db: BenchDatabase, log: (line: string) => void) {
  const prng = createPrng('settle-round');
  const service = new TableService({ store: db.store, random: prng });
  await service.createTable(benchSettings(TABLE));
  await fundWallets(
    db.store,
    Array.from({ length: PLAYERS }, (_, i) => `p${i}`),
    1_000_000_000,
  );
  const rates: number[] = [];
  const baselines: number[] = [];
  const ratios: number[] = [];
  const strictRatios: number[] = [];
  let rows = 0;
  for (let r = 1; r <= WARMUP_ROUNDS + SAMPLES; r++) {
    await placeRound(service, prng, r);
    // Placing the bets is setup: its checkpoint runs before the clock starts, not during it.
    await quiet();
    const settled = await settleRound(service, r);
    // The baseline gets a quiet file too: the settlement's checkpoint has run by then.
    await quiet();
    const baselineSeconds = await db.insertPlainRows(settled.rows);
    const strictSeconds = await db.insertPlainRowsAtOnce?.(settled.rows);
    if (r <= WARMUP_ROUNDS) continue;
    if (strictSeconds !== undefined) strictRatios.push(strictSeconds / settled.seconds);
    rows = settled.rows;
    rates.push(settled.rows / settled.seconds);
    baselines.push(settled.rows / baselineSeconds);
    ratios.push(baselineSeconds / settled.seconds);
    log(
      `  round ${r}: ${settled.rows} rows (${settled.transfers} transfers) in ${(settled.seconds * 1e3).toFixed(1)} ms ` +
        `(reveal ${(settled.revealSeconds * 1e3).toFixed(1)}); ` +
        `baseline ${(baselineSeconds * 1e3).toFixed(1)} ms`,
    );
  }
  await service.drainAll();
  return {
    bets: ROUND_BETS,
    rowsPerRound: rows,
    rowsPerSecond: Math.round(median(rates)),
    baselineRowsPerSecond: Math.round(median(baselines)),
    ratio: round(median(ratios)),
    ...(strictRatios.length === 0 ? {} : { ratioToOneInsert: round(median(strictRatios)) }),
  };
}

function settleRoundBenchmark(
  engine: 'sqlite' | 'postgres',
  open: () => Promise<BenchDatabase | string>,
): Benchmark {
  return {
    name: `settle-round-${engine}`,
    description: `settling a round of ${ROUND_BETS.toLocaleString('en')} bets through the service on ${engine} (reveal + pay-all) vs plain rows by one prepared statement in one transaction`,
    run: async (log) => {
      const db = await open();
      if (typeof db === 'string') {
        log(`settle-round-${engine}: SKIPPED — ${db}`);
        return { skipped: db };
      }
      try {
        const figures = await measure(db, log);
        log(
          `settle-round-${engine}: ${figures.rowsPerSecond.toLocaleString('en')} rows/s, ` +
            `baseline ${figures.baselineRowsPerSecond.toLocaleString('en')} rows/s, ratio ${figures.ratio} (goal ≥ 0.3)` +
            ('ratioToOneInsert' in figures
              ? `; ${figures.ratioToOneInsert} of one multi-row INSERT`
              : ''),
        );
        return figures;
      } finally {
        await db.dispose();
      }
    },
  };
}

export const settleRoundSqlite = settleRoundBenchmark('sqlite', sqliteDatabase);
export const settleRoundPostgres = settleRoundBenchmark('postgres', postgresDatabase);
