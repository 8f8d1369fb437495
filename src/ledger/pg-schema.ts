/**
 * PostgreSQL migrations, applied in order on open under an advisory lock. A
 * migration is never edited once released: a change is a new migration.
 *
 * Money columns are BIGINT; JSON is kept as TEXT because the database never
 * looks inside it and TEXT keeps the exact bytes that were hashed.
 */
import { GENESIS_HASH } from '../journal/index.js';
import type { Migration } from './migration.js';

const refuse = (table: string, why: string, ops = 'UPDATE OR DELETE'): string => `
CREATE TRIGGER ${table}_refuse_change BEFORE ${ops} ON ${table}
  FOR EACH ROW EXECUTE FUNCTION cussec_refuse('${why}');
CREATE TRIGGER ${table}_refuse_truncate BEFORE TRUNCATE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION cussec_refuse('${why}');`;

export const PG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'ledger, tables, commands, journal',
    sql: `
CREATE FUNCTION cussec_refuse() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  RAISE EXCEPTION 'cussec: % on % is refused: %', TG_OP, TG_TABLE_NAME, TG_ARGV[0]
    USING ERRCODE = 'integrity_constraint_violation';
END $$;

CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
${refuse('meta', 'the ledger currency is fixed at creation')}

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('wallet', 'in-play', 'bankroll', 'cage')),
  balance_minor BIGINT NOT NULL DEFAULT 0,
  created_at_ms BIGINT NOT NULL,
  -- Only house accounts may go below zero (see AccountKind).
  CONSTRAINT balance_not_negative CHECK (balance_minor >= 0 OR kind IN ('bankroll', 'cage'))
) WITH (fillfactor = 80); -- room for HOT updates of balance_minor
${refuse('accounts', 'accounts are never deleted', 'DELETE')}
CREATE TRIGGER accounts_refuse_rekind BEFORE UPDATE OF id, kind, created_at_ms ON accounts FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.kind IS DISTINCT FROM NEW.kind OR OLD.created_at_ms IS DISTINCT FROM NEW.created_at_ms)
  EXECUTE FUNCTION cussec_refuse('an account''s id and kind never change');

CREATE TABLE transfers (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL CONSTRAINT transfers_id_unique UNIQUE,
  -- No FOREIGN KEY: PostgreSQL checks one with a query per row (10,000 transfers
  -- took 376 ms with them, 244 ms without). postTransfers reads both accounts
  -- under FOR UPDATE before inserting, and accounts can never be deleted
  -- (trigger below), which is the guarantee a foreign key would give.
  debit_account_id TEXT NOT NULL,
  credit_account_id TEXT NOT NULL,
  amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
  kind TEXT NOT NULL,
  reference TEXT NOT NULL,
  created_at_ms BIGINT NOT NULL,
  CHECK (debit_account_id <> credit_account_id)
);
CREATE INDEX transfers_by_reference ON transfers (reference);
CREATE INDEX transfers_by_debit ON transfers (debit_account_id);
CREATE INDEX transfers_by_credit ON transfers (credit_account_id);
${refuse('transfers', 'transfers are immutable; post a correcting transfer')}

CREATE TABLE tables (
  id TEXT PRIMARY KEY,
  config_json TEXT NOT NULL,
  state_json TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version >= 1),
  updated_at_ms BIGINT NOT NULL
);

CREATE TABLE commands (
  key TEXT PRIMARY KEY,
  request_hash TEXT NOT NULL,
  response_json TEXT NOT NULL,
  created_at_ms BIGINT NOT NULL
);
${refuse('commands', 'a command keeps its first answer', 'UPDATE')}

CREATE TABLE journal (
  seq BIGINT PRIMARY KEY CHECK (seq >= 1),
  table_id TEXT,
  type TEXT NOT NULL,
  payload_json TEXT NOT NULL,
  at_ms BIGINT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX journal_by_table ON journal (table_id, seq);
${refuse('journal', 'the journal is append-only')}

CREATE TABLE journal_head (
  chain TEXT PRIMARY KEY,
  last_seq BIGINT NOT NULL,
  last_hash TEXT NOT NULL
);
INSERT INTO journal_head (chain, last_seq, last_hash) VALUES ('global', 0, '${GENESIS_HASH}');
${refuse('journal_head', 'the journal head is never removed', 'DELETE')}
CREATE FUNCTION cussec_journal_head_forward() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF NEW.chain <> OLD.chain OR NEW.last_seq <= OLD.last_seq
     OR NOT EXISTS (SELECT 1 FROM journal WHERE seq = NEW.last_seq AND hash = NEW.last_hash) THEN
    RAISE EXCEPTION 'cussec: the journal head only moves forward to an existing entry'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER journal_head_forward_only BEFORE UPDATE ON journal_head
  FOR EACH ROW EXECUTE FUNCTION cussec_journal_head_forward();
`,
  },
  {
    version: 2,
    name: 'users and login sessions',
    // The role list is written out, not built from ROLES: a released migration never changes.
    // Ids are COLLATE "C" so that listUsers pages in byte order, as on SQLite, by the index.
    sql: `
CREATE TABLE users (
  id TEXT COLLATE "C" PRIMARY KEY,
  username TEXT NOT NULL,
  -- usernameKey(username), computed by the code (NFKC and JavaScript's lower case).
  username_key TEXT NOT NULL CONSTRAINT users_username_key_unique UNIQUE,
  display_name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('player', 'croupier', 'supervisor', 'cashier', 'inspector')),
  password_hash TEXT NOT NULL,
  created_at_ms BIGINT NOT NULL,
  disabled BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX users_by_role ON users (role, id);
${refuse('users', 'users are never deleted; the journal and the ledger refer to them', 'DELETE')}
CREATE TRIGGER users_refuse_reidentify BEFORE UPDATE OF id, created_at_ms ON users FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.created_at_ms IS DISTINCT FROM NEW.created_at_ms)
  EXECUTE FUNCTION cussec_refuse('a user''s id never changes');

-- Sessions may be deleted (logout, expiry); token_hash is SHA-256 hex of the token.
-- A foreign key here, unlike on transfers: sessions are few and written one at a time.
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id),
  created_at_ms BIGINT NOT NULL,
  expires_at_ms BIGINT NOT NULL,
  last_seen_at_ms BIGINT,
  CHECK (expires_at_ms > created_at_ms)
);
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
  seq BIGINT PRIMARY KEY,
  hash TEXT NOT NULL,
  state_json TEXT NOT NULL,
  verified_at_ms BIGINT NOT NULL
);
`,
  },
  {
    version: 4,
    name: 'a password somebody else chose must be changed at first sign-in',
    sql: `
ALTER TABLE users ADD COLUMN must_change_password BOOLEAN NOT NULL DEFAULT FALSE;
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
  seq BIGINT NOT NULL CHECK (seq >= 0),
  value_json TEXT NOT NULL,
  updated_at_ms BIGINT NOT NULL
);

-- Idempotency records are swept after the retry window (docs/ledger.md).
CREATE INDEX commands_by_age ON commands (created_at_ms);
`,
  },
  {
    version: 6,
    name: 'leaner journal: hashes as 32 bytes, prev_hash read from the entry before',
    // The hashed text does not change (journal/entry.ts): only how the hash is kept.
    // prev_hash is dropped first, so the rewrite that changes hash's type leaves it out.
    sql: `
ALTER TABLE journal DROP COLUMN prev_hash;
ALTER TABLE journal ALTER COLUMN hash TYPE BYTEA USING decode(hash, 'hex');
ALTER TABLE journal ADD CONSTRAINT journal_hash_length CHECK (length(hash) = 32);
-- The head keeps its hash as hex (one row); it only moves forward, onto an entry that exists.
CREATE OR REPLACE FUNCTION cussec_journal_head_forward() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF NEW.chain <> OLD.chain OR NEW.last_seq <= OLD.last_seq
     OR NOT EXISTS (SELECT 1 FROM journal WHERE seq = NEW.last_seq AND encode(hash, 'hex') = NEW.last_hash) THEN
    RAISE EXCEPTION 'cussec: the journal head only moves forward to an existing entry'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END $$;
`,
  },
  {
    version: 7,
    name: 'table leases: the epoch that fences the commits of a table, and where its holder listens',
    sql: `
-- Incremented by each node that takes a table's lease; a batch commits only under
-- the epoch its node took (docs/deployment.md, "Forwarding and fencing").
ALTER TABLE tables ADD COLUMN lease_epoch INTEGER NOT NULL DEFAULT 0 CHECK (lease_epoch >= 0);
-- Where the lease holder takes the other nodes' commands for this table.
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
    sql: `
-- Nothing reads them on a hot path: accountMovesSince (game recall) walks the
-- transfers from its rounds' first seq on, and transfersOfAccount is for audits
-- and support, as on SQLite, which never had them. Each cost every transfer two
-- B-tree insertions: on a round's 2,100 payouts, a third of the INSERT's buffer
-- accesses (docs/ledger.md, "Settling a round on PostgreSQL").
DROP INDEX transfers_by_debit;
DROP INDEX transfers_by_credit;
`,
  },
  {
    version: 11,
    name: 'the journal head is checked onto its entry at commit',
    sql: `
-- The head still only moves forward, checked at once; that it lands on an entry
-- that exists is checked at commit, by a deferred constraint trigger, so that one
-- statement can insert the entries and move the head (a sibling data-modifying
-- CTE's rows are not visible to a BEFORE trigger). The journal is append-only,
-- so an entry seen at commit stays.
CREATE OR REPLACE FUNCTION cussec_journal_head_forward() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF NEW.chain <> OLD.chain OR NEW.last_seq <= OLD.last_seq THEN
    RAISE EXCEPTION 'cussec: the journal head only moves forward to an existing entry'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE FUNCTION cussec_journal_head_on_entry() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM journal WHERE seq = NEW.last_seq AND encode(hash, 'hex') = NEW.last_hash) THEN
    RAISE EXCEPTION 'cussec: the journal head only moves forward to an existing entry'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER journal_head_on_entry AFTER UPDATE ON journal_head
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cussec_journal_head_on_entry();
`,
  },
  {
    version: 12,
    name: "a player's cage moves by player; the floor's settings; sessions keep their device and address",
    sql: `
-- The cage's history of a player (deposits and withdrawals, newest first): a
-- partial index over the payload's playerId, so the rounds' entries cost it nothing.
CREATE INDEX journal_cage_by_player ON journal (((payload_json::jsonb) ->> 'playerId'), seq)
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
-- joins the users' CHECK.
ALTER TABLE users DROP CONSTRAINT users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check
  CHECK (role IN ('player', 'croupier', 'supervisor', 'cashier', 'inspector', 'compliance'));
-- Lei 10/2012, art. 11: the Macau SAR's account, where a barred player's net winnings go.
ALTER TABLE accounts DROP CONSTRAINT accounts_kind_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_kind_check
  CHECK (kind IN ('wallet', 'in-play', 'bankroll', 'cage', 'sar'));

-- A person's identity (Lei 8/2005: personal data; never in the journal, which
-- holds a keyed digest of the document). One row a user; every version of it is
-- in identity_changes.
CREATE TABLE identities (
  user_id TEXT COLLATE "C" PRIMARY KEY REFERENCES users (id),
  full_name TEXT NOT NULL,
  document_type TEXT NOT NULL,
  document_number TEXT NOT NULL,
  document_digest TEXT NOT NULL,
  issuing_place TEXT NOT NULL,
  date_of_birth TEXT NOT NULL,
  nationality TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('real', 'demonstration', 'simulated')),
  version INTEGER NOT NULL,
  updated_at_ms BIGINT NOT NULL,
  updated_by TEXT NOT NULL
);
CREATE INDEX identities_by_document ON identities (document_type, document_number);
${refuse('identities', 'an identity is corrected, never removed', 'DELETE')}
-- Every version of every identity: who wrote which fields, and when.
CREATE TABLE identity_changes (
  user_id TEXT COLLATE "C" NOT NULL REFERENCES users (id),
  version INTEGER NOT NULL,
  at_ms BIGINT NOT NULL,
  by_user TEXT NOT NULL,
  fields_json TEXT NOT NULL,
  identity_json TEXT NOT NULL,
  PRIMARY KEY (user_id, version)
);
${refuse('identity_changes', 'the history of an identity is kept as it was written')}
-- Lei 8/2005: who read whose identity, when and why.
CREATE TABLE identity_reads (
  id BIGSERIAL PRIMARY KEY,
  at_ms BIGINT NOT NULL,
  reader_id TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  purpose TEXT NOT NULL
);
CREATE INDEX identity_reads_by_subject ON identity_reads (subject_id, id);
${refuse('identity_reads', 'the record of reads is kept as it was written')}
-- Lei 10/2012, arts. 2 and 6: exclusion orders, found by the person's document.
CREATE TABLE exclusion_orders (
  id TEXT COLLATE "C" PRIMARY KEY,
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
  recorded_at_ms BIGINT NOT NULL
);
CREATE INDEX exclusion_orders_by_document ON exclusion_orders (document_type, document_number);
CREATE INDEX exclusion_orders_by_birth ON exclusion_orders (date_of_birth);
${refuse('exclusion_orders', 'an order is revoked, never removed', 'DELETE')}
-- Lei 10/2012, art. 2: a worker's legitimate cause to enter (training, an exceptional entry).
CREATE TABLE worker_causes (
  id TEXT COLLATE "C" PRIMARY KEY,
  document_type TEXT NOT NULL,
  document_number TEXT NOT NULL,
  kind TEXT NOT NULL,
  approval_reference TEXT NOT NULL,
  from_date TEXT NOT NULL,
  to_date TEXT NOT NULL,
  recorded_by TEXT NOT NULL,
  recorded_at_ms BIGINT NOT NULL
);
CREATE INDEX worker_causes_by_document ON worker_causes (document_type, document_number);
${refuse('worker_causes', 'a cause is recorded once')}
-- Instrução 1/2016: the large-transaction register.
CREATE TABLE large_transactions (
  id TEXT COLLATE "C" PRIMARY KEY,
  at_ms BIGINT NOT NULL,
  player_id TEXT NOT NULL,
  document_type TEXT NOT NULL,
  document_number TEXT NOT NULL,
  amount_minor BIGINT NOT NULL,
  kind TEXT NOT NULL,
  reason TEXT NOT NULL,
  by_user TEXT,
  table_id TEXT,
  sighted INTEGER NOT NULL CHECK (sighted IN (0, 1)),
  journal_seq BIGINT
);
CREATE INDEX large_transactions_by_time ON large_transactions (at_ms, id);
${refuse('large_transactions', 'the register is kept as it was written')}
-- Instrução 1/2016: suspicion flags and their review by the compliance officer.
CREATE TABLE suspicion_flags (
  id TEXT COLLATE "C" PRIMARY KEY,
  rule TEXT NOT NULL,
  player_id TEXT NOT NULL,
  raised_at_ms BIGINT NOT NULL,
  message TEXT NOT NULL,
  details_json TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'closed', 'reported')),
  decided_by TEXT,
  decided_at_ms BIGINT,
  reason TEXT,
  journal_seqs_json TEXT NOT NULL
);
CREATE INDEX suspicion_flags_by_status ON suspicion_flags (status, raised_at_ms);
${refuse('suspicion_flags', 'a flag is closed or reported, never removed', 'DELETE')}
`,
  },
];
