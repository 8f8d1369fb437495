/**
 * How the command line fails: one clear line on stderr and a non-zero exit,
 * never a stack trace.
 */

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

/** Prints an error the way the command line reports every failure and returns the exit code. */
export function report(error: unknown, stderr: NodeJS.WritableStream = process.stderr): number {
  if (error instanceof InputError || error instanceof CheckFailed) {
    stderr.write(`cussec: ${error.message}\n`);
    return error.exitCode;
  }
  // An unexpected error is a bug, but the user still gets one line; CUSSEC_DEBUG shows the stack.
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`cussec: internal error: ${message}\n`);
  if (process.env['CUSSEC_DEBUG'] && error instanceof Error) stderr.write(`${error.stack}\n`);
  return 70;
}
