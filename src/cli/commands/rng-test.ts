/**
 * `cussec rng-test`: draws rolls from the electronic shaker and tests them for
 * fairness. Art. 1.1 asks for balanced dice; for an electronic shaker that is
 * a promise about its random number generator, and this is how it is checked.
 */
import type { Command } from 'commander';
import { cryptoDiceSource, type DiceSource, seededDiceSource } from '../../dice/index.js';
import {
  FairnessAccumulator,
  type FairnessReport,
  type FairnessTestResult,
} from '../../math/fairness.js';
import { CheckFailed, InputError } from '../errors.js';
import { decimal, grouped, table } from '../format.js';
import type { Io } from '../io.js';
import { type Progress, progressBar } from '../progress.js';

/** A billion rolls take about half a minute here; more is a typo, not a test. */
export const ROLLS_MAX = 1_000_000_000;
const CHUNK_ROLLS = 65_536;
// A progress bar is worth drawing only when the run lasts long enough to wonder.
const PROGRESS_ROLLS_MIN = 1_000_000;

interface RngTestOptions {
  readonly rolls: string;
  readonly seed?: string;
  readonly json?: boolean;
}

export function registerRngTest(program: Command, io: Io): void {
  program
    .command('rng-test')
    .description('draw rolls from the electronic shaker and test their fairness at the 99% level')
    .requiredOption(
      '--rolls <n>',
      `rolls of three dice to draw, 1 to ${grouped(ROLLS_MAX)} (1e7 works)`,
    )
    .option('--seed <seed>', 'draw from the seeded simulation source instead of the CSPRNG')
    .option('--json', 'print JSON instead of a table')
    .action((options: RngTestOptions) => {
      const rolls = readRolls(options.rolls);
      const source =
        options.seed === undefined ? cryptoDiceSource() : seededDiceSource(options.seed);
      const progress = rolls >= PROGRESS_ROLLS_MIN ? progressBar(io.stderr) : undefined;
      const report = drawAndTest(source, rolls, progress);
      io.stdout.write(options.json ? toJson(report, options.seed) : toText(report, options.seed));
      if (!report.pass) throw new CheckFailed(failureLine(report));
    });
}

/** "10000000" or "1e7": a whole number of rolls from 1 to ROLLS_MAX. */
export function readRolls(text: string): number {
  const rolls = /^[0-9]+(e[0-9]+)?$/i.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(rolls) || rolls < 1 || rolls > ROLLS_MAX) {
    throw new InputError(
      `--rolls must be a whole number from 1 to ${grouped(ROLLS_MAX)}, got "${text}"`,
    );
  }
  return rolls;
}

/** Draws `rolls` rolls in chunks, counting as it goes: memory stays flat whatever the size. */
export function drawAndTest(
  source: DiceSource,
  rolls: number,
  progress?: Progress,
): FairnessReport {
  const accumulator = new FairnessAccumulator();
  const faces = new Uint8Array(3 * Math.min(CHUNK_ROLLS, rolls));
  for (let drawn = 0; drawn < rolls;) {
    const chunk = Math.min(CHUNK_ROLLS, rolls - drawn);
    const view = faces.subarray(0, 3 * chunk);
    source.fillFaces(view);
    accumulator.addFaces(view);
    drawn += chunk;
    progress?.update(drawn / rolls);
  }
  progress?.done();
  return accumulator.report();
}

function sourceName(seed: string | undefined): string {
  return seed === undefined
    ? 'the CSPRNG shaker (node:crypto)'
    : `the seeded source (xoshiro128**, seed "${seed}")`;
}

function pText(p: number): string {
  if (Number.isNaN(p)) return 'n/a';
  return p >= 0.0001 ? decimal(p, 4) : p.toExponential(2);
}

function toText(report: FairnessReport, seed: string | undefined): string {
  const rows = report.tests.map((t) => [
    t.name,
    Number.isNaN(t.statistic) ? 'n/a' : decimal(t.statistic, 3),
    t.df === null ? '' : String(t.df),
    pText(t.pValue),
    t.pass ? 'PASS' : 'FAIL',
  ]);
  const header = ['Test', 'Statistic', 'df', 'p-value', 'Result'];
  const notes = report.tests
    .filter((t) => t.note !== undefined)
    .map((t) => `note: ${t.name}: ${t.note}\n`);
  const verdict = report.pass
    ? 'PASS: every test holds at the 99% level (p >= 0.01).\n'
    : 'FAIL: at least one test is below the 99% level (p < 0.01).\n';
  return (
    `${grouped(report.rolls)} rolls from ${sourceName(seed)}\n\n` +
    table(header, rows, ['left', 'right', 'right', 'right', 'left']) +
    '\n' +
    notes.join('') +
    'Chi-square tests: statistic and df. Runs and serial correlation: z, two-sided.\n' +
    verdict
  );
}

function toJson(report: FairnessReport, seed: string | undefined): string {
  const tests = report.tests.map((t: FairnessTestResult) => ({
    name: t.name,
    statistic: t.statistic,
    df: t.df,
    pValue: t.pValue,
    pass: t.pass,
    ...(t.note === undefined ? {} : { note: t.note }),
  }));
  const source = seed === undefined ? { source: 'crypto' } : { source: 'seeded', seed };
  // NaN (a test that cannot run on so few rolls) becomes null, as JSON.stringify does.
  return (
    JSON.stringify({ rolls: report.rolls, ...source, tests, pass: report.pass }, null, 2) + '\n'
  );
}

function failureLine(report: FairnessReport): string {
  const failed = report.tests
    .filter((t) => !t.pass)
    .map((t) => `${t.name} (p = ${pText(t.pValue)})`);
  // Five tests at 1% each: a fair shaker fails one about 5% of the time, so say what to do next.
  return `fairness check failed at the 99% level: ${failed.join(', ')}; test again on fresh rolls before concluding`;
}
