/**
 * Parsing of the command line's shared inputs: paytable files, dice and bets.
 * Every failure is an InputError with one line that says what was wrong.
 */
import { readFileSync } from 'node:fs';
import {
  type Bet,
  type CompiledPaytable,
  DEFAULT_COMPILED,
  type Dice,
  describeViolation,
  loadPaytable,
  parseDice,
  validateBet,
} from '../rules/index.js';
import { InputError } from './errors.js';

/** The default paytable, or the one in `path`, checked against the regulation. */
export function readPaytable(path: string | undefined): CompiledPaytable {
  if (path === undefined) return DEFAULT_COMPILED;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new InputError(`cannot read paytable ${path} (${code})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new InputError(`paytable ${path} is not valid JSON`);
  }
  const loaded = loadPaytable(doc);
  if (!loaded.ok) throw new InputError(`paytable ${path}: ${describeViolation(loaded.error)}`);
  return loaded.value;
}

export function readDice(text: string): Dice {
  const dice = parseDice(text);
  if ('error' in dice) throw new InputError(dice.error);
  return dice;
}

/** A stake as typed: digits only, so "1e3", "0x10", "10.5" and "-5" are all refused. */
export function readStake(text: string, context: string): number {
  const stake = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(stake) || stake <= 0) {
    throw new InputError(
      `${context}: a stake must be a whole number of minor units above 0, got "${text}"`,
    );
  }
  return stake;
}

/** "single:2=50" → a bet, validated against the paytable. */
export function readBetOption(text: string, table: CompiledPaytable): Bet {
  const at = text.lastIndexOf('=');
  if (at <= 0) throw new InputError(`--bet must be SPOT=STAKE, e.g. small=100, got "${text}"`);
  const bet = {
    spot: text.slice(0, at),
    stakeMinor: readStake(text.slice(at + 1), `--bet ${text}`),
  };
  return checkBet(bet, table, `--bet ${text}`);
}

export function checkBet(bet: Bet, table: CompiledPaytable, context: string): Bet {
  const valid = validateBet(table, bet);
  if (!valid.ok) throw new InputError(`${context}: ${describeViolation(valid.error)}`);
  return bet;
}

/** Commander's collector for repeatable options. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];
