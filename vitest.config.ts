import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    // The scale group (PostgreSQL, S3, nginx, several replicas) runs on its own: vitest.scale.config.ts.
    exclude: ['**/node_modules/**', '**/*.scale.test.ts'],
    environment: 'node',
    // One test file per core. Vitest's default (cores − 1) keeps a core for its main process,
    // which only waits: on a 2-core machine that ran every file one after another (decision 0109).
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
