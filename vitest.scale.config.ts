import { defineConfig } from 'vitest/config';
import { longestFirst } from './scripts/longest-first.ts';

// The files that take longest, first: their waits (a replica killed and started again, five
// rounds; PostgreSQL restarted under load) then overlap the other files' work.
const LONGEST = [
  'src/server/trust-kill.scale.test.ts',
  'src/server/trust.scale.test.ts',
  'src/server/truth.scale.test.ts',
  'src/server/optimise/replicas.scale.test.ts',
  'src/server/ops.scale.test.ts',
];

// The scale group: Kiln on PostgreSQL and S3-compatible storage, several replicas behind nginx.
// Each file starts the real services it needs (see src/testing/stack.ts). `npm test` runs it.
export default defineConfig({
  test: {
    include: ['src/**/*.scale.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Four files at a time: each starts its own services on free ports in its own directories,
    // and mostly waits on them (restarts, kills, timers), so four share two cores (decisions
    // 0126, 0129, 0131).
    fileParallelism: true,
    maxWorkers: 4,
    sequence: { sequencer: longestFirst(LONGEST) },
  },
});
