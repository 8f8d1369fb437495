/**
 * Checking the electronic shaker's sealed roll in the browser (Art. 2.1; the
 * format is docs/table.md's and src/dice/seal.ts's, and must not drift):
 *
 *     SHA-256( "cussec/roll/v1\n<tableId>\n<roundNo>\n<rollNo>\n<d1>,<d2>,<d3>\n<nonceHex>" )
 *
 * in UTF-8, lowercase hex. The player sees the commitment when betting opens;
 * after the reveal anyone can hash the dice and nonce and compare.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export const COMMITMENT_VERSION = 'cussec/roll/v1';

export interface RollRef {
  readonly tableId: string;
  readonly roundNo: number;
  readonly rollNo: number;
}

export function commitmentMessage(ref: RollRef, dice: readonly number[], nonceHex: string): string {
  return `${COMMITMENT_VERSION}\n${ref.tableId}\n${ref.roundNo}\n${ref.rollNo}\n${dice.join(',')}\n${nonceHex.toLowerCase()}`;
}

/**
 * SHA-256 of the UTF-8 text in lowercase hex, by @noble/hashes (audited, and
 * the same in every page: crypto.subtle is missing where the page is not a
 * secure context, such as a display board on a plain-HTTP floor network).
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(text)));
}

export type CommitmentCheck = 'match' | 'mismatch';

export function checkCommitment(
  ref: RollRef,
  dice: readonly number[],
  nonceHex: string,
  commitmentHex: string,
): CommitmentCheck {
  const hash = sha256Hex(commitmentMessage(ref, dice, nonceHex));
  return hash === commitmentHex.toLowerCase() ? 'match' : 'mismatch';
}
