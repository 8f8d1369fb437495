/**
 * `cussec simulate`: plays rolls and sets what each bet actually returned beside
 * the exact figure, with a 99% confidence interval, and tests the dice. It shows
 * a player or an inspector how far luck strays from the math over N rolls.
 */
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { type DiceSource, seededDiceSource } from '../../dice/index.js';
import {
  FairnessAccumulator,
  type FairnessTestResult,
  normalSurvival,
  spotOdds,
} from '../../math/index.js';
import { type Bet, type CompiledPaytable, SPOT_COUNT, spotById } from '../../rules/index.js';
import { InputError } from '../errors.js';
import { decimal, grouped, percent, table } from '../format.js';
import { collect, readBetOption, readPaytable } from '../inputs.js';
import type { Io } from '../io.js';
import { progressBar, type Progress } from '../progress.js';

export const ROUNDS_MAX = 1_000_000_000;
const CHUNK_ROLLS = 65_536;
/** Two-sided 99%: P(|Z| > 2.5758) = 0.01. */
const Z_99 = 2.5758293035489;

/** One unit on a spot of each of the thirteen bets of Art. 5, when no --bet is given. */
const DEFAULT_BETS = [
  'small',
  'big',
  'odd',
  'even',
  'single:1',
  'double:2',
  'triple:3',
  'any-triple',
  'total:5',
  'total:10',
  'two-dice:1-2',
  'three-dice:1-2-3',
  'double-single:1-2',
  'four-numbers:1-2-3-4',
].map((spot) => `${spot}=100`);

interface SimulateOptions {
  readonly rounds: string;
  readonly seed?: string;
  readonly bet: string[];
  readonly paytable?: string;
  readonly json?: boolean;
}

export interface BetOutcome {
  readonly spot: string;
  readonly stakeMinor: number;
  readonly rounds: number;
  readonly stakedMinor: number;
  readonly returnedMinor: number;
  /** Returned ÷ staked over the run. */
  readonly actualRtp: number;
  readonly exactRtp: number;
  /** The 99% interval around the exact figure in which the actual one falls by chance. */
  readonly interval99: readonly [number, number];
  readonly withinInterval: boolean;
  /** How far the actual figure is from the exact one, in standard errors. */
  readonly z: number;
}

export interface Simulation {
  readonly rounds: number;
  readonly seed: string;
  readonly bets: readonly BetOutcome[];
  readonly diceTests: readonly FairnessTestResult[];
}

export function registerSimulate(program: Command, io: Io): void {
  program
    .command('simulate')
    .description('play N rolls and compare what bets returned with the exact figures')
    .requiredOption('--rounds <n>', `rolls to play, 1 to ${grouped(ROUNDS_MAX)} (1e6 works)`)
    .option(
      '--seed <seed>',
      'seed of the simulation source (default: a fresh random seed, printed)',
    )
    .option(
      '--bet <spot=stake>',
      'a bet placed every round (repeatable; default: one of each kind)',
      collect,
      [],
    )
    .option('--paytable <file>', "a paytable JSON document (default: the regulation's default)")
    .option('--json', 'print JSON instead of a table')
    .action((options: SimulateOptions) => {
      const rounds = readRounds(options.rounds);
      const compiled = readPaytable(options.paytable);
      const bets = (options.bet.length > 0 ? options.bet : DEFAULT_BETS).map((b) =>
        readBetOption(b, compiled),
      );
      for (const bet of bets) {
        const most =
          bet.stakeMinor * rounds * compiled.maxReturnMultiplier[spotById(bet.spot)!.index]!;
        if (!Number.isSafeInteger(most)) {
          throw new InputError(
            `--bet ${bet.spot}=${bet.stakeMinor}: stake × rounds is too large to count exactly; use a smaller stake`,
          );
        }
      }
      const seed = options.seed ?? randomBytes(8).toString('hex');
      const progress = rounds >= 1_000_000 ? progressBar(io.stderr) : undefined;
      const result = simulate(compiled, bets, rounds, seed, seededDiceSource(seed), progress);
      io.stdout.write(options.json ? JSON.stringify(result, null, 2) + '\n' : toText(result));
    });
}

function readRounds(text: string): number {
  const rounds = /^[0-9]+(e[0-9]+)?$/i.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(rounds) || rounds < 1 || rounds > ROUNDS_MAX) {
    throw new InputError(
      `--rounds must be a whole number from 1 to ${grouped(ROUNDS_MAX)}, got "${text}"`,
    );
  }
  return rounds;
}

/** Plays `rounds` rolls from `source`, the same bets every roll, counting in typed arrays. */
export function simulate(
  table: CompiledPaytable,
  bets: readonly Bet[],
  rounds: number,
  seed: string,
  source: DiceSource,
  progress?: Progress,
): Simulation {
  const spots = Uint8Array.from(bets, (b) => spotById(b.spot)!.index);
  // How often each outcome came up is all that settlement needs: returns follow from it.
  const outcomeCounts = new Float64Array(216);
  const fairness = new FairnessAccumulator();
  const faces = new Uint8Array(3 * Math.min(CHUNK_ROLLS, rounds));
  for (let played = 0; played < rounds;) {
    const chunk = Math.min(CHUNK_ROLLS, rounds - played);
    const view = faces.subarray(0, 3 * chunk);
    source.fillFaces(view);
    fairness.addFaces(view);
    for (let i = 0; i < view.length; i += 3) {
      outcomeCounts[(view[i]! - 1) * 36 + (view[i + 1]! - 1) * 6 + (view[i + 2]! - 1)]!++;
    }
    played += chunk;
    progress?.update(played / rounds);
  }
  progress?.done();
  const outcomes = bets.map((bet, i) => betOutcome(table, bet, spots[i]!, outcomeCounts, rounds));
  const diceTests = fairness
    .report()
    .tests.filter((t) => t.name === 'faces chi-square' || t.name === 'totals chi-square');
  return { rounds, seed, bets: outcomes, diceTests };
}

function betOutcome(
  table: CompiledPaytable,
  bet: Bet,
  spot: number,
  outcomeCounts: Float64Array,
  rounds: number,
): BetOutcome {
  let multiplierSum = 0;
  outcomeCounts.forEach((count, o) => {
    multiplierSum += count * table.returnMultipliers[o * SPOT_COUNT + spot]!;
  });
  const exact = spotOdds(table, spotById(bet.spot)!);
  const actualRtp = multiplierSum / rounds;
  const standardError = exact.stdDev / Math.sqrt(rounds);
  const z = standardError === 0 ? 0 : (actualRtp - exact.rtp) / standardError;
  return {
    spot: bet.spot,
    stakeMinor: bet.stakeMinor,
    rounds,
    stakedMinor: bet.stakeMinor * rounds,
    returnedMinor: bet.stakeMinor * multiplierSum,
    actualRtp,
    exactRtp: exact.rtp,
    interval99: [exact.rtp - Z_99 * standardError, exact.rtp + Z_99 * standardError],
    withinInterval: Math.abs(z) <= Z_99,
    z,
  };
}

function toText(s: Simulation): string {
  const rows = s.bets.map((b) => [
    b.spot,
    grouped(b.stakedMinor),
    grouped(b.returnedMinor),
    percent(b.actualRtp),
    percent(b.exactRtp),
    `${percent(b.interval99[0])} – ${percent(b.interval99[1])}`,
    decimal(b.z, 2),
    b.withinInterval ? 'yes' : 'NO',
  ]);
  const tests = s.diceTests.map((t) => [
    t.name,
    decimal(t.statistic, 3),
    String(t.df ?? ''),
    decimal(t.pValue, 4),
    t.pass ? 'PASS' : 'FAIL',
  ]);
  const outside = s.bets.filter((b) => !b.withinInterval).length;
  return (
    `${grouped(s.rounds)} rolls, seed ${s.seed} (rerun with --seed ${s.seed})\n\n` +
    table(
      ['Spot', 'Staked', 'Returned', 'Actual RTP', 'Exact RTP', '99% interval', 'z', 'Inside'],
      rows,
      ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
    ) +
    `\n${outside === 0 ? 'Every bet' : `${s.bets.length - outside} of ${s.bets.length} bets`} returned within the 99% interval around its exact figure` +
    ` (a fair game leaves about 1 in 100 outside by chance; P(|z| > 2.58) = ${decimal(2 * normalSurvival(Z_99), 2)}).\n\n` +
    table(['Dice test', 'Chi-square', 'df', 'p-value', 'Result'], tests, [
      'left',
      'right',
      'right',
      'right',
      'left',
    ])
  );
}
