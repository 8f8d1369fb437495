/**
 * Column lists shared by both engines: rows come back already shaped as the
 * API's objects (double-quoted aliases work in SQLite and PostgreSQL alike).
 */
import { GENESIS_HASH, type JournalEntry, parseStoredEntry } from '../journal/index.js';

export const ACCOUNT_COLUMNS = `id, kind, balance_minor AS "balanceMinor", created_at_ms AS "createdAtMs"`;

export const TRANSFER_COLUMNS = `id, debit_account_id AS "debitAccountId", credit_account_id AS "creditAccountId",
  amount_minor AS "amountMinor", kind, reference, created_at_ms AS "createdAtMs"`;

export const TABLE_COLUMNS = `id, config_json AS "configJson", state_json AS "stateJson", version, updated_at_ms AS "updatedAtMs",
  lease_epoch AS "leaseEpoch", lease_holder AS "leaseHolder"`;

export const USER_COLUMNS = `id, username, display_name AS "displayName", role, created_at_ms AS "createdAtMs", disabled,
  must_change_password AS "mustChangePassword"`;

/** Only for findUserByUsername: every other read leaves the hash in the database. */
export const USER_SECRET_COLUMNS = `${USER_COLUMNS}, password_hash AS "passwordHash"`;

/** A session joined with its user (aliases s and u), shaped as SessionUserRow. */
export const SESSION_USER_COLUMNS = `s.token_hash AS "tokenHash", s.user_id AS "userId",
  s.created_at_ms AS "sessionCreatedAtMs", s.expires_at_ms AS "expiresAtMs", s.last_seen_at_ms AS "lastSeenAtMs",
  s.user_agent AS "userAgent", s.address,
  u.id, u.username, u.display_name AS "displayName", u.role, u.created_at_ms AS "createdAtMs", u.disabled,
  u.must_change_password AS "mustChangePassword"`;

export const SESSION_COLUMNS = `token_hash AS "tokenHash", user_id AS "userId", created_at_ms AS "createdAtMs",
  expires_at_ms AS "expiresAtMs", last_seen_at_ms AS "lastSeenAtMs", user_agent AS "userAgent", address`;

/**
 * A journal row as read: the hash is stored as its 32 bytes, and an entry's
 * prevHash is not stored at all (since migration 6) but read from the entry
 * before it, so that it cannot disagree with it. The subquery is one lookup of
 * the primary key a row; it names the outer table `journal`, so a query using
 * these columns reads FROM journal without an alias.
 */
export const JOURNAL_COLUMNS = `seq, table_id AS "tableId", type, payload_json AS "payloadJson", at_ms AS "atMs",
  hash, (SELECT p.hash FROM journal AS p WHERE p.seq = journal.seq - 1) AS "prevHash"`;

export interface JournalRow {
  readonly seq: number;
  readonly tableId: string | null;
  readonly type: string;
  readonly payloadJson: string;
  readonly atMs: number;
  readonly hash: Uint8Array;
  /** Null for the first entry, or when the entry before it is missing (verifyChain reports the gap). */
  readonly prevHash: Uint8Array | null;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/**
 * Every journal read maps its rows through this: an entry leaves the store
 * parsed (src/journal/entries.ts); `position` is the row's index in the page.
 */
export function toJournalEntry(row: JournalRow, position = 0): JournalEntry {
  return parseStoredEntry(
    {
      seq: row.seq,
      tableId: row.tableId,
      type: row.type,
      payloadJson: row.payloadJson,
      atMs: row.atMs,
      prevHash: row.prevHash === null ? (row.seq === 1 ? GENESIS_HASH : '') : hex(row.prevHash),
      hash: hex(row.hash),
    },
    position,
  );
}

export function pageLimit(limit: number | undefined, max: number): number {
  const n = limit ?? max;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new RangeError(`limit must be a positive integer, got ${String(limit)}`);
  return Math.min(n, max);
}
