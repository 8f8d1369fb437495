/**
 * The registers of who may play (migration 13): identities and their history,
 * the record of who read them, exclusion orders, workers' legitimate causes,
 * the large-transaction register and suspicion flags. Rows only: what the law
 * says of them is src/compliance/people, and src/service/people.ts joins the
 * two.
 *
 * Written once over a small SQL runner, so the same statements serve inside a
 * transaction (Tx.registers, writes that commit with their journal entry and
 * their money) and outside one (Store.registers, committed reads). The SQL is
 * the same on SQLite and PostgreSQL; placeholders are `?`.
 *
 * Lei 8/2005: identity rows are personal data. Nothing here decides who may
 * read them; the server's roles do, and every read of an identity by staff is
 * recorded with recordRead.
 */
import { pageLimit } from './sql-columns.js';

/** Rows per page of every register's list. */
export const REGISTER_ROWS_MAX = 1_000;

export interface SqlRunner {
  all<R>(sql: string, params: readonly unknown[]): Promise<R[]>;
  run(sql: string, params: readonly unknown[]): Promise<number>;
}

export interface IdentityRow {
  readonly userId: string;
  readonly fullName: string;
  readonly documentType: string;
  readonly documentNumber: string;
  /** HMAC of the document (src/compliance/people): what the journal holds instead of the number. */
  readonly documentDigest: string;
  readonly issuingPlace: string;
  readonly dateOfBirth: string;
  readonly nationality: string;
  readonly kind: 'real' | 'demonstration' | 'simulated';
  /** 1 when first recorded, +1 on every correction. */
  readonly version: number;
  readonly updatedAtMs: number;
  readonly updatedBy: string;
}

export interface IdentityChangeRow {
  readonly userId: string;
  readonly version: number;
  readonly atMs: number;
  readonly by: string;
  /** The fields this version changed (all of them for the first). */
  readonly fields: readonly string[];
  /** The identity as this version wrote it. */
  readonly identity: Readonly<Record<string, unknown>>;
}

export interface IdentityReadRow {
  readonly id: number;
  readonly atMs: number;
  readonly readerId: string;
  readonly subjectId: string;
  readonly purpose: string;
}

export interface ExclusionRow {
  readonly id: string;
  readonly kind: string;
  readonly dicjReference: string;
  readonly documentType: string;
  readonly documentNumber: string;
  readonly fullName: string | null;
  readonly dateOfBirth: string | null;
  readonly from: string;
  readonly to: string;
  readonly revocationRequestedOn: string | null;
  readonly recordedBy: string;
  readonly recordedAtMs: number;
}

export interface WorkerCauseRow {
  readonly id: string;
  readonly documentType: string;
  readonly documentNumber: string;
  readonly kind: string;
  readonly approvalReference: string;
  readonly from: string;
  readonly to: string;
  readonly recordedBy: string;
  readonly recordedAtMs: number;
}

export interface LargeTransactionRow {
  readonly id: string;
  readonly atMs: number;
  readonly playerId: string;
  readonly documentType: string;
  readonly documentNumber: string;
  readonly amountMinor: number;
  /** deposit, withdrawal, bet or payout. */
  readonly kind: string;
  /** single (the amount alone) or linked (the gaming day's cash together). */
  readonly reason: string;
  /** The cashier, for the cage's moves. */
  readonly by: string | null;
  /** The table, for bets and payouts. */
  readonly tableId: string | null;
  /** The cashier confirmed seeing the document (cash at the cage). */
  readonly sighted: boolean;
  readonly journalSeq: number | null;
}

export type FlagStatus = 'open' | 'closed' | 'reported';

export interface FlagRow {
  readonly id: string;
  readonly rule: string;
  readonly playerId: string;
  readonly raisedAtMs: number;
  readonly message: string;
  readonly details: Readonly<Record<string, number>>;
  readonly status: FlagStatus;
  readonly decidedBy: string | null;
  readonly decidedAtMs: number | null;
  readonly reason: string | null;
  /** The journal entries the flag concerns (its cash moves). */
  readonly journalSeqs: readonly number[];
}

const IDENTITY_COLUMNS = `user_id AS "userId", full_name AS "fullName", document_type AS "documentType",
  document_number AS "documentNumber", document_digest AS "documentDigest", issuing_place AS "issuingPlace",
  date_of_birth AS "dateOfBirth", nationality, kind, version, updated_at_ms AS "updatedAtMs",
  updated_by AS "updatedBy"`;
const EXCLUSION_COLUMNS = `id, kind, dicj_reference AS "dicjReference", document_type AS "documentType",
  document_number AS "documentNumber", full_name AS "fullName", date_of_birth AS "dateOfBirth",
  from_date AS "from", to_date AS "to", revocation_requested_on AS "revocationRequestedOn",
  recorded_by AS "recordedBy", recorded_at_ms AS "recordedAtMs"`;
const CAUSE_COLUMNS = `id, document_type AS "documentType", document_number AS "documentNumber", kind,
  approval_reference AS "approvalReference", from_date AS "from", to_date AS "to",
  recorded_by AS "recordedBy", recorded_at_ms AS "recordedAtMs"`;
const LARGE_COLUMNS = `id, at_ms AS "atMs", player_id AS "playerId", document_type AS "documentType",
  document_number AS "documentNumber", amount_minor AS "amountMinor", kind, reason, by_user AS "by",
  table_id AS "tableId", sighted, journal_seq AS "journalSeq"`;
const FLAG_COLUMNS = `id, rule, player_id AS "playerId", raised_at_ms AS "raisedAtMs", message,
  details_json AS "detailsJson", status, decided_by AS "decidedBy", decided_at_ms AS "decidedAtMs",
  reason, journal_seqs_json AS "journalSeqsJson"`;

type LargeRow = Omit<LargeTransactionRow, 'sighted'> & { readonly sighted: number };
type StoredFlag = Omit<FlagRow, 'details' | 'journalSeqs'> & {
  readonly detailsJson: string;
  readonly journalSeqsJson: string;
};

const toLarge = ({ sighted, ...row }: LargeRow): LargeTransactionRow => ({
  ...row,
  sighted: sighted === 1,
});
const toFlag = ({ detailsJson, journalSeqsJson, ...row }: StoredFlag): FlagRow => ({
  ...row,
  details: JSON.parse(detailsJson) as Record<string, number>,
  journalSeqs: JSON.parse(journalSeqsJson) as number[],
});

export class Registers {
  constructor(private readonly sql: SqlRunner) {}

  private async one<R>(sql: string, ...params: unknown[]): Promise<R | undefined> {
    return (await this.sql.all<R>(sql, params))[0];
  }

  /**
   * The key of the documents' digests (the journal's stand-in for a document
   * number): made once per database, the first caller's `candidateHex`
   * winning, and kept in meta, which no statement may change. It sits beside
   * the identities, which hold the numbers in clear anyway; what leaves the
   * database in an export (the journal) carries the digest and never the key.
   */
  async documentDigestKey(candidateHex: string): Promise<string> {
    await this.sql.run(
      "INSERT INTO meta (key, value) VALUES ('document_digest_key', ?) ON CONFLICT DO NOTHING",
      [candidateHex],
    );
    const row = await this.one<{ value: string }>(
      "SELECT value FROM meta WHERE key = 'document_digest_key'",
    );
    return row!.value;
  }

  // Identities.

  identity(userId: string): Promise<IdentityRow | undefined> {
    return this.one(`SELECT ${IDENTITY_COLUMNS} FROM identities WHERE user_id = ?`, userId);
  }

  /** The identities of these users (those who have one), in no particular order. */
  async identitiesOf(userIds: readonly string[]): Promise<IdentityRow[]> {
    if (userIds.length === 0) return [];
    const marks = userIds.map(() => '?').join(', ');
    return this.sql.all(
      `SELECT ${IDENTITY_COLUMNS} FROM identities WHERE user_id IN (${marks})`,
      userIds,
    );
  }

  /** Every account's identity with this document: a person may hold a player and a staff account. */
  identitiesByDocument(documentType: string, documentNumber: string): Promise<IdentityRow[]> {
    return this.sql.all(
      `SELECT ${IDENTITY_COLUMNS} FROM identities WHERE document_type = ? AND document_number = ?
        ORDER BY user_id`,
      [documentType, documentNumber],
    );
  }

  /** Identities with this date of birth (a possible match under another document). */
  identitiesByBirth(dateOfBirth: string): Promise<IdentityRow[]> {
    return this.sql.all(
      `SELECT ${IDENTITY_COLUMNS} FROM identities WHERE date_of_birth = ? ORDER BY user_id LIMIT 1000`,
      [dateOfBirth],
    );
  }

  /**
   * Writes the identity as version `row.version` (1: the first; n: replaces
   * version n − 1) with its history row; false when the version is not the
   * next one (a concurrent correction: the caller reads again).
   */
  async writeIdentity(row: IdentityRow, fields: readonly string[]): Promise<boolean> {
    const values = [
      row.fullName,
      row.documentType,
      row.documentNumber,
      row.documentDigest,
      row.issuingPlace,
      row.dateOfBirth,
      row.nationality,
      row.kind,
      row.version,
      row.updatedAtMs,
      row.updatedBy,
    ];
    const written =
      row.version === 1
        ? await this.sql.run(
            `INSERT INTO identities (user_id, full_name, document_type, document_number, document_digest,
              issuing_place, date_of_birth, nationality, kind, version, updated_at_ms, updated_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
            [row.userId, ...values],
          )
        : await this.sql.run(
            `UPDATE identities SET full_name = ?, document_type = ?, document_number = ?,
              document_digest = ?, issuing_place = ?, date_of_birth = ?, nationality = ?, kind = ?,
              version = ?, updated_at_ms = ?, updated_by = ?
            WHERE user_id = ? AND version = ?`,
            [...values, row.userId, row.version - 1],
          );
    if (written !== 1) return false;
    const { userId, version, updatedAtMs, updatedBy, ...identity } = row;
    await this.sql.run(
      `INSERT INTO identity_changes (user_id, version, at_ms, by_user, fields_json, identity_json)
        VALUES (?, ?, ?, ?, ?, ?)`,
      [userId, version, updatedAtMs, updatedBy, JSON.stringify(fields), JSON.stringify(identity)],
    );
    return true;
  }

  /** Every version of a user's identity, oldest first. */
  async identityChanges(userId: string): Promise<IdentityChangeRow[]> {
    const rows = await this.sql.all<{
      userId: string;
      version: number;
      atMs: number;
      by: string;
      fieldsJson: string;
      identityJson: string;
    }>(
      `SELECT user_id AS "userId", version, at_ms AS "atMs", by_user AS "by",
        fields_json AS "fieldsJson", identity_json AS "identityJson"
      FROM identity_changes WHERE user_id = ? ORDER BY version`,
      [userId],
    );
    return rows.map(({ fieldsJson, identityJson, ...r }) => ({
      ...r,
      fields: JSON.parse(fieldsJson) as string[],
      identity: JSON.parse(identityJson) as Record<string, unknown>,
    }));
  }

  /** Lei 8/2005: records that `readerId` read `subjectId`'s identity. */
  async recordRead(read: Omit<IdentityReadRow, 'id'>): Promise<void> {
    await this.sql.run(
      'INSERT INTO identity_reads (at_ms, reader_id, subject_id, purpose) VALUES (?, ?, ?, ?)',
      [read.atMs, read.readerId, read.subjectId, read.purpose],
    );
  }

  /** Reads of identities, newest first, before `beforeId`, of one subject if given. */
  reads(query: {
    readonly subjectId?: string;
    readonly beforeId?: number;
    readonly limit?: number;
  }): Promise<IdentityReadRow[]> {
    return this.sql.all(
      `SELECT id, at_ms AS "atMs", reader_id AS "readerId", subject_id AS "subjectId", purpose
      FROM identity_reads WHERE (CAST(? AS TEXT) IS NULL OR subject_id = ?) AND id < ?
      ORDER BY id DESC LIMIT ?`,
      [
        query.subjectId ?? null,
        query.subjectId ?? null,
        query.beforeId ?? Number.MAX_SAFE_INTEGER,
        pageLimit(query.limit, REGISTER_ROWS_MAX),
      ],
    );
  }

  // Exclusion orders.

  /** False when an order with this id exists already (it is left as it was). */
  async insertExclusion(row: ExclusionRow): Promise<boolean> {
    const written = await this.sql.run(
      `INSERT INTO exclusion_orders (id, kind, dicj_reference, document_type, document_number,
        full_name, date_of_birth, from_date, to_date, revocation_requested_on, recorded_by, recorded_at_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [
        row.id,
        row.kind,
        row.dicjReference,
        row.documentType,
        row.documentNumber,
        row.fullName,
        row.dateOfBirth,
        row.from,
        row.to,
        row.revocationRequestedOn,
        row.recordedBy,
        row.recordedAtMs,
      ],
    );
    return written === 1;
  }

  exclusion(id: string): Promise<ExclusionRow | undefined> {
    return this.one(`SELECT ${EXCLUSION_COLUMNS} FROM exclusion_orders WHERE id = ?`, id);
  }

  exclusionsByDocument(documentType: string, documentNumber: string): Promise<ExclusionRow[]> {
    return this.sql.all(
      `SELECT ${EXCLUSION_COLUMNS} FROM exclusion_orders
        WHERE document_type = ? AND document_number = ? ORDER BY from_date, id`,
      [documentType, documentNumber],
    );
  }

  exclusionsByBirth(dateOfBirth: string): Promise<ExclusionRow[]> {
    return this.sql.all(
      `SELECT ${EXCLUSION_COLUMNS} FROM exclusion_orders WHERE date_of_birth = ? ORDER BY id LIMIT 1000`,
      [dateOfBirth],
    );
  }

  /** Orders in id order after `afterId`. */
  exclusions(query: {
    readonly afterId?: string;
    readonly limit?: number;
  }): Promise<ExclusionRow[]> {
    return this.sql.all(
      `SELECT ${EXCLUSION_COLUMNS} FROM exclusion_orders WHERE id > ? ORDER BY id LIMIT ?`,
      [query.afterId ?? '', pageLimit(query.limit, REGISTER_ROWS_MAX)],
    );
  }

  /** Records a revocation request; false when there is no such order or one was recorded. */
  async requestRevocation(id: string, requestedOn: string): Promise<boolean> {
    const written = await this.sql.run(
      `UPDATE exclusion_orders SET revocation_requested_on = ?
        WHERE id = ? AND revocation_requested_on IS NULL`,
      [requestedOn, id],
    );
    return written === 1;
  }

  // Workers' causes.

  async insertWorkerCause(row: WorkerCauseRow): Promise<boolean> {
    const written = await this.sql.run(
      `INSERT INTO worker_causes (id, document_type, document_number, kind, approval_reference,
        from_date, to_date, recorded_by, recorded_at_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [
        row.id,
        row.documentType,
        row.documentNumber,
        row.kind,
        row.approvalReference,
        row.from,
        row.to,
        row.recordedBy,
        row.recordedAtMs,
      ],
    );
    return written === 1;
  }

  workerCausesByDocument(documentType: string, documentNumber: string): Promise<WorkerCauseRow[]> {
    return this.sql.all(
      `SELECT ${CAUSE_COLUMNS} FROM worker_causes
        WHERE document_type = ? AND document_number = ? ORDER BY from_date, id`,
      [documentType, documentNumber],
    );
  }

  /**
   * Whether an enabled staff account's identity has this document (Lei
   * 10/2012, art. 2: a casino worker); a disabled account is a former worker's.
   */
  async isStaffDocument(documentType: string, documentNumber: string): Promise<boolean> {
    const row = await this.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM identities i JOIN users u ON u.id = i.user_id
        WHERE i.document_type = ? AND i.document_number = ? AND u.role <> 'player' AND NOT u.disabled`,
      documentType,
      documentNumber,
    );
    return Number(row?.n ?? 0) > 0;
  }

  /**
   * A player's cash at the cage (deposits and withdrawals: the transfers with
   * reference `player:<id>`) posted at or after `sinceMs`, oldest first, by
   * the reference index; inside a transaction, its own transfers included.
   */
  cashSince(
    playerId: string,
    sinceMs: number,
  ): Promise<{ id: string; kind: 'deposit' | 'withdrawal'; amountMinor: number; atMs: number }[]> {
    return this.sql.all(
      `SELECT id, kind, amount_minor AS "amountMinor", created_at_ms AS "atMs" FROM transfers
        WHERE reference = ? AND created_at_ms >= ? AND kind IN ('deposit', 'withdrawal')
        ORDER BY seq LIMIT 10000`,
      [`player:${playerId}`, sinceMs],
    );
  }

  /**
   * What a wallet staked, net of bets withdrawn, in the transfers posted after
   * the transfer `afterTransferId` (a deposit): the "little play" of the
   * suspicion rules. It reads the transfers after that one only, so its cost is
   * the floor's activity since, not the ledger's history.
   */
  async stakedSince(walletId: string, afterTransferId: string): Promise<number> {
    const row = await this.one<{ staked: number | null }>(
      `SELECT SUM(CASE WHEN kind = 'bet' THEN amount_minor ELSE -amount_minor END) AS staked
        FROM transfers
        WHERE seq > (SELECT seq FROM transfers WHERE id = ?)
          AND ((kind = 'bet' AND debit_account_id = ?) OR (kind = 'bet-withdrawn' AND credit_account_id = ?))`,
      afterTransferId,
      walletId,
      walletId,
    );
    return Number(row?.staked ?? 0);
  }

  // The large-transaction register.

  async insertLargeTransaction(row: LargeTransactionRow): Promise<void> {
    await this.sql.run(
      `INSERT INTO large_transactions (id, at_ms, player_id, document_type, document_number,
        amount_minor, kind, reason, by_user, table_id, sighted, journal_seq)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        row.id,
        row.atMs,
        row.playerId,
        row.documentType,
        row.documentNumber,
        row.amountMinor,
        row.kind,
        row.reason,
        row.by,
        row.tableId,
        row.sighted ? 1 : 0,
        row.journalSeq,
      ],
    );
  }

  /** Large transactions from `fromMs` (inclusive) to `toMs` (exclusive), oldest first. */
  async largeTransactions(query: {
    readonly fromMs: number;
    readonly toMs: number;
    readonly limit?: number;
  }): Promise<LargeTransactionRow[]> {
    const rows = await this.sql.all<LargeRow>(
      `SELECT ${LARGE_COLUMNS} FROM large_transactions WHERE at_ms >= ? AND at_ms < ?
        ORDER BY at_ms, id LIMIT ?`,
      [query.fromMs, query.toMs, pageLimit(query.limit, REGISTER_ROWS_MAX)],
    );
    return rows.map(toLarge);
  }

  // Suspicion flags.

  /** False when a flag with this id exists already. */
  async insertFlag(row: FlagRow): Promise<boolean> {
    const written = await this.sql.run(
      `INSERT INTO suspicion_flags (id, rule, player_id, raised_at_ms, message, details_json, status,
        decided_by, decided_at_ms, reason, journal_seqs_json)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [
        row.id,
        row.rule,
        row.playerId,
        row.raisedAtMs,
        row.message,
        JSON.stringify(row.details),
        row.status,
        row.decidedBy,
        row.decidedAtMs,
        row.reason,
        JSON.stringify(row.journalSeqs),
      ],
    );
    return written === 1;
  }

  async flag(id: string): Promise<FlagRow | undefined> {
    const row = await this.one<StoredFlag>(
      `SELECT ${FLAG_COLUMNS} FROM suspicion_flags WHERE id = ?`,
      id,
    );
    return row === undefined ? undefined : toFlag(row);
  }

  /** Flags newest first, of one status if given. */
  async flags(query: {
    readonly status?: FlagStatus;
    readonly limit?: number;
  }): Promise<FlagRow[]> {
    const rows = await this.sql.all<StoredFlag>(
      `SELECT ${FLAG_COLUMNS} FROM suspicion_flags WHERE (CAST(? AS TEXT) IS NULL OR status = ?)
        ORDER BY raised_at_ms DESC, id DESC LIMIT ?`,
      [query.status ?? null, query.status ?? null, pageLimit(query.limit, REGISTER_ROWS_MAX)],
    );
    return rows.map(toFlag);
  }

  /** Closes or reports an open flag; false when it is not open (or does not exist). */
  async decideFlag(decision: {
    readonly id: string;
    readonly status: 'closed' | 'reported';
    readonly by: string;
    readonly atMs: number;
    readonly reason: string;
  }): Promise<boolean> {
    const written = await this.sql.run(
      `UPDATE suspicion_flags SET status = ?, decided_by = ?, decided_at_ms = ?, reason = ?
        WHERE id = ? AND status = 'open'`,
      [decision.status, decision.by, decision.atMs, decision.reason, decision.id],
    );
    return written === 1;
  }
}
