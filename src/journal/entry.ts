/**
 * Journal entries and the hash that chains them.
 *
 * There is one chain for the whole database: entry n carries the hash of entry
 * n − 1, so deleting, reordering or editing any entry breaks every hash after
 * it. Seqs start at 1 and have no gaps.
 */
import { check } from './check.js';
import { canonicalJson, sha256Hex } from './canonical-json.js';
import type { JournalRecord } from './entries.js';
import { storedPayload } from './stored-payload.js';

/** The previous hash of entry 1: 64 zeros. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * What a caller appends: a record of the union (entries.ts: a kebab-case type,
 * e.g. "bet-placed", and its payload, plain JSON) and the table it belongs to,
 * or null for events of the house (cage, accounts). The store assigns seq,
 * time and hashes.
 */
export type JournalInput = { readonly tableId: string | null } & JournalRecord;

/** Where an entry sits in the chain: what the store adds to a record. */
export interface EntryHeader {
  readonly seq: number;
  readonly tableId: string | null;
  /** Milliseconds since the Unix epoch: the transaction's clock. */
  readonly atMs: number;
  readonly prevHash: string;
  readonly hash: string;
}

/** An entry as it leaves the store: parsed, so `payload` is the type's (narrow on `type`). */
export type JournalEntry = EntryHeader & JournalRecord;

/**
 * An entry as its row keeps it: `payloadJson` is the row's text, the payload's
 * canonical JSON or its compact form (stored-payload.ts).
 */
export interface StoredEntry extends EntryHeader {
  readonly type: string;
  readonly payloadJson: string;
}

/** An entry as the chain hashes it: any type, any JSON payload (the verifier reads these too). */
export interface HashedEntry extends EntryHeader {
  readonly type: string;
  readonly payload: unknown;
}

export const JOURNAL_TYPE_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;

/**
 * The bytes an entry's hash covers: the canonical JSON of the array
 * [seq, prevHash, tableId, type, atMs, payload]. A JSON array rather than
 * "a|b|c" so that a '|' inside a table id can never make two entries encode
 * alike. `payloadJson` must be canonicalJson(payload); taking it ready-made lets
 * the store hash and store the same string without encoding the payload twice.
 */
export function entryHashInput(
  e: Omit<HashedEntry, 'hash' | 'payload'>,
  payloadJson: string,
): string {
  const head = canonicalJson([e.seq, e.prevHash, e.tableId, e.type, e.atMs]);
  return `${head.slice(0, -1)},${payloadJson}]`;
}

export function entryHash(e: Omit<HashedEntry, 'hash'>): string {
  return sha256Hex(entryHashInput(e, canonicalJson(e.payload)));
}

/** An entry and the text its row keeps for its payload (stored-payload.ts), as the store writes it. */
export interface ChainedEntry {
  readonly entry: JournalEntry;
  readonly storedPayload: string;
}

/** Builds the next entries of the chain after (lastSeq, lastHash). */
export function chainEntries(
  inputs: readonly JournalInput[],
  head: { readonly lastSeq: number; readonly lastHash: string },
  atMs: number,
): ChainedEntry[] {
  check(Number.isSafeInteger(atMs) && atMs >= 0, () => `journal: bad time ${atMs}`);
  const out = new Array<ChainedEntry>(inputs.length);
  let prevHash = head.lastHash;
  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i]!;
    check(
      JOURNAL_TYPE_PATTERN.test(input.type),
      () => `journal: bad entry type ${JSON.stringify(input.type)}`,
    );
    check(
      input.tableId === null || input.tableId.length > 0,
      () => 'journal: table id must be null or non-empty',
    );
    const payloadJson = canonicalJson(input.payload);
    const seq = head.lastSeq + 1 + i;
    const hash = sha256Hex(
      entryHashInput(
        { seq, tableId: input.tableId, type: input.type, atMs, prevHash },
        payloadJson,
      ),
    );
    // A literal, not a spread: this runs for every entry, and spreading cost microseconds each.
    // The type and payload are the input's, one record of the union, which the
    // compiler cannot see through the two member reads.
    const entry = {
      seq,
      tableId: input.tableId,
      type: input.type,
      atMs,
      prevHash,
      payload: input.payload,
      hash,
    } as JournalEntry;
    out[i] = { entry, storedPayload: storedPayload(entry, input.payload, payloadJson) };
    prevHash = hash;
  }
  return out;
}
