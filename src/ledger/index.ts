export * from './cluster.js';
export * from './errors.js';
export type { JournalNotice } from './journal-notice.js';
export { KeyedQueue, type KeyedQueueOptions } from './keyed-queue.js';
export type { Migration } from './migration.js';
export { PG_MIGRATIONS } from './pg-schema.js';
export {
  DEFAULT_PG_TIMEOUTS,
  isRetryable,
  openPgStore,
  type PgStoreOptions,
  type PgTimeouts,
} from './pg-store.js';
export { SQLITE_MIGRATIONS } from './sqlite-schema.js';
export { openSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
export * from './store.js';
export {
  assertTransferShape,
  planTransfers,
  type AccountState,
  type PlanInput,
  type TransferPlan,
} from './transfer-plan.js';
export * from './types.js';
export {
  CREATE_SESSION_ERROR_CODES,
  CREATE_USER_ERROR_CODES,
  type CreateSessionResult,
  type CreateUserResult,
  DISPLAY_NAME_LENGTH_MAX,
  PASSWORD_HASH_LENGTH_MAX,
  type Role,
  ROLES,
  type Session,
  SESSION_DEVICE_LENGTH_MAX,
  type SessionInput,
  type User,
  type UserInput,
  USERNAME_LENGTH_MAX,
  usernameKey,
  type UserWithSecret,
} from './users.js';
export {
  type AuditCheckpointRow,
  type AuditDb,
  openAuditDb,
  type SeqTransfer,
  type SnapshotReader,
  type TableJournalQuery,
} from './audit-db.js';
export * from './registers.js';
