import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Real builds and dev servers run in these tests; two cores.
    pool: 'forks',
    maxWorkers: 2,
  },
});
