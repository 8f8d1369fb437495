/**
 * Real `cussec serve` processes for the suites and benchmarks that need the
 * main job itself: a free port, and a node started from the source that is
 * ready when it prints its "serving" line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

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

/** Starts `cussec serve ARGS` from the source and resolves once it serves. */
export function startServe(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  startMs = 60_000,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`cussec serve ${args.join(' ')} did not start: ${out}`)),
      startMs,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Cussec is serving')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`cussec serve exited ${code}: ${out}`)));
  });
}
