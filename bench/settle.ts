/**
 * Settlement throughput: the engine the table service runs (`settleRound` of
 * src/table, over src/rules' `settleReturns`) and the per-bet object API
 * (`settle`), each against a bare Float64Array lookup settling the same bets
 * on the same rolls.
 */
import { randomInt } from 'node:crypto';
import {
  DEFAULT_COMPILED,
  type Dice,
  OUTCOME_COUNT,
  outcomeDice,
  outcomeIndex,
  settle,
  SPOT_COUNT,
  spotById,
  SPOTS,
} from '../src/rules/index.js';
import { simulatedTableSettings, toTableConfig } from '../src/service/table-settings.js';
import { type PlacedBet, settleRound } from '../src/table/index.js';
import { type Benchmark, compare, round } from './harness.js';

const BETS_PER_ROUND = 1_000;
const ROUNDS = 64;
const PLAYERS = 50;

export const settleBenchmark: Benchmark = {
  name: 'settle',
  description: `the service's settlement engine settling rounds of ${BETS_PER_ROUND} bets vs a bare Float64Array lookup`,
  run: (log) => {
    const rounds = Array.from({ length: ROUNDS }, (): Round => ({
      dice: outcomeDice(randomInt(OUTCOME_COUNT)),
      bets: Array.from({ length: BETS_PER_ROUND }, (_, i): PlacedBet => ({
        betId: `b${i}`,
        playerId: `p${i % PLAYERS}`,
        spot: SPOTS[randomInt(SPOTS.length)]!.id,
        stakeMinor: randomInt(1, 100_000),
        rollNo: 1,
        placedAtMs: 0,
      })),
    }));
    const engine = compare(makeEngine(rounds), makeBaseline(rounds), ROUNDS * BETS_PER_ROUND);
    const objects = compare(makeObjectApi(rounds), makeBaseline(rounds), ROUNDS * BETS_PER_ROUND);
    const perSecond = (n: number): string => Math.round(n).toLocaleString('en');
    log(
      `settle: engine (settleRound) ${perSecond(engine.subject)} settlements/s, ` +
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
  readonly bets: readonly PlacedBet[];
}

/** What the reveal of a round runs in the table service: the machine's settlement. */
function makeEngine(rounds: readonly Round[]): () => number {
  const config = toTableConfig(simulatedTableSettings('BENCH'));
  return () => {
    let sum = 0;
    for (const r of rounds) sum += settleRound(config, r.dice, r.bets).totalReturnedMinor;
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

/** The least work that settles a bet: one multiply by a precomputed return, bets in columns. */
function makeBaseline(rounds: readonly Round[]): () => number {
  const table = Float64Array.from(DEFAULT_COMPILED.returnMultipliers);
  const columns = rounds.map((r) => ({
    row: outcomeIndex(r.dice) * SPOT_COUNT,
    spotIndex: Uint8Array.from(r.bets, (b) => spotById(b.spot)!.index),
    stakeMinor: Float64Array.from(r.bets, (b) => b.stakeMinor),
    returnedMinor: new Float64Array(r.bets.length),
  }));
  return () => {
    let sum = 0;
    for (const c of columns) {
      for (let i = 0; i < c.stakeMinor.length; i++) {
        c.returnedMinor[i] = c.stakeMinor[i]! * table[c.row + c.spotIndex[i]!]!;
      }
      sum += c.returnedMinor[c.returnedMinor.length - 1]!;
    }
    return sum;
  };
}
