/**
 * `cussec settle`: what bets win on a roll. With --dice it settles one round
 * given on the command line; without, it reads rounds as NDJSON on standard
 * input and writes one settled round a line (batch settlement, replay).
 */
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import {
  type Bet,
  type CompiledPaytable,
  type Dice,
  diceTotal,
  isDice,
  isRecord,
  settle,
  type SettledBet,
} from '../../rules/index.js';
import { InputError } from '../errors.js';
import { grouped, table } from '../format.js';
import type { Io } from '../io.js';
import { checkBet, collect, readBetOption, readDice, readPaytable } from '../inputs.js';

interface SettleOptions {
  readonly dice?: string;
  readonly bet: string[];
  readonly paytable?: string;
  readonly json?: boolean;
}

/** A line longer than this is refused rather than buffered without bound. */
const LINE_CHARS_MAX = 1_000_000;

export function registerSettle(program: Command, io: Io): void {
  program
    .command('settle')
    .description(
      'settle bets on a roll; without --dice, settle NDJSON rounds read from standard input',
    )
    .option('--dice <a,b,c>', 'the three faces, e.g. 2,2,5')
    .option('--bet <spot=stake>', 'a bet in minor units, e.g. small=100 (repeatable)', collect, [])
    .option('--paytable <file>', "a paytable JSON document (default: the regulation's default)")
    .option('--json', 'print the settled round as JSON')
    .action(async (options: SettleOptions) => {
      const compiled = readPaytable(options.paytable);
      if (options.dice === undefined) {
        if (options.bet.length > 0)
          throw new InputError('--bet needs --dice; rounds on standard input carry their own bets');
        await settleStream(compiled, io);
        return;
      }
      const dice = readDice(options.dice);
      if (options.bet.length === 0) throw new InputError('give at least one --bet SPOT=STAKE');
      const settled = settle(
        compiled,
        dice,
        options.bet.map((b) => readBetOption(b, compiled)),
      );
      io.stdout.write(
        options.json
          ? JSON.stringify(roundJson({}, dice, settled)) + '\n'
          : roundText(dice, settled),
      );
    });
}

/** The wire form of a settled round: the bet fields are named as in the input. */
function roundJson(
  extra: Record<string, unknown>,
  dice: Dice,
  settled: readonly SettledBet[],
): object {
  return {
    ...extra,
    dice,
    bets: settled.map((b) => ({
      spot: b.spot,
      stake: b.stakeMinor,
      win: b.winMinor,
      returned: b.returnedMinor,
    })),
  };
}

function roundText(dice: Dice, settled: readonly SettledBet[]): string {
  const rows = settled.map((b) => [
    b.spot,
    grouped(b.stakeMinor),
    grouped(b.winMinor),
    grouped(b.returnedMinor),
  ]);
  const staked = settled.reduce((s, b) => s + b.stakeMinor, 0);
  const returned = settled.reduce((s, b) => s + b.returnedMinor, 0);
  const net = returned - staked;
  return (
    `Dice ${dice.join(' ')} · total ${diceTotal(dice)}\n\n` +
    table(['Spot', 'Stake', 'Win', 'Returned'], rows, ['left', 'right', 'right', 'right']) +
    `\nStaked ${grouped(staked)}, returned ${grouped(returned)}, player ${net >= 0 ? '+' : '−'}${grouped(Math.abs(net))} (minor units).\n`
  );
}

async function settleStream(compiled: CompiledPaytable, io: Io): Promise<void> {
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  let lineNo = 0;
  let written = 0;
  try {
    for await (const line of lines) {
      lineNo++;
      if (line.trim() === '') continue;
      const { extra, dice, bets } = parseRound(line, lineNo, compiled);
      io.stdout.write(JSON.stringify(roundJson(extra, dice, settle(compiled, dice, bets))) + '\n');
      written++;
    }
  } catch (error) {
    if (error instanceof InputError) {
      throw new InputError(
        `${error.message} (stopped there: the ${written} round(s) before it were written)`,
      );
    }
    throw error;
  } finally {
    lines.close();
  }
}

/** One NDJSON round: {"dice":[a,b,c],"bets":[{"spot":…,"stake":…}]}; other top-level fields pass through. */
function parseRound(
  line: string,
  lineNo: number,
  compiled: CompiledPaytable,
): { extra: Record<string, unknown>; dice: Dice; bets: Bet[] } {
  const at = `line ${lineNo}`;
  if (line.length > LINE_CHARS_MAX)
    throw new InputError(`${at}: longer than ${LINE_CHARS_MAX} characters`);
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch {
    throw new InputError(`${at}: not valid JSON`);
  }
  if (!isRecord(doc))
    throw new InputError(`${at}: a round must be a JSON object with "dice" and "bets"`);
  const { dice, bets, ...extra } = doc;
  if (!isDice(dice))
    throw new InputError(`${at}: "dice" must be exactly three faces 1–6 (Art. 1.1)`);
  if (!Array.isArray(bets)) throw new InputError(`${at}: "bets" must be an array`);
  const parsed = bets.map((b: unknown, i) => {
    const where = `${at}, bet ${i + 1}`;
    if (!isRecord(b) || typeof b['spot'] !== 'string')
      throw new InputError(`${where}: a bet is {"spot": "…", "stake": N}`);
    const stake = b['stake'];
    if (typeof stake !== 'number' || !Number.isSafeInteger(stake) || stake <= 0) {
      throw new InputError(
        `${where}: a stake must be a whole number of minor units above 0, got ${JSON.stringify(stake ?? null)}`,
      );
    }
    return checkBet({ spot: b['spot'], stakeMinor: stake }, compiled, where);
  });
  return { extra, dice, bets: parsed };
}
