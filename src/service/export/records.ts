/**
 * The records of an export file (docs/export-format.md), and the one way a
 * record becomes a line: its canonical JSON, then a line feed. The writer
 * hashes every byte it writes, so the end record can name the file's digest.
 */
import { createHash, type Hash } from 'node:crypto';
import type { HolidayYear } from '../../compliance/index.js';
import { canonicalJson, type ChainPoint, type JournalEntry } from '../../journal/index.js';
import type { Account, Currency, Transfer } from '../../ledger/index.js';

export const EXPORT_FORMAT = 'cussec-export';
/** Moves when what a record means changes (issue 27's chain per table will be version 2). */
export const EXPORT_FORMAT_VERSION = 1;

export interface HeaderRecord {
  readonly record: 'header';
  readonly format: typeof EXPORT_FORMAT;
  readonly version: typeof EXPORT_FORMAT_VERSION;
  readonly currency: Currency;
  readonly range: { readonly fromSeq: number; readonly toSeq: number };
  /** The entry before the range: seq 0 and the genesis hash for a range from 1. */
  readonly anchor: ChainPoint;
  /** The journal's last entry when the export was read. */
  readonly head: ChainPoint;
  /** The table checked by rule; null: every table. */
  readonly table: string | null;
  /** "whole": every transfer and account of the ledger is in the file. */
  readonly ledger: 'whole' | 'range';
  readonly exportedAtMs: number;
  readonly generator: string;
}

/** An entry as the chain hashed it; "context" for one from before the range. */
export function entryRecord(entry: JournalEntry | RawEntry, record: 'entry' | 'context') {
  const { seq, tableId, type, atMs, prevHash, hash, payload } = entry;
  return { record, seq, tableId, type, atMs, prevHash, hash, payload };
}

/** An entry whose row does not parse (tampering): its payload as stored, so that its hash is judged. */
export interface RawEntry {
  readonly seq: number;
  readonly tableId: string | null;
  readonly type: string;
  readonly atMs: number;
  readonly prevHash: string;
  readonly hash: string;
  readonly payload: unknown;
}

export function transferRecord(t: Transfer) {
  const { id, debitAccountId, creditAccountId, amountMinor, kind, reference, createdAtMs } = t;
  return {
    record: 'transfer',
    id,
    debitAccountId,
    creditAccountId,
    amountMinor,
    kind,
    reference,
    createdAtMs,
  } as const;
}

export function accountRecord(a: Account) {
  return { record: 'account', id: a.id, kind: a.kind, balanceMinor: a.balanceMinor } as const;
}

export function holidaysRecord(list: HolidayYear) {
  return { record: 'holidays', list } as const;
}

/** Where the lines go: a file, as bytes. */
export interface LineSink {
  write(bytes: Buffer): void;
}

/** Writes records as canonical JSON lines and keeps the count and digest the end record names. */
export class RecordWriter {
  private readonly digest: Hash = createHash('sha256');
  lines = 0;
  bytes = 0;

  constructor(private readonly sink: LineSink) {}

  write(record: object): void {
    const bytes = Buffer.from(`${canonicalJson(record)}\n`, 'utf8');
    this.digest.update(bytes);
    this.sink.write(bytes);
    this.lines++;
    this.bytes += bytes.length;
  }

  /** The end record: the lines before it and the SHA-256 of their bytes. */
  end(): void {
    const end = { record: 'end', lines: this.lines, sha256: this.digest.digest('hex') };
    const bytes = Buffer.from(`${canonicalJson(end)}\n`, 'utf8');
    this.sink.write(bytes);
    this.bytes += bytes.length;
  }
}
