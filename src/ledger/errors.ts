import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Opening a store can meet three operating errors, reported by a thrown
 * StoreOpenError so that a misconfigured process stops before serving anyone:
 * - currency_mismatch: the database keeps another currency than the one asked for;
 * - schema_too_new: the database was migrated by a newer release than this one;
 * - folder_not_writable: an SQLite database's folder is read-only, or this
 *   user may not write there (SQLite writes beside its file, even to read it).
 */
export const STORE_OPEN_ERROR_CODES = [
  'currency_mismatch',
  'schema_too_new',
  'folder_not_writable',
] as const;

export type StoreOpenErrorCode = (typeof STORE_OPEN_ERROR_CODES)[number];

export class StoreOpenError extends Error {
  constructor(
    readonly code: StoreOpenErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'StoreOpenError';
  }
}

/**
 * Throws `folder_not_writable` unless this process may write in `folder`, or,
 * when it does not exist yet, in the nearest folder above it that does (where
 * it would be made). A read-only file system (EROFS) and a missing permission
 * (EACCES, EPERM) are told apart.
 */
export function checkWritableFolder(folder: string): void {
  let at = resolve(folder);
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    accessSync(at, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS')
      throw new StoreOpenError('folder_not_writable', `the folder ${at} is read-only`);
    if (code === 'EACCES' || code === 'EPERM')
      throw new StoreOpenError(
        'folder_not_writable',
        `this user may not write in the folder ${at} (${code})`,
      );
    throw error;
  }
}

/**
 * The database cannot be reached or did not answer in time: a lost or refused
 * connection, a server shutting down or restarting, a statement, lock or
 * idle-in-transaction timeout, a full disk. Nothing the request asked for is
 * known to have happened, and the same request may succeed later: a client
 * retries it with the same idempotency key, and gets the first answer if the
 * first attempt did commit after all.
 */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    cause: unknown,
    readonly code: RetryableErrorCode = 'database_unavailable',
  ) {
    super(message, { cause });
    this.name = 'StoreUnavailableError';
  }
}

/**
 * The codes of a StoreUnavailableError (503, Retry-After: 1):
 * - database_unavailable: the database is away or did not answer in time;
 * - table_moving: the node that runs the table's commands (its lease holder)
 *   died, lost the lease, or could not be reached; another takes it over.
 */
export const RETRYABLE_ERROR_CODES = ['database_unavailable', 'table_moving'] as const;

export type RetryableErrorCode = (typeof RETRYABLE_ERROR_CODES)[number];

/** What a driver says when the connection itself is lost, refused or timed out. */
const LOST_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Query read timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end',
];

/** Node socket errors that mean the database server is away. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT', // a unix socket that is gone while the server is down
]);

/**
 * PostgreSQL SQLSTATEs that mean "not now" rather than "never": class 08
 * (connection exception), 57P01–57P03 (shutdown, crash, starting up), 57014
 * (statement timeout), 55P03 (lock timeout), 25P03 (idle-in-transaction
 * timeout), 53100 (disk full), 53300 (too many connections). SQLite: a full
 * disk, an I/O error, or a lock held past the busy timeout.
 */
function isUnavailableCode(code: string): boolean {
  return (
    code.startsWith('08') ||
    ['57P01', '57P02', '57P03', '57014', '55P03', '25P03', '53100', '53300'].includes(code) ||
    code === 'SQLITE_FULL' ||
    code === 'SQLITE_BUSY' ||
    code.startsWith('SQLITE_IOERR')
  );
}

/** The error as a StoreUnavailableError when it means the database is away; undefined otherwise. */
export function asStoreUnavailable(error: unknown): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  if (
    (typeof code === 'string' && (SOCKET_CODES.has(code) || isUnavailableCode(code))) ||
    LOST_CONNECTION_MESSAGES.some((m) => text.startsWith(m))
  ) {
    return new StoreUnavailableError(
      `the database is unavailable (${typeof code === 'string' ? code : text}); retry shortly`,
      error,
    );
  }
  return undefined;
}

/** Rethrows a database-away error as a StoreUnavailableError, any other as it is. */
export function rethrowUnavailable(error: unknown): never {
  throw asStoreUnavailable(error) ?? error;
}
