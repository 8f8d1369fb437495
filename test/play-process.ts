/**
 * `cussec play` as a child process, run from the sources: the suites that kill
 * it, audit beside it or back it up while it writes start it here.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface PlayRun {
  readonly db: string;
  readonly rounds: number;
  readonly players: number;
  readonly seed: string;
  /** Added to this process's environment (a roll key, CUSSEC_DEBUG). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface PlayProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** The exit code, or null when a signal ended it. */
  readonly exited: Promise<number | null>;
}

export function spawnPlay(run: PlayRun): PlayProcess {
  const args = ['--db', run.db, '--rounds', String(run.rounds), '--players', String(run.players)];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'play', ...args, '--seed', run.seed],
    { cwd: ROOT, env: { ...process.env, ...run.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Nobody reads them unless the caller does: drained, so a full pipe never stalls the child.
  child.stdout.resume();
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited };
}
