/**
 * `cussec verify-roll`: checks a revealed roll against the commitment the
 * electronic shaker published when betting opened (Art. 2.1), so a player or
 * an inspector can confirm the dice were fixed before any bet was seen.
 */
import type { Command } from 'commander';
import { verifyReveal } from '../../dice/index.js';
import { describeViolation } from '../../rules/errors.js';
import { CheckFailed, InputError } from '../errors.js';
import type { Io } from '../io.js';
import { readDice } from '../inputs.js';

interface VerifyRollOptions {
  readonly table: string;
  readonly round: string;
  readonly roll: string;
  readonly dice: string;
  readonly nonce: string;
  readonly commitment: string;
  readonly json?: boolean;
}

export function registerVerifyRoll(program: Command, io: Io): void {
  program
    .command('verify-roll')
    .description('check a revealed roll against the commitment published before betting (Art. 2.1)')
    .requiredOption('--table <id>', 'the table id, as published')
    .requiredOption('--round <n>', 'the round number')
    .requiredOption(
      '--roll <n>',
      'the roll number within the round (a void roll is rolled again, Art. 3.3)',
    )
    .requiredOption('--dice <a,b,c>', 'the revealed dice, die one, two, three')
    .requiredOption('--nonce <hex>', 'the revealed nonce, 64 hex digits')
    .requiredOption(
      '--commitment <hex>',
      'the commitment published when betting opened, 64 hex digits',
    )
    .option('--json', 'print JSON instead of a line')
    .action((options: VerifyRollOptions) => {
      const claim = {
        tableId: options.table,
        roundNo: readWholeNumber(options.round, '--round'),
        rollNo: readWholeNumber(options.roll, '--roll'),
        dice: readDice(options.dice),
        nonceHex: options.nonce,
        commitmentHex: options.commitment,
      };
      const result = verifyReveal(claim);
      if (result.ok) {
        const line = `verified: table ${claim.tableId} round ${claim.roundNo} roll ${claim.rollNo}, dice ${result.value.join(',')}`;
        io.stdout.write(
          options.json ? JSON.stringify({ verified: true, ...claim }) + '\n' : `${line}\n`,
        );
        return;
      }
      const { code } = result.error;
      if (code !== 'commitment_mismatch') throw new InputError(describeViolation(result.error));
      if (options.json) {
        io.stdout.write(
          JSON.stringify({ verified: false, code, message: result.error.message }) + '\n',
        );
      }
      throw new CheckFailed(`not verified: ${describeViolation(result.error)}`);
    });
}

/** Digits only ("7", not "7.0" or "1e3"), within the safe integers. */
function readWholeNumber(text: string, option: string): number {
  const value = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value))
    throw new InputError(`${option} must be a whole number >= 0, got "${text}"`);
  return value;
}
