/**
 * The worker module of worker-pool.test.ts: echoes, fails, sleeps, says when
 * it was loaded, or ends its thread, as a job asks; its warm-up fails when
 * its label is 'cold'. Started by a WorkerPool, never imported.
 */
import { threadId } from 'node:worker_threads';
import { serveJobs, workerInput } from './worker-pool.js';

export type FixtureJob =
  | { readonly kind: 'echo'; readonly value: unknown }
  | { readonly kind: 'thread'; readonly waitMs: number }
  | { readonly kind: 'started' }
  | { readonly kind: 'fail' }
  | { readonly kind: 'exit' };

const { label } = workerInput<{ label: string }>();
const loadedAtMs = Date.now();

serveJobs<FixtureJob>(
  async (job) => {
    switch (job.kind) {
      case 'echo':
        return { label, value: job.value };
      case 'thread':
        await new Promise((resolve) => setTimeout(resolve, job.waitMs));
        return threadId;
      case 'started':
        return loadedAtMs;
      case 'fail':
        throw new RangeError('asked to fail');
      case 'exit':
        process.exit(3);
    }
  },
  () => (label === 'cold' ? Promise.reject(new RangeError('cannot warm up')) : Promise.resolve()),
);
