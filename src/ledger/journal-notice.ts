/**
 * What a journal write tells every node of the floor: the NOTIFY that the
 * PostgreSQL journal insert sends in the same statement, inside the
 * committing transaction (pg-driver.ts, insertJournal). PostgreSQL delivers a
 * transaction's notifications when it commits, in commit order; every journal
 * write holds the journal head's row lock until it commits, so the notices
 * arrive in seq order, and a rolled-back write sends none.
 *
 * A notice's payload is JSON in one of two forms:
 *
 * - `["e", prevHash, [seq, tableId, type, atMs, hash, payloadJson], …]`: the
 *   entries as their rows keep them (payloadJson is the stored text, either
 *   form of stored-payload.ts), read back through the one parser of stored
 *   entries (parseStoredEntry), so a listener has what a journal read would
 *   have given it. Each entry's prevHash is the hash of the one before it.
 * - `["r", fromSeq, toSeq]`: the entries did not fit under PostgreSQL's
 *   payload limit (8,000 bytes); a listener reads them from the journal.
 *
 * Anything else (a malformed payload, an entry that does not parse, seqs out
 * of order) decodes as `read`: a signal to read the journal, which is always
 * right, only slower.
 */
import { z } from 'zod';
import { type ChainedEntry, type JournalEntry, parseStoredEntry } from '../journal/index.js';

/** A journal write's notice, as a listener takes it. */
export type JournalNotice =
  /** The entries the commit appended, consecutive seqs, parsed. */
  | { readonly kind: 'entries'; readonly entries: readonly JournalEntry[] }
  /** The commit appended fromSeq..toSeq, too many to carry: read them. */
  | { readonly kind: 'range'; readonly fromSeq: number; readonly toSeq: number }
  /** Something may have been missed (a reconnection, a payload that does not decode): read. */
  | { readonly kind: 'read' };

/**
 * The largest payload sent with the entries, in UTF-8 bytes. PostgreSQL
 * refuses 8,000 and more (in the database's encoding); the margin covers an
 * encoding whose characters take more bytes than UTF-8's.
 */
export const NOTICE_PAYLOAD_BYTES_MAX = 7_000;

/** The payload of the notice of `entries` (consecutive seqs, at least one). */
export function encodeJournalNotice(entries: readonly ChainedEntry[]): string {
  const first = entries[0]!.entry;
  const last = entries[entries.length - 1]!.entry;
  const range = JSON.stringify(['r', first.seq, last.seq]);
  const parts = [JSON.stringify(['e', first.prevHash]).slice(0, -1)];
  // A string's length never exceeds its UTF-8 bytes: past the limit in length, it is past it in bytes.
  let length = parts[0]!.length + 1;
  for (const { entry, storedPayload } of entries) {
    const row = JSON.stringify([
      entry.seq,
      entry.tableId,
      entry.type,
      entry.atMs,
      entry.hash,
      storedPayload,
    ]);
    length += row.length + 1;
    if (length > NOTICE_PAYLOAD_BYTES_MAX) return range;
    parts.push(row);
  }
  const text = `${parts.join(',')}]`;
  return Buffer.byteLength(text, 'utf8') <= NOTICE_PAYLOAD_BYTES_MAX ? text : range;
}

const READ: JournalNotice = { kind: 'read' };
const seq = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const hash = z.string().regex(/^[0-9a-f]{64}$/);
const row = z.tuple([
  seq,
  z.string().min(1).nullable(),
  z.string(),
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  hash,
  z.string(),
]);
const payloadSchema = z.union([
  z.tuple([z.literal('e'), hash], row),
  z.tuple([z.literal('r'), seq, seq]),
]);

/** A notice's payload as a listener takes it; never throws. */
export function decodeJournalNotice(payload: string): JournalNotice {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return READ;
  }
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success) return READ;
  const notice = parsed.data;
  if (notice[0] === 'r')
    return notice[1] <= notice[2] ? { kind: 'range', fromSeq: notice[1], toSeq: notice[2] } : READ;
  const [, firstPrevHash, ...rows] = notice;
  if (rows.length === 0) return READ;
  const entries: JournalEntry[] = [];
  let prevHash = firstPrevHash;
  for (const [n, [rowSeq, tableId, type, atMs, rowHash, payloadJson]] of rows.entries()) {
    if (rowSeq !== rows[0]![0] + n) return READ;
    try {
      entries.push(
        parseStoredEntry({
          seq: rowSeq,
          tableId,
          type,
          payloadJson,
          atMs,
          prevHash,
          hash: rowHash,
        }),
      );
    } catch {
      // JournalEntryInvalid, as a read of the row would throw: the read says so where it is handled.
      return READ;
    }
    prevHash = rowHash;
  }
  return { kind: 'entries', entries };
}
