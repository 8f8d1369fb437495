/**
 * The sealed roll's format (Art. 2.1), in a module of its own with no Node
 * import, so that the server (seal.ts) and the browser (web/src/logic/
 * commitment.ts) hash the one message. It is agreed with the round machine and
 * must not change:
 *
 *     cussec/roll/v1\n<tableId>\n<roundNo>\n<rollNo>\n<d1>,<d2>,<d3>\n<nonceHex>
 *
 * in UTF-8, numbers in plain decimal, the nonce in lowercase hex.
 */
import type { Dice } from '../rules/dice.js';

export const COMMITMENT_VERSION = 'cussec/roll/v1';

/** Which roll: a round may have several when a roll is void (Art. 3.3). */
export interface RollRef {
  readonly tableId: string;
  readonly roundNo: number;
  readonly rollNo: number;
}

export interface SealedRoll {
  readonly dice: Dice;
  /** 64 lowercase hex digits; secret until the reveal. */
  readonly nonceHex: string;
  /** 64 lowercase hex digits; published when betting opens (Art. 2.1). */
  readonly commitmentHex: string;
}

/** The exact UTF-8 text the commitment hashes; the nonce is hashed in lowercase, as sealed. */
export function commitmentMessage(ref: RollRef, dice: readonly number[], nonceHex: string): string {
  const { tableId, roundNo, rollNo } = ref;
  return `${COMMITMENT_VERSION}\n${tableId}\n${roundNo}\n${rollNo}\n${dice.join(',')}\n${nonceHex.toLowerCase()}`;
}
