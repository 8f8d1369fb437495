import { defineConfig } from 'vitest/config';

/**
 * The fault suite (test/floor.test.ts) starts a PostgreSQL of its own and three
 * nodes, so it runs alone, after the others.
 */
export default defineConfig({
  test: {
    include: ['test/floor.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 180_000,
  },
});
