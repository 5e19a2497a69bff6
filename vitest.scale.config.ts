import { defineConfig } from 'vitest/config';

// The scale group: Kiln on PostgreSQL and S3-compatible storage, several replicas behind nginx.
// Each file starts the real services it needs (see src/testing/stack.ts). `npm test` runs it.
export default defineConfig({
  test: {
    include: ['src/**/*.scale.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two files at a time: each starts its own services on free ports in its own directories,
    // and mostly waits on them (restarts, kills, timers), so two share two cores (decision 0126).
    fileParallelism: true,
    maxWorkers: 2,
  },
});
