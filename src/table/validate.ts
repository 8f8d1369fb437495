/**
 * Checks of shape: a command that arrives as parsed JSON, a sealed roll, a
 * table's configuration. The service validates requests at its edge too; the
 * machine checks again because its state must never hold a value it cannot
 * settle or journal.
 */
import { ID_LENGTH_MAX, isDice, isRecord, STAKE_MINOR_MAX } from '../rules/index.js';
import { PHASE_RULES } from './phases.js';
import type { RejectionCode } from './rejections.js';
import type { CommandType, SealedRoll, TableConfig } from './types.js';

const HEX_64 = /^[0-9a-f]{64}$/;

export function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= ID_LENGTH_MAX;
}

export function isSealedRoll(value: unknown): value is SealedRoll {
  return (
    isRecord(value) &&
    isDice(value.dice) &&
    typeof value.nonceHex === 'string' &&
    HEX_64.test(value.nonceHex) &&
    typeof value.commitmentHex === 'string' &&
    HEX_64.test(value.commitmentHex)
  );
}

export interface ShapeProblem {
  readonly code: RejectionCode;
  readonly message: string;
}

/** Fields each command needs beyond its type, as [name, check, what it must be]. */
const FIELDS: Partial<
  Record<CommandType, readonly (readonly [string, (v: unknown) => boolean, string])[]>
> = {
  'place-bet': [
    ['betId', isId, `an id of 1 to ${ID_LENGTH_MAX} characters`],
    ['playerId', isId, `an id of 1 to ${ID_LENGTH_MAX} characters`],
    ['spot', (v) => typeof v === 'string', 'a spot id'],
    ['stakeMinor', (v) => typeof v === 'number', 'a number of minor units'],
  ],
  'withdraw-bet': [
    ['betId', isId, `an id of 1 to ${ID_LENGTH_MAX} characters`],
    ['playerId', isId, `an id of 1 to ${ID_LENGTH_MAX} characters`],
  ],
  // The croupier keys the faces in, so the journal must say who did.
  'read-dice': [['croupierId', isId, `an id of 1 to ${ID_LENGTH_MAX} characters`]],
  'void-roll': [
    ['reason', (v) => v === 'stacked' || v === 'tilted', '"stacked" or "tilted" (Art. 3.3)'],
  ],
};

/**
 * The first problem with a command's shape, or null. Content that the
 * regulation judges (dice, spots, stakes, seals) is checked later, after the
 * phase, so that a console learns first whether the step is possible at all.
 */
export function shapeProblem(command: unknown): ShapeProblem | null {
  if (!isRecord(command) || typeof command.type !== 'string' || !(command.type in PHASE_RULES)) {
    const type = isRecord(command) ? String(command.type) : typeof command;
    return { code: 'unknown_command', message: `"${type}" is not a step of the round` };
  }
  const type = command.type as CommandType;
  if ('croupierId' in command && command.croupierId !== undefined && !isId(command.croupierId)) {
    return {
      code: 'malformed_command',
      message: `${type}: croupierId must be an id of 1 to ${ID_LENGTH_MAX} characters`,
    };
  }
  for (const [name, check, what] of FIELDS[type] ?? []) {
    if (!check(command[name])) {
      return { code: 'malformed_command', message: `${type}: ${name} must be ${what}` };
    }
  }
  return null;
}

/** Problems with a table's configuration; empty when the machine can run it. */
export function tableConfigProblems(config: TableConfig): string[] {
  const problems: string[] = [];
  if (!isId(config.tableId))
    problems.push(`tableId must be an id of 1 to ${ID_LENGTH_MAX} characters`);
  if (config.shaker !== 'lever' && config.shaker !== 'electronic') {
    problems.push('shaker must be "lever" or "electronic" (Art. 1.2)');
  }
  const { stakeMinorMin: min, stakeMinorMax: max } = config;
  if (!Number.isSafeInteger(min) || min < 1)
    problems.push('stakeMinorMin must be a whole number ≥ 1');
  if (!Number.isSafeInteger(max) || max < min || max > STAKE_MINOR_MAX) {
    problems.push(`stakeMinorMax must be a whole number from stakeMinorMin to ${STAKE_MINOR_MAX}`);
  }
  const betsMax = config.betsPerRoundMax;
  if (!Number.isSafeInteger(betsMax) || betsMax < 1) {
    problems.push('betsPerRoundMax must be a whole number ≥ 1');
  } else if (max * betsMax > STAKE_MINOR_MAX) {
    // The round's total return (at most 151 × every stake) must stay an exact integer.
    problems.push(`stakeMinorMax × betsPerRoundMax must not exceed ${STAKE_MINOR_MAX}`);
  }
  const cap = config.liabilityMinorMax;
  if (!Number.isSafeInteger(cap) || cap < 1)
    problems.push('liabilityMinorMax must be a whole number ≥ 1');
  if (typeof config.optionsAuthorized !== 'boolean')
    problems.push('optionsAuthorized must be true or false (Art. 8)');
  const timer = config.bettingTimerMs;
  if (timer !== null && (!Number.isSafeInteger(timer) || timer < 1)) {
    problems.push('bettingTimerMs must be null or a whole number of milliseconds ≥ 1');
  }
  return problems;
}
