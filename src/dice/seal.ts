/**
 * The electronic shaker's sealed roll.
 *
 * Art. 2.1: the dice are shaken before betting starts. With an electronic
 * shaker the roll is drawn at that moment and sealed: a SHA-256 commitment over
 * the table, round, roll number, dice and a secret 32-byte nonce is published
 * with "betting open"; the reveal publishes the dice and the nonce, so anyone
 * can check that the roll existed before any bet was seen and was not changed.
 *
 * The committed message is seal-format.ts's, which the browser shares.
 */
import { createHash } from 'node:crypto';
import { type Dice, isDice } from '../rules/dice.js';
import { err, ok, type Result, type RuleViolation } from '../rules/errors.js';
import { createDiceSource } from './dice-source.js';
import { cryptoRandomSource, type RandomSource, randomHex } from './random-source.js';
import { commitmentMessage, type RollRef, type SealedRoll } from './seal-format.js';

export {
  COMMITMENT_VERSION,
  commitmentMessage,
  type RollRef,
  type SealedRoll,
} from './seal-format.js';

export const NONCE_BYTES = 32;

export interface RevealClaim extends RollRef {
  readonly dice: readonly number[];
  readonly nonceHex: string;
  readonly commitmentHex: string;
}

export const REVEAL_FAILURE_CODES = [
  'roll_ref_malformed',
  'dice_malformed',
  'nonce_malformed',
  'commitment_malformed',
  'commitment_mismatch',
] as const;

export type RevealFailureCode = (typeof REVEAL_FAILURE_CODES)[number];

export type RevealFailure = RuleViolation<RevealFailureCode>;

const HEX_256_BITS = /^[0-9a-f]{64}$/i;
// A control character (the newline above all) in a table id would make the message ambiguous.
const CONTROL_CHARACTER = /\p{Cc}/u;

/** Why a roll reference cannot be committed to, or undefined when it can. */
export function rollRefProblem(ref: RollRef): string | undefined {
  if (
    typeof ref.tableId !== 'string' ||
    ref.tableId === '' ||
    CONTROL_CHARACTER.test(ref.tableId)
  ) {
    return 'table id must be a non-empty string without control characters';
  }
  if (!Number.isSafeInteger(ref.roundNo) || ref.roundNo < 0)
    return 'round must be a whole number >= 0';
  if (!Number.isSafeInteger(ref.rollNo) || ref.rollNo < 0)
    return 'roll must be a whole number >= 0';
  return undefined;
}

/** SHA-256 of the commitment message, lowercase hex. */
export function rollCommitment(ref: RollRef, dice: Dice, nonceHex: string): string {
  return createHash('sha256')
    .update(commitmentMessage(ref, dice, nonceHex), 'utf8')
    .digest('hex');
}

/**
 * Seals dice that were drawn elsewhere (a scripted test, a seeded simulation)
 * with a nonce drawn from `random`: fresh from the CSPRNG by default, or from a
 * seeded source so that a simulated round replays with its seals. Invalid
 * arguments are programmer errors and throw.
 */
export function sealDice(
  ref: RollRef,
  dice: Dice,
  random: RandomSource = cryptoRandomSource,
): SealedRoll {
  const problem = rollRefProblem(ref);
  if (problem !== undefined) throw new RangeError(problem);
  if (!isDice(dice))
    throw new RangeError(`not three faces 1–6 (Art. 1.1): ${JSON.stringify(dice)}`);
  const nonceHex = randomHex(random, NONCE_BYTES);
  return { dice, nonceHex, commitmentHex: rollCommitment(ref, dice, nonceHex) };
}

/**
 * Art. 2.1: shakes and seals one roll, before betting opens. A fresh sampler
 * with an 8-byte buffer means the dice are drawn now, from bytes read now, and
 * no future roll waits in memory. The nonce comes from the same source.
 */
export function sealRoll(ref: RollRef, random: RandomSource = cryptoRandomSource): SealedRoll {
  return sealDice(ref, createDiceSource(random, 8).roll(), random);
}

function failure(code: RevealFailureCode, message: string, article?: string): RevealFailure {
  return article === undefined ? { code, message } : { code, message, article };
}

/** The first malformation in a claim, in this order: roll, dice, nonce, commitment. */
function malformation(claim: RevealClaim): RevealFailure | undefined {
  const refProblem = rollRefProblem(claim);
  if (refProblem !== undefined) return failure('roll_ref_malformed', refProblem);
  if (!isDice(claim.dice)) {
    return failure('dice_malformed', 'dice must be exactly three faces 1–6', '1.1');
  }
  if (typeof claim.nonceHex !== 'string' || !HEX_256_BITS.test(claim.nonceHex)) {
    return failure('nonce_malformed', 'nonce must be 64 hex digits (32 bytes)');
  }
  if (typeof claim.commitmentHex !== 'string' || !HEX_256_BITS.test(claim.commitmentHex)) {
    return failure('commitment_malformed', 'commitment must be 64 hex digits (a SHA-256 digest)');
  }
  return undefined;
}

/**
 * Checks a reveal against the commitment published when betting opened
 * (Art. 2.1). Hex is read case-insensitively and hashed in lowercase, as sealed.
 *
 * The comparison is a plain string equality, not `timingSafeEqual`: both sides
 * are public (the commitment was published at betting open, the other is a hash
 * of what the caller supplied), so timing can leak nothing secret, and learning
 * how many leading digits of a SHA-256 output match tells nothing about the
 * nonce behind it.
 */
export function verifyReveal(claim: RevealClaim): Result<Dice, RevealFailure> {
  const malformed = malformation(claim);
  if (malformed !== undefined) return err(malformed);
  const dice = claim.dice as Dice;
  const expected = rollCommitment(claim, dice, claim.nonceHex.toLowerCase());
  if (expected !== claim.commitmentHex.toLowerCase()) {
    return err(
      failure(
        'commitment_mismatch',
        `table ${claim.tableId} round ${claim.roundNo} roll ${claim.rollNo}: dice ${dice.join(',')} ` +
          'and nonce do not match the commitment published before betting',
        '2.1',
      ),
    );
  }
  return ok(dice);
}
