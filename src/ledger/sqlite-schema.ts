/**
 * SQLite migrations, applied in order on open. A migration is never edited
 * once released: a change is a new migration with the next number.
 */
import { GENESIS_HASH } from '../journal/index.js';
import type { Migration } from './migration.js';

const refuse = (table: string, op: 'UPDATE' | 'DELETE', why: string): string => `
CREATE TRIGGER ${table}_refuse_${op.toLowerCase()} BEFORE ${op} ON ${table}
BEGIN SELECT RAISE(ABORT, 'cussec: ${op} on ${table} is refused: ${why}'); END;`;

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'ledger, tables, commands, journal',
    sql: `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
${refuse('meta', 'UPDATE', 'the ledger currency is fixed at creation')}
${refuse('meta', 'DELETE', 'the ledger currency is fixed at creation')}

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('wallet', 'in-play', 'bankroll', 'cage')),
  balance_minor INTEGER NOT NULL DEFAULT 0,
  created_at_ms INTEGER NOT NULL,
  -- Only house accounts may go below zero (see AccountKind).
  CONSTRAINT balance_not_negative CHECK (balance_minor >= 0 OR kind IN ('bankroll', 'cage'))
) STRICT, WITHOUT ROWID; -- one B-tree search per balance read or update, not two
${refuse('accounts', 'DELETE', 'accounts are never deleted')}
CREATE TRIGGER accounts_refuse_rekind BEFORE UPDATE OF id, kind, created_at_ms ON accounts
BEGIN SELECT RAISE(ABORT, 'cussec: an account''s id and kind never change'); END;

CREATE TABLE transfers (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  debit_account_id TEXT NOT NULL REFERENCES accounts (id),
  credit_account_id TEXT NOT NULL REFERENCES accounts (id),
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  kind TEXT NOT NULL,
  reference TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  CHECK (debit_account_id <> credit_account_id)
) STRICT;
CREATE INDEX transfers_by_reference ON transfers (reference);
-- No index by debit or credit account: two more B-trees per transfer cost about
-- a third of the settlement's throughput; transfersOfAccount scans instead.
${refuse('transfers', 'UPDATE', 'transfers are immutable; post a correcting transfer')}
${refuse('transfers', 'DELETE', 'transfers are immutable; post a correcting transfer')}

CREATE TABLE tables (
  id TEXT PRIMARY KEY,
  config_json TEXT NOT NULL,
  state_json TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version >= 1),
  updated_at_ms INTEGER NOT NULL
) STRICT;

CREATE TABLE commands (
  key TEXT PRIMARY KEY,
  request_hash TEXT NOT NULL,
  response_json TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL
) STRICT;
${refuse('commands', 'UPDATE', 'a command keeps its first answer')}

CREATE TABLE journal (
  seq INTEGER PRIMARY KEY CHECK (seq >= 1),
  table_id TEXT,
  type TEXT NOT NULL,
  payload_json TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
) STRICT;
CREATE INDEX journal_by_table ON journal (table_id, seq);
${refuse('journal', 'UPDATE', 'the journal is append-only')}
${refuse('journal', 'DELETE', 'the journal is append-only')}

CREATE TABLE journal_head (
  chain TEXT PRIMARY KEY,
  last_seq INTEGER NOT NULL,
  last_hash TEXT NOT NULL
) STRICT;
INSERT INTO journal_head (chain, last_seq, last_hash) VALUES ('global', 0, '${GENESIS_HASH}');
${refuse('journal_head', 'DELETE', 'the journal head is never removed')}
-- The head only moves forward, and only onto an entry that exists.
CREATE TRIGGER journal_head_forward_only BEFORE UPDATE ON journal_head
WHEN NEW.chain <> OLD.chain OR NEW.last_seq <= OLD.last_seq
  OR NOT EXISTS (SELECT 1 FROM journal WHERE seq = NEW.last_seq AND hash = NEW.last_hash)
BEGIN SELECT RAISE(ABORT, 'cussec: the journal head only moves forward to an existing entry'); END;
`,
  },
  {
    version: 2,
    name: 'users and login sessions',
    // The role list is written out, not built from ROLES: a released migration never changes.
    sql: `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL,
  -- usernameKey(username), computed by the code: SQLite's lower() folds ASCII only.
  username_key TEXT NOT NULL CONSTRAINT users_username_key_unique UNIQUE,
  display_name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('player', 'croupier', 'supervisor', 'cashier', 'inspector')),
  password_hash TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1))
) STRICT;
CREATE INDEX users_by_role ON users (role, id);
${refuse('users', 'DELETE', 'users are never deleted; the journal and the ledger refer to them')}
CREATE TRIGGER users_refuse_reidentify BEFORE UPDATE OF id, created_at_ms ON users
BEGIN SELECT RAISE(ABORT, 'cussec: a user''s id never changes'); END;

-- Sessions may be deleted (logout, expiry); token_hash is SHA-256 hex of the token.
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  created_at_ms INTEGER NOT NULL,
  expires_at_ms INTEGER NOT NULL,
  last_seen_at_ms INTEGER,
  CHECK (expires_at_ms > created_at_ms)
) STRICT, WITHOUT ROWID;
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at_ms);
`,
  },
  {
    version: 3,
    name: 'audit checkpoints',
    // What a verified audit reached: the entry (seq, hash) and the replay's state
    // there, so that the next audit reads only the entries after it.
    sql: `
CREATE TABLE audit_checkpoints (
  seq INTEGER PRIMARY KEY,
  hash TEXT NOT NULL,
  state_json TEXT NOT NULL,
  verified_at_ms INTEGER NOT NULL
) STRICT;
`,
  },
  {
    version: 4,
    name: 'a password somebody else chose must be changed at first sign-in',
    sql: `
ALTER TABLE users ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0
  CHECK (must_change_password IN (0, 1));
`,
  },
  {
    version: 5,
    name: 'read models: indexed journal types, settled rounds by time, kept state',
    // The type list is written out, not built from INDEXED_JOURNAL_TYPES: a released migration never changes.
    sql: `
-- The few entries that reads look up by table and type (settings, house options,
-- fairness, holidays, settlements): a partial index, so the bets and the other
-- entries of a round cost it nothing.
CREATE INDEX journal_by_table_type ON journal (table_id, type, seq)
  WHERE type IN ('table-created', 'table-settings-changed', 'house-options-proposed', 'dicj-authorization-recorded', 'house-options-adopted', 'house-options-withdrawn', 'house-options-refused', 'fairness-alert-raised', 'fairness-alert-cleared', 'table-held', 'table-hold-released', 'dice-changed', 'holiday-year-loaded', 'round-settled');
-- A day's settlements of a table, for the daily report.
CREATE INDEX journal_settled_by_time ON journal (table_id, at_ms) WHERE type = 'round-settled';

-- State folded from the journal up to seq (e.g. a table's fairness monitor),
-- so that a restart reads only the entries after it. Always rebuildable from the
-- journal; audit verify checks each against it.
CREATE TABLE read_models (
  name TEXT PRIMARY KEY,
  seq INTEGER NOT NULL CHECK (seq >= 0),
  value_json TEXT NOT NULL,
  updated_at_ms INTEGER NOT NULL
) STRICT;

-- Idempotency records are swept after the retry window (docs/ledger.md).
CREATE INDEX commands_by_age ON commands (created_at_ms);
`,
  },
  {
    version: 6,
    name: 'leaner journal: hashes as 32 bytes, prev_hash read from the entry before',
    // The hashed text does not change (journal/entry.ts): only how the hash is kept.
    // The table is rebuilt (SQLite cannot change a column's type), then its indexes,
    // its guards and the head's guard, which names it, are made again as before.
    sql: `
DROP TRIGGER journal_head_forward_only;
CREATE TABLE journal_v6 (
  seq INTEGER PRIMARY KEY CHECK (seq >= 1),
  table_id TEXT,
  type TEXT NOT NULL,
  payload_json TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  -- SHA-256 of the entry's canonical JSON (journal/entry.ts), 32 bytes; the entry's
  -- prevHash is the hash of the entry seq - 1, so it is not stored twice.
  hash BLOB NOT NULL CHECK (length(hash) = 32)
) STRICT;
INSERT INTO journal_v6 (seq, table_id, type, payload_json, at_ms, hash)
  SELECT seq, table_id, type, payload_json, at_ms, unhex(hash) FROM journal ORDER BY seq;
DROP TABLE journal;
ALTER TABLE journal_v6 RENAME TO journal;
CREATE INDEX journal_by_table ON journal (table_id, seq);
CREATE INDEX journal_by_table_type ON journal (table_id, type, seq)
  WHERE type IN ('table-created', 'table-settings-changed', 'house-options-proposed', 'dicj-authorization-recorded', 'house-options-adopted', 'house-options-withdrawn', 'house-options-refused', 'fairness-alert-raised', 'fairness-alert-cleared', 'table-held', 'table-hold-released', 'dice-changed', 'holiday-year-loaded', 'round-settled');
CREATE INDEX journal_settled_by_time ON journal (table_id, at_ms) WHERE type = 'round-settled';
${refuse('journal', 'UPDATE', 'the journal is append-only')}
${refuse('journal', 'DELETE', 'the journal is append-only')}
-- The head keeps its hash as hex (one row); it only moves forward, onto an entry that exists.
CREATE TRIGGER journal_head_forward_only BEFORE UPDATE ON journal_head
WHEN NEW.chain <> OLD.chain OR NEW.last_seq <= OLD.last_seq
  OR NOT EXISTS (SELECT 1 FROM journal WHERE seq = NEW.last_seq AND hash = unhex(NEW.last_hash))
BEGIN SELECT RAISE(ABORT, 'cussec: the journal head only moves forward to an existing entry'); END;
`,
  },
  {
    version: 7,
    name: 'table leases: the epoch that fences the commits of a table, and where its holder listens',
    sql: `
ALTER TABLE tables ADD COLUMN lease_epoch INTEGER NOT NULL DEFAULT 0 CHECK (lease_epoch >= 0);
ALTER TABLE tables ADD COLUMN lease_holder TEXT;
`,
  },
  {
    version: 8,
    name: 'staff actions by seq',
    // The type list is written out, not built from STAFF_ACTION_TYPES: a released migration never changes.
    sql: `
-- Who did what to accounts and tables, newest first, for the inspector: a partial
-- index, so the rounds' entries cost it nothing.
CREATE INDEX journal_staff_actions ON journal (seq)
  WHERE type IN ('user-created', 'user-disabled', 'user-enabled', 'password-reset', 'password-changed', 'session-revoked', 'table-created', 'table-settings-changed', 'table-opened', 'table-closed');
`,
  },
  {
    version: 9,
    name: 'round events kept in a compact form',
    // Nothing is rewritten: rows written before keep their canonical JSON and read as
    // before. The number is what matters: a release before this one cannot read the
    // compact form (journal/stored-payload.ts), and refuses a database at version 9.
    sql: `
INSERT INTO meta (key, value) VALUES ('journal_payload_forms',
  'canonical JSON, or a round event''s compact form from migration 9 on (journal/stored-payload.ts)');
`,
  },
  {
    version: 10,
    name: 'transfers not indexed by account',
    // SQLite never had these indexes (see version 1); the version keeps both engines' lists alike.
    sql: `
DROP INDEX IF EXISTS transfers_by_debit;
DROP INDEX IF EXISTS transfers_by_credit;
`,
  },
  {
    version: 11,
    name: 'the journal head is checked onto its entry at commit',
    // PostgreSQL's head trigger changed (one statement writes the entries and moves the
    // head there); SQLite's checks at once as before. The version keeps both engines' lists alike.
    sql: `SELECT 1;`,
  },
  {
    version: 12,
    name: "a player's cage moves by player; the floor's settings; sessions keep their device and address",
    sql: `
-- The cage's history of a player (deposits and withdrawals, newest first): a
-- partial index over the payload's playerId, so the rounds' entries cost it nothing.
CREATE INDEX journal_cage_by_player ON journal (json_extract(payload_json, '$.playerId'), seq)
  WHERE type IN ('deposit', 'withdrawal');
-- The floor's settings in force: the newest entry that set them (service/floor-settings.ts).
CREATE INDEX journal_floor_settings ON journal (seq) WHERE type = 'floor-settings-changed';
-- Which browser and address a session signed in from, for the supervisor's list of
-- sessions; null for sessions started before.
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
ALTER TABLE sessions ADD COLUMN address TEXT;
`,
  },
  {
    version: 13,
    name: "who may play: identities with their history and reads, exclusion orders, workers' causes, large transactions, suspicion flags; the compliance role",
    sql: `
-- Lei 10/2012 and Instrução 1/2016 (src/service/people.ts). The compliance role
-- joins the users' CHECK. SQLite cannot alter a CHECK; loosening one by editing
-- the schema's text is the procedure SQLite documents for it ("Making other kinds
-- of table schema changes"); RESET reloads the schema on every connection.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
  SET sql = replace(sql, '''cashier'', ''inspector'')', '''cashier'', ''inspector'', ''compliance'')')
  WHERE type = 'table' AND name = 'users';
-- Lei 10/2012, art. 11: the Macau SAR's account, where a barred player's net winnings go.
UPDATE sqlite_schema
  SET sql = replace(sql, '(''wallet'', ''in-play'', ''bankroll'', ''cage'')', '(''wallet'', ''in-play'', ''bankroll'', ''cage'', ''sar'')')
  WHERE type = 'table' AND name = 'accounts';
PRAGMA writable_schema = RESET;

-- A person's identity (Lei 8/2005: personal data; never in the journal, which
-- holds a keyed digest of the document). One row a user; every version of it is
-- in identity_changes.
CREATE TABLE identities (
  user_id TEXT PRIMARY KEY REFERENCES users (id),
  full_name TEXT NOT NULL,
  document_type TEXT NOT NULL,
  document_number TEXT NOT NULL,
  document_digest TEXT NOT NULL,
  issuing_place TEXT NOT NULL,
  date_of_birth TEXT NOT NULL,
  nationality TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('real', 'demonstration', 'simulated')),
  version INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  updated_by TEXT NOT NULL
) STRICT;
CREATE INDEX identities_by_document ON identities (document_type, document_number);
${refuse('identities', 'DELETE', 'an identity is corrected, never removed')}
-- Every version of every identity: who wrote which fields, and when.
CREATE TABLE identity_changes (
  user_id TEXT NOT NULL REFERENCES users (id),
  version INTEGER NOT NULL,
  at_ms INTEGER NOT NULL,
  by_user TEXT NOT NULL,
  fields_json TEXT NOT NULL,
  identity_json TEXT NOT NULL,
  PRIMARY KEY (user_id, version)
) STRICT;
${refuse('identity_changes', 'UPDATE', 'the history of an identity is kept as it was written')}
${refuse('identity_changes', 'DELETE', 'the history of an identity is kept as it was written')}
-- Lei 8/2005: who read whose identity, when and why.
CREATE TABLE identity_reads (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at_ms INTEGER NOT NULL,
  reader_id TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  purpose TEXT NOT NULL
) STRICT;
CREATE INDEX identity_reads_by_subject ON identity_reads (subject_id, id);
${refuse('identity_reads', 'UPDATE', 'the record of reads is kept as it was written')}
${refuse('identity_reads', 'DELETE', 'the record of reads is kept as it was written')}
-- Lei 10/2012, arts. 2 and 6: exclusion orders, found by the person's document.
CREATE TABLE exclusion_orders (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  dicj_reference TEXT NOT NULL,
  document_type TEXT NOT NULL,
  document_number TEXT NOT NULL,
  full_name TEXT,
  date_of_birth TEXT,
  from_date TEXT NOT NULL,
  to_date TEXT NOT NULL,
  revocation_requested_on TEXT,
  recorded_by TEXT NOT NULL,
  recorded_at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX exclusion_orders_by_document ON exclusion_orders (document_type, document_number);
CREATE INDEX exclusion_orders_by_birth ON exclusion_orders (date_of_birth);
${refuse('exclusion_orders', 'DELETE', 'an order is revoked, never removed')}
-- Lei 10/2012, art. 2: a worker's legitimate cause to enter (training, an exceptional entry).
CREATE TABLE worker_causes (
  id TEXT PRIMARY KEY,
  document_type TEXT NOT NULL,
  document_number TEXT NOT NULL,
  kind TEXT NOT NULL,
  approval_reference TEXT NOT NULL,
  from_date TEXT NOT NULL,
  to_date TEXT NOT NULL,
  recorded_by TEXT NOT NULL,
  recorded_at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX worker_causes_by_document ON worker_causes (document_type, document_number);
${refuse('worker_causes', 'UPDATE', 'a cause is recorded once')}
${refuse('worker_causes', 'DELETE', 'a cause is recorded once')}
-- Instrução 1/2016: the large-transaction register.
CREATE TABLE large_transactions (
  id TEXT PRIMARY KEY,
  at_ms INTEGER NOT NULL,
  player_id TEXT NOT NULL,
  document_type TEXT NOT NULL,
  document_number TEXT NOT NULL,
  amount_minor INTEGER NOT NULL,
  kind TEXT NOT NULL,
  reason TEXT NOT NULL,
  by_user TEXT,
  table_id TEXT,
  sighted INTEGER NOT NULL CHECK (sighted IN (0, 1)),
  journal_seq INTEGER
) STRICT;
CREATE INDEX large_transactions_by_time ON large_transactions (at_ms, id);
${refuse('large_transactions', 'UPDATE', 'the register is kept as it was written')}
${refuse('large_transactions', 'DELETE', 'the register is kept as it was written')}
-- Instrução 1/2016: suspicion flags and their review by the compliance officer.
CREATE TABLE suspicion_flags (
  id TEXT PRIMARY KEY,
  rule TEXT NOT NULL,
  player_id TEXT NOT NULL,
  raised_at_ms INTEGER NOT NULL,
  message TEXT NOT NULL,
  details_json TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'closed', 'reported')),
  decided_by TEXT,
  decided_at_ms INTEGER,
  reason TEXT,
  journal_seqs_json TEXT NOT NULL
) STRICT;
CREATE INDEX suspicion_flags_by_status ON suspicion_flags (status, raised_at_ms);
${refuse('suspicion_flags', 'DELETE', 'a flag is closed or reported, never removed')}
`,
  },
];
