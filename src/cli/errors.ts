/**
 * How the command line fails: one clear line on stderr and a non-zero exit,
 * never a stack trace.
 */
import { asStoreUnavailable, StoreOpenError } from '../ledger/index.js';

/** Bad input from the user: exit code 2. */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly exitCode: number = 2;
}

/** A check that ran and did not hold (a failed audit, a roll that does not verify): exit code 1. */
export class CheckFailed extends Error {
  override readonly name = 'CheckFailed';
  readonly exitCode: number = 1;
}

/** The database could not be reached or did not answer in time: exit code 75 (EX_TEMPFAIL), retry later. */
export const EXIT_UNAVAILABLE = 75;

/**
 * A folder the command must write in is read-only, or not this user's to
 * write in: exit code 73 (EX_CANTCREAT). Nothing was written.
 */
export const EXIT_CANNOT_WRITE = 73;

/** Prints an error the way the command line reports every failure and returns the exit code. */
export function report(error: unknown, stderr: NodeJS.WritableStream = process.stderr): number {
  if (error instanceof InputError || error instanceof CheckFailed) {
    stderr.write(`cussec: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof StoreOpenError && error.code === 'folder_not_writable') {
    stderr.write(
      `cussec: ${error.message}: the database and its files (SQLite's -wal and -shm, the roll key) are written there, even to read it; give a folder this user may write in (--data, --db)\n`,
    );
    return EXIT_CANNOT_WRITE;
  }
  // The database is away (down, restarting, unreachable, timed out): not a bug, try again later.
  const unavailable = asStoreUnavailable(error);
  if (unavailable !== undefined) {
    stderr.write(`cussec: ${unavailable.message}\n`);
    return EXIT_UNAVAILABLE;
  }
  // An unexpected error is a bug, but the user still gets one line; CUSSEC_DEBUG shows the stack.
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`cussec: internal error: ${message}\n`);
  if (process.env['CUSSEC_DEBUG'] && error instanceof Error) stderr.write(`${error.stack}\n`);
  return 70;
}
