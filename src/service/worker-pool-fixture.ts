/**
 * The worker module of worker-pool.test.ts: echoes, fails, sleeps or ends its
 * thread as a job asks. Started by a WorkerPool, never imported.
 */
import { threadId } from 'node:worker_threads';
import { serveJobs, workerInput } from './worker-pool.js';

export type FixtureJob =
  | { readonly kind: 'echo'; readonly value: unknown }
  | { readonly kind: 'thread'; readonly waitMs: number }
  | { readonly kind: 'fail' }
  | { readonly kind: 'exit' };

const { label } = workerInput<{ label: string }>();

serveJobs<FixtureJob>(async (job) => {
  switch (job.kind) {
    case 'echo':
      return { label, value: job.value };
    case 'thread':
      await new Promise((resolve) => setTimeout(resolve, job.waitMs));
      return threadId;
    case 'fail':
      throw new RangeError('asked to fail');
    case 'exit':
      process.exit(3);
  }
});
