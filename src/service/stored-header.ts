/**
 * A round header as the database holds it: the same as in memory, except the
 * sealed roll, which is stored encrypted (src/dice/roll-key.ts) until the
 * reveal, so that reading the database during betting tells nothing of the
 * dice (Art. 2.1). After the reveal it is stored in clear, so that a rotated
 * key is needed only until the rolls it sealed are revealed.
 */
import { z } from 'zod';
import { type RollKeyring, type StoredSeal } from '../dice/roll-key.js';
import type { SealedRoll } from '../dice/seal.js';
import type { Store } from '../ledger/index.js';
import { PHASES } from '../table/index.js';
import type { RoundHeader } from './round-snapshot.js';

export interface StoredHeader extends Omit<RoundHeader, 'seal'> {
  /** Encrypted; a header saved before encryption holds the roll in clear and still loads. */
  readonly seal: StoredSeal | SealedRoll | null;
}

const count = z.number().int().min(0);
const face = z.literal([1, 2, 3, 4, 5, 6]);
const clearSeal = z.strictObject({
  dice: z.tuple([face, face, face]),
  nonceHex: z.string(),
  commitmentHex: z.string(),
});
const storedSeal = z.strictObject({
  commitmentHex: z.string(),
  keyId: z.string(),
  box: z.string(),
});

const storedHeaderSchema: z.ZodType<StoredHeader> = z.strictObject({
  phase: z.enum(PHASES),
  roundNo: count,
  rollNo: count,
  leverPulls: count,
  seal: z.union([clearSeal, storedSeal]).nullable(),
  bettingDeadlineMs: count.nullable(),
  lastAtMs: count.nullable(),
  // Headers saved before holds were recorded have none: such a table is not held.
  hold: z
    .strictObject({ reason: z.string(), article: z.string(), sinceMs: count })
    .nullable()
    .default(null),
  // Headers saved before tables could be closed for play have none: such a table is open.
  closedSinceMs: count.nullable().default(null),
  roundJournalSeq: count.nullable(),
  recentRoundSeqs: z.array(z.strictObject({ roundNo: count, seq: count })),
});

/** A table row's header that does not parse: the row is corrupt. */
export class StoredHeaderInvalid extends Error {
  readonly code = 'stored_header_invalid';
  constructor(tableId: string, problem: string) {
    super(`the stored header of table ${tableId} does not parse: ${problem}`);
    this.name = 'StoredHeaderInvalid';
  }
}

/** A table row's header (its `state`), parsed through its schema. */
export function parseStoredHeader(state: unknown, tableId: string): StoredHeader {
  const parsed = storedHeaderSchema.safeParse(state);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new StoredHeaderInvalid(tableId, `${issue.path.join('.') || 'header'}: ${issue.message}`);
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

/**
 * Opens every table's stored sealed roll with `keys`: a RollKeyError names the
 * first one this node cannot open, so that a node without the floor's key
 * refuses to start rather than serve a table it cannot reveal (docs/dice.md).
 */
export async function checkSealedRolls(store: Store, keys: RollKeyring): Promise<void> {
  for (const tableId of await store.listTables()) {
    const record = await store.getTable(tableId);
    if (record !== undefined) loadedHeader(parseStoredHeader(record.state, tableId), keys);
  }
}
