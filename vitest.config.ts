import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
    // The fault suite's files run after, alone (vitest.floor.config.ts).
    exclude: ['test/floor.test.ts', 'test/log-faults.test.ts', '**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
  },
});
