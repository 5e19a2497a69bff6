import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    // The scale group (PostgreSQL, S3, nginx, several replicas) runs on its own: vitest.scale.config.ts.
    exclude: ['**/node_modules/**', '**/*.scale.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
