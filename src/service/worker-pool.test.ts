import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { FixtureJob } from './worker-pool-fixture.js';
import { siblingModule, WorkerJobError, WorkerPool } from './worker-pool.js';

const FIXTURE = siblingModule(import.meta.url, 'worker-pool-fixture');
let pool: WorkerPool<FixtureJob>;

afterEach(() => pool.close());

describe('WorkerPool', () => {
  it('runs jobs on at most its size of threads, kept between jobs, with its input', async () => {
    pool = new WorkerPool(FIXTURE, { label: 'reads' }, 2);
    expect(await pool.run({ kind: 'echo', value: { a: [1, 2] } })).toEqual({
      label: 'reads',
      value: { a: [1, 2] },
    });
    const threads = await Promise.all(
      Array.from({ length: 6 }, () => pool.run<number>({ kind: 'thread', waitMs: 30 })),
    );
    expect(threads).not.toContain(threadId);
    expect(new Set(threads).size).toBe(2);
    const again = await pool.run<number>({ kind: 'thread', waitMs: 0 });
    expect(threads).toContain(again);
  });

  it('starts every worker before any job, ready once each has warmed up', async () => {
    pool = new WorkerPool(FIXTURE, { label: 'x' }, 2);
    await pool.start();
    const asked = Date.now();
    // Two jobs at once, one on each worker: both workers were loaded before the jobs came.
    const started = await Promise.all([
      pool.run<number>({ kind: 'started' }),
      pool.run<number>({ kind: 'started' }),
    ]);
    expect(new Set(started).size).toBe(2);
    for (const at of started) expect(at).toBeLessThanOrEqual(asked);
  });

  it("rejects a start with a worker's failed warm-up; its jobs still run", async () => {
    pool = new WorkerPool(FIXTURE, { label: 'cold' }, 1);
    const failed = await pool.start().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(WorkerJobError);
    expect(failed).toMatchObject({ workerErrorName: 'RangeError', message: 'cannot warm up' });
    expect(await pool.run({ kind: 'echo', value: 1 })).toEqual({ label: 'cold', value: 1 });
  });

  it("fails a job with its worker's error, and goes on with the next", async () => {
    pool = new WorkerPool(FIXTURE, { label: 'x' }, 1);
    const failed = await pool.run({ kind: 'fail' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(WorkerJobError);
    expect(failed).toMatchObject({ workerErrorName: 'RangeError', message: 'asked to fail' });
    expect(await pool.run({ kind: 'echo', value: 1 })).toEqual({ label: 'x', value: 1 });
  });

  it('fails the job of a worker that dies, and starts another for the next', async () => {
    pool = new WorkerPool(FIXTURE, { label: 'x' }, 1);
    const first = await pool.run<number>({ kind: 'thread', waitMs: 0 });
    await expect(pool.run({ kind: 'exit' })).rejects.toThrow('a worker exited with code 3');
    const second = await pool.run<number>({ kind: 'thread', waitMs: 0 });
    expect(second).not.toBe(first);
  });

  it('fails the jobs running and waiting when it closes, and refuses new ones', async () => {
    pool = new WorkerPool(FIXTURE, { label: 'x' }, 1);
    const running = expect(pool.run({ kind: 'thread', waitMs: 10_000 })).rejects.toThrow(
      'the worker pool is closed',
    );
    const waiting = expect(pool.run({ kind: 'echo', value: 1 })).rejects.toThrow(
      'the worker pool is closed',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await pool.close();
    await running;
    await waiting;
    await expect(pool.run({ kind: 'echo', value: 1 })).rejects.toThrow('closed');
  });
});
