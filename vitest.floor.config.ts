import { defineConfig } from 'vitest/config';

/** The floor suite restarts PostgreSQL, so it runs alone, after the others. */
export default defineConfig({
  test: {
    include: ['test/floor.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
