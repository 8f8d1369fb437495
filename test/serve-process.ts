/**
 * Real `cussec serve` processes for the suites and benchmarks that need the
 * main job itself: a free port, and a node started from the source that is
 * ready when it prints its "serving" line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A `cussec serve` child process started from the source, its output kept line by line. */
export class ServeProcess {
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;
  private partial = '';

  private constructor(readonly child: ChildProcess) {
    const take = (chunk: Buffer): void => {
      const parts = (this.partial + chunk.toString('utf8')).split('\n');
      this.partial = parts.pop()!;
      this.lines.push(...parts);
    };
    child.stdout?.on('data', take);
    child.stderr!.on('data', take);
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /**
   * Starts `cussec serve ARGS` and resolves once it prints its "serving" line.
   * `env` adds to this process's environment; an undefined value removes a variable.
   * `nodeArgs` go to node itself (--cpu-prof, which NODE_OPTIONS may not carry).
   */
  static async start(
    args: readonly string[],
    env: NodeJS.ProcessEnv,
    startMs = 60_000,
    nodeArgs: readonly string[] = [],
  ): Promise<ServeProcess> {
    const server = ServeProcess.spawn(args, env, { nodeArgs });
    await server.line((l) => l.startsWith('Cussec is serving'), startMs);
    return server;
  }

  /**
   * Starts `cussec serve ARGS` without waiting for it. `stdout`, a file
   * descriptor, takes its standard output instead of a pipe (whose lines
   * `line` then never sees).
   */
  static spawn(
    args: readonly string[],
    env: NodeJS.ProcessEnv,
    options: { readonly nodeArgs?: readonly string[]; readonly stdout?: number } = {},
  ): ServeProcess {
    const child = spawn(
      process.execPath,
      [...(options.nodeArgs ?? []), '--import', 'tsx', 'src/cli/main.ts', 'serve', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
      },
    );
    return new ServeProcess(child);
  }

  get output(): string {
    return [...this.lines, this.partial].join('\n');
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The first line that matches, once printed; rejects with the output at a timeout or an exit. */
  async line(match: (line: string) => boolean, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.find(match);
      if (found !== undefined) return found;
      if (!this.running) throw new Error(`cussec serve exited:\n${this.output}`);
      if (Date.now() > deadline)
        throw new Error(`cussec serve did not print the line in ${timeoutMs} ms:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
