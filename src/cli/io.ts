/** The streams a command reads and writes, injected so tests run commands in-process. */
export interface Io {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export const processIo: Io = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
};
