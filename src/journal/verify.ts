/**
 * Recomputes the chain from entry 1 and names the first entry that does not
 * fit, so an inspector can see where tampering (or corruption) begins.
 */
import { JournalEntryInvalid } from './entries.js';
import {
  entryHash,
  entryHashInput,
  GENESIS_HASH,
  type JournalEntry,
  type StoredEntry,
} from './entry.js';
import { sha256Hex } from './canonical-json.js';

/** What verifyChain needs from a store; the ledger's Store satisfies it. */
export interface JournalReader {
  readJournal(query: {
    readonly fromSeq: number;
    readonly limit: number;
  }): Promise<readonly JournalEntry[]>;
  journalHead(): Promise<{ readonly lastSeq: number; readonly lastHash: string }>;
}

/**
 * How a chain fails to verify:
 * - hash_mismatch: the recomputed hash differs from the stored one (the entry was edited);
 * - prev_hash_mismatch: the entry's prevHash is not the previous entry's hash
 *   (an entry before it was removed or replaced);
 * - seq_gap: a seq is missing;
 * - head_mismatch: the head record disagrees with the last entry (entries were cut from the end).
 */
export const CHAIN_FAILURES = [
  'hash_mismatch',
  'prev_hash_mismatch',
  'seq_gap',
  'head_mismatch',
] as const;

export type ChainFailure = (typeof CHAIN_FAILURES)[number];

export type ChainVerdict =
  | { readonly ok: true; readonly lastSeq: number; readonly lastHash: string }
  | { readonly ok: false; readonly seq: number; readonly failure: ChainFailure };

/** Entries read per query while verifying. */
export const VERIFY_PAGE_ENTRIES_MAX = 1000;

/** Where a verification starts: after an entry already verified (seq 0 and GENESIS_HASH: the start). */
export interface ChainPoint {
  readonly seq: number;
  readonly hash: string;
}

export const GENESIS_POINT: ChainPoint = { seq: 0, hash: GENESIS_HASH };

/**
 * Checks the entries after `from`: a checkpoint taken by an earlier
 * verification, so that a daily check reads the day's entries only. The first
 * entry after it must name its hash as prevHash.
 */
export async function verifyChain(
  reader: JournalReader,
  from: ChainPoint = GENESIS_POINT,
): Promise<ChainVerdict> {
  let expectedSeq = from.seq + 1;
  let prevHash = from.hash;
  for (;;) {
    const page = await readPage(reader, expectedSeq);
    for (const entry of page) {
      const failure = checkEntry(entry, expectedSeq, prevHash);
      if (failure !== undefined) return { ok: false, seq: expectedSeq, failure };
      prevHash = entry.hash;
      expectedSeq++;
    }
    if (page.length < VERIFY_PAGE_ENTRIES_MAX) break;
  }
  const lastSeq = expectedSeq - 1;
  const head = await reader.journalHead();
  if (head.lastSeq !== lastSeq || head.lastHash !== prevHash) {
    // The first seq the head and the entries disagree about.
    const seq = head.lastSeq === lastSeq ? lastSeq : Math.min(head.lastSeq, lastSeq) + 1;
    return { ok: false, seq, failure: 'head_mismatch' };
  }
  return { ok: true, lastSeq, lastHash: prevHash };
}

/**
 * A page of entries from `fromSeq`. An entry that does not parse (an edited
 * type or payload) ends the page as stored, its payload still JSON text, so
 * that its hash is checked like any other's: verification judges hashes, and
 * the readers name the entry when they meet it.
 */
async function readPage(
  reader: JournalReader,
  fromSeq: number,
): Promise<readonly (JournalEntry | UnparsedEntry)[]> {
  try {
    return await reader.readJournal({ fromSeq, limit: VERIFY_PAGE_ENTRIES_MAX });
  } catch (error) {
    if (!(error instanceof JournalEntryInvalid) || error.stored === undefined) throw error;
    const before =
      error.position === 0 ? [] : await reader.readJournal({ fromSeq, limit: error.position });
    return [...before, { ...error.stored, unparsed: true }];
  }
}

interface UnparsedEntry extends StoredEntry {
  readonly unparsed: true;
}

function checkEntry(
  entry: JournalEntry | UnparsedEntry,
  expectedSeq: number,
  prevHash: string,
): ChainFailure | undefined {
  if (entry.seq !== expectedSeq) return 'seq_gap';
  if (entry.prevHash !== prevHash) return 'prev_hash_mismatch';
  const hash =
    'unparsed' in entry ? sha256Hex(entryHashInput(entry, entry.payloadJson)) : entryHash(entry);
  if (hash !== entry.hash) return 'hash_mismatch';
  return undefined;
}
