/**
 * A round header as the database holds it: the same as in memory, except the
 * sealed roll, which is stored encrypted (src/dice/roll-key.ts) until the
 * reveal, so that reading the database during betting tells nothing of the
 * dice (Art. 2.1). After the reveal it is stored in clear, so that a rotated
 * key is needed only until the rolls it sealed are revealed.
 */
import { type RollKeyring, type StoredSeal } from '../dice/roll-key.js';
import type { SealedRoll } from '../dice/seal.js';
import type { RoundHeader } from './round-snapshot.js';

export interface StoredHeader extends Omit<RoundHeader, 'seal'> {
  /** Encrypted; a header saved before encryption holds the roll in clear and still loads. */
  readonly seal: StoredSeal | SealedRoll | null;
}

/** Once revealed, the roll is public (the reveal event carries it) and is stored in clear. */
const PUBLISHED: ReadonlySet<string> = new Set(['revealed', 'paid']);

export function storedHeader(header: RoundHeader, keys: RollKeyring): StoredHeader {
  if (header.seal === null || PUBLISHED.has(header.phase)) return header;
  return { ...header, seal: keys.seal(header.seal) };
}

export function loadedHeader(stored: StoredHeader, keys: RollKeyring): RoundHeader {
  const seal = stored.seal;
  if (seal === null || 'dice' in seal) return { ...stored, seal };
  return { ...stored, seal: keys.open(seal) };
}
