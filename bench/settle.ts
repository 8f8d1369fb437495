/**
 * Settlement throughput: the engine's `settle()` against a bare Float64Array
 * lookup settling the same bets on the same rolls.
 */
import { randomInt } from 'node:crypto';
import {
  type Bet,
  type BetColumns,
  DEFAULT_COMPILED,
  type Dice,
  OUTCOME_COUNT,
  outcomeDice,
  outcomeIndex,
  settle,
  settleColumns,
  SPOT_COUNT,
  spotById,
  SPOTS,
} from '../src/rules/index.js';
import { type Benchmark, compare, round } from './harness.js';

const BETS_PER_ROUND = 1_000;
const ROUNDS = 64;

export const settleBenchmark: Benchmark = {
  name: 'settle',
  description: `the engine settling rounds of ${BETS_PER_ROUND} bets vs a bare Float64Array lookup`,
  run: (log) => {
    const rounds = Array.from({ length: ROUNDS }, () => ({
      dice: outcomeDice(randomInt(OUTCOME_COUNT)),
      bets: Array.from({ length: BETS_PER_ROUND }, (): Bet => ({
        spot: SPOTS[randomInt(SPOTS.length)]!.id,
        stakeMinor: randomInt(1, 100_000),
      })),
    }));
    const columns = rounds.map(toColumns);
    const engine = compare(makeEngine(columns), makeBaseline(columns), ROUNDS * BETS_PER_ROUND);
    const objects = compare(makeObjectApi(rounds), makeBaseline(columns), ROUNDS * BETS_PER_ROUND);
    const perSecond = (n: number): string => Math.round(n).toLocaleString('en');
    log(
      `settle: engine (settleColumns) ${perSecond(engine.subject)} settlements/s, ` +
        `baseline ${perSecond(engine.baseline)}/s, ratio ${round(engine.ratio)}`,
    );
    log(
      `settle: object API (settle) ${perSecond(objects.subject)} settlements/s, ` +
        `baseline ${perSecond(objects.baseline)}/s, ratio ${round(objects.ratio)}`,
    );
    return {
      engineSettlementsPerSecond: Math.round(engine.subject),
      baselineSettlementsPerSecond: Math.round(engine.baseline),
      ratio: round(engine.ratio),
      objectApiSettlementsPerSecond: Math.round(objects.subject),
      objectApiBaselineSettlementsPerSecond: Math.round(objects.baseline),
      objectApiRatio: round(objects.ratio),
    };
  },
};

interface Round {
  readonly dice: Dice;
  readonly bets: readonly Bet[];
}

interface Columns extends BetColumns {
  readonly dice: Dice;
  readonly returnedMinor: Float64Array;
}

function toColumns(r: Round): Columns {
  return {
    dice: r.dice,
    spotIndex: Uint8Array.from(r.bets, (b) => spotById(b.spot)!.index),
    stakeMinor: Float64Array.from(r.bets, (b) => b.stakeMinor),
    returnedMinor: new Float64Array(r.bets.length),
  };
}

function makeEngine(columns: readonly Columns[]): () => number {
  return () => {
    let sum = 0;
    for (const c of columns) sum += settleColumns(DEFAULT_COMPILED, c.dice, c, c.returnedMinor);
    return sum;
  };
}

function makeObjectApi(rounds: readonly Round[]): () => number {
  return () => {
    let sum = 0;
    for (const r of rounds) {
      const settled = settle(DEFAULT_COMPILED, r.dice, r.bets);
      sum += settled[settled.length - 1]!.returnedMinor;
    }
    return sum;
  };
}

/** The least work that settles a bet: one multiply by a precomputed return. */
function makeBaseline(columns: readonly Columns[]): () => number {
  const table = Float64Array.from(DEFAULT_COMPILED.returnMultipliers);
  const rows = columns.map((c) => outcomeIndex(c.dice) * SPOT_COUNT);
  return () => {
    let sum = 0;
    columns.forEach((c, r) => {
      const row = rows[r]!;
      for (let i = 0; i < c.stakeMinor.length; i++) {
        c.returnedMinor[i] = c.stakeMinor[i]! * table[row + c.spotIndex[i]!]!;
      }
      sum += c.returnedMinor[c.returnedMinor.length - 1]!;
    });
    return sum;
  };
}
