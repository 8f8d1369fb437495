import { defineConfig } from 'vitest/config';

/**
 * The fault suite starts a PostgreSQL of its own and three nodes
 * (test/floor.test.ts), and fills a disk holding a server's log
 * (test/log-faults.test.ts), so it runs alone, after the others, one file at a time.
 */
export default defineConfig({
  test: {
    include: ['test/floor.test.ts', 'test/log-faults.test.ts'],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 180_000,
  },
});
