/**
 * Checking the electronic shaker's sealed roll in the browser (Art. 2.1; the
 * format is docs/table.md's and src/dice/seal.ts's, and must not drift):
 *
 *     SHA-256( "cussec/roll/v1\n<tableId>\n<roundNo>\n<rollNo>\n<d1>,<d2>,<d3>\n<nonceHex>" )
 *
 * in UTF-8, lowercase hex. The player sees the commitment when betting opens;
 * after the reveal anyone can hash the dice and nonce and compare.
 */
import { sha256HexFallback } from './sha256.js';

export const COMMITMENT_VERSION = 'cussec/roll/v1';

export interface RollRef {
  readonly tableId: string;
  readonly roundNo: number;
  readonly rollNo: number;
}

export function commitmentMessage(ref: RollRef, dice: readonly number[], nonceHex: string): string {
  return `${COMMITMENT_VERSION}\n${ref.tableId}\n${ref.roundNo}\n${ref.rollNo}\n${dice.join(',')}\n${nonceHex.toLowerCase()}`;
}

/** SHA-256 in lowercase hex: crypto.subtle where the page is a secure context, else the fallback. */
export async function sha256Hex(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) return sha256HexFallback(bytes);
  const digest = await subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

export type CommitmentCheck = 'match' | 'mismatch';

export async function checkCommitment(
  ref: RollRef,
  dice: readonly number[],
  nonceHex: string,
  commitmentHex: string,
): Promise<CommitmentCheck> {
  const hash = await sha256Hex(commitmentMessage(ref, dice, nonceHex));
  return hash === commitmentHex.toLowerCase() ? 'match' : 'mismatch';
}
