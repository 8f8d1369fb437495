/**
 * Checking the electronic shaker's sealed roll in the browser (Art. 2.1): the
 * message is the server's own (src/dice/seal-format.ts, a module without Node
 * imports that both builds include), hashed with SHA-256 in lowercase hex. The
 * player sees the commitment when betting opens; after the reveal anyone can
 * hash the dice and nonce and compare.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { commitmentMessage, type RollRef } from '../../../src/dice/seal-format.js';

export {
  COMMITMENT_VERSION,
  commitmentMessage,
  type RollRef,
} from '../../../src/dice/seal-format.js';

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
