/**
 * The fault suite's log half: `cussec serve`'s standard output on a disk that
 * fills, or on a pipe nobody reads, never blocks the server nor ends it. The
 * lines it cannot write are dropped and counted (`cussec_log_lines_dropped_total`),
 * and it logs again once the output takes lines.
 *
 * The disk is a small tmpfs mounted for the test (root only: skipped, with the
 * reason, elsewhere), filled with a file and then emptied.
 */
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ServeProcess } from './serve-process.js';
import { cannotMount, mountTmpfs, unmount } from './tmpfs.js';

const skipReason = cannotMount();
if (skipReason !== undefined) console.warn(`Skipping the log fault suite: ${skipReason}`);

/** An answer within `ms`, or a failure saying the server stopped answering. */
async function get(
  base: string,
  path: string,
  ms = 10_000,
): Promise<{ status: number; text: string }> {
  try {
    const answer = await fetch(base + path, { signal: AbortSignal.timeout(ms) });
    return { status: answer.status, text: await answer.text() };
  } catch (error) {
    throw new Error(`GET ${path} had no answer in ${ms} ms: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

async function droppedLines(base: string): Promise<number> {
  const { text } = await get(base, '/metrics');
  const line = text.split('\n').find((l) => l.startsWith('cussec_log_lines_dropped_total '));
  return Number(line?.split(' ')[1]);
}

async function until(
  what: string,
  holds: () => boolean,
  server: ServeProcess,
  ms = 60_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!holds()) {
    if (!server.running) throw new Error(`cussec serve exited before ${what}:\n${server.output}`);
    if (Date.now() > deadline) throw new Error(`not ${what} in ${ms} ms:\n${server.output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Writes zeros into `file` until the disk is full. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  try {
    for (const block = Buffer.alloc(4096); ;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(skipReason !== undefined)('the log never stops the server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cussec-log-faults-'));
  const disk = join(dir, 'disk');
  beforeAll(() => {
    mkdirSync(disk);
    mountTmpfs(disk, '256k');
  });
  afterAll(() => {
    unmount(disk);
    rmSync(dir, { recursive: true, force: true });
  });

  it('drops and counts the lines while its log disk is full, answers all along, and logs again once there is space', async () => {
    const log = join(disk, 'serve.log');
    const out = openSync(log, 'a');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const args = ['--data', join(dir, 'full-disk'), '--port', String(port), '--demo'];
    const server = ServeProcess.spawn(args, {}, { stdout: out });
    closeSync(out);
    try {
      const logged = () => readFileSync(log, 'utf8');
      await until('serving', () => logged().includes('Cussec is serving'), server);
      fill(join(disk, 'filler'));
      // Every answer logs a line, and the disk takes none of them.
      for (let i = 0; i < 100; i++)
        expect((await get(base, i % 2 === 0 ? '/healthz' : '/api/v1/tables')).status).toBe(200);
      expect(await droppedLines(base)).toBeGreaterThan(50);
      expect(server.running).toBe(true);

      rmSync(join(disk, 'filler'));
      expect((await get(base, '/after-the-disk-emptied')).status).toBe(404);
      await until('logging again', () => logged().includes('/after-the-disk-emptied'), server);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      if (server.running) server.child.kill('SIGKILL');
    }
  });

  it('answers while nobody reads its output pipe, and writes there again once it is read', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = ServeProcess.spawn(
      ['--data', join(dir, 'stuck-pipe'), '--port', String(port), '--demo'],
      {},
    );
    try {
      await server.line((l) => l.startsWith('Cussec is serving'), 60_000);
      server.child.stdout!.pause();
      // Far more than the pipe (a socket pair: some hundreds of KiB) and the sink's queue (1 MiB)
      // hold: each answer logs its path, 1,000 bytes and more.
      const long = 'x'.repeat(1_000);
      for (let i = 0; i < 2_500; i++) await get(base, `/${long}-${i}`);
      expect((await get(base, '/healthz', 2_000)).status).toBe(200);
      expect(await droppedLines(base)).toBeGreaterThan(0);

      // Read again, the pipe takes what waited; a line logged once the queue has room gets out.
      server.child.stdout!.resume();
      const after = (i: number) => `/after-the-pipe-drained-${i}`;
      let written = -1;
      for (let i = 0; written < 0 && i < 60; i++) {
        await get(base, after(i));
        await new Promise((resolve) => setTimeout(resolve, 500));
        written = server.lines.findIndex((l) => l.includes('/after-the-pipe-drained-'));
      }
      expect(written).toBeGreaterThanOrEqual(0);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      if (server.running) server.child.kill('SIGKILL');
    }
  });
});
