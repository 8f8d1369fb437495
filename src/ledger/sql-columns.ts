/**
 * Column lists shared by both engines: rows come back already shaped as the
 * API's objects (double-quoted aliases work in SQLite and PostgreSQL alike).
 */
import type { JournalEntry } from '../journal/index.js';

export const ACCOUNT_COLUMNS = `id, kind, balance_minor AS "balanceMinor", created_at_ms AS "createdAtMs"`;

export const TRANSFER_COLUMNS = `id, debit_account_id AS "debitAccountId", credit_account_id AS "creditAccountId",
  amount_minor AS "amountMinor", kind, reference, created_at_ms AS "createdAtMs"`;

export const TABLE_COLUMNS = `id, config_json AS "configJson", state_json AS "stateJson", version, updated_at_ms AS "updatedAtMs"`;

export const JOURNAL_COLUMNS = `seq, table_id AS "tableId", type, payload_json AS "payloadJson", at_ms AS "atMs",
  prev_hash AS "prevHash", hash`;

export interface JournalRow extends Omit<JournalEntry, 'payload'> {
  readonly payloadJson: string;
}

export function toJournalEntry(row: JournalRow): JournalEntry {
  return {
    seq: row.seq,
    tableId: row.tableId,
    type: row.type,
    payload: JSON.parse(row.payloadJson) as unknown,
    atMs: row.atMs,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

export function pageLimit(limit: number | undefined, max: number): number {
  const n = limit ?? max;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new RangeError(`limit must be a positive integer, got ${String(limit)}`);
  return Math.min(n, max);
}
