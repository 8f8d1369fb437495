/** The streams a command reads and writes, injected so tests run commands in-process. */
export interface Io {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /**
   * The process's own stdout, as a file descriptor: `cussec serve` writes its
   * log there through a sink that never blocks (src/server/log-sink.ts).
   * Absent when a test gives its own streams.
   */
  readonly stdoutFd?: number;
}

export const processIo: Io = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stdoutFd: 1,
};
