// A job for pool.test.ts: each task says what the thread should do.
import { serveJob } from './serve.ts';

export type FixtureTask =
  | { kind: 'echo'; value: string }
  | { kind: 'count'; to: number }
  | { kind: 'wait'; ms: number }
  | { kind: 'spin' }
  | { kind: 'bad-input'; message: string }
  | { kind: 'throw'; message: string }
  | { kind: 'die' };

export class FixtureInputError extends Error {}

export default serveJob<FixtureTask, string, number, { message: string }>(
  async (task, report) => {
    switch (task.kind) {
      case 'echo':
        return task.value;
      case 'count':
        for (let i = 1; i <= task.to; i++) report(i);
        return 'counted';
      case 'wait':
        await new Promise((resolve) => setTimeout(resolve, task.ms));
        return 'waited';
      case 'spin':
        // Busy, never yielding: only ending the thread stops it.
        for (;;);
      case 'bad-input':
        throw new FixtureInputError(task.message);
      case 'throw':
        throw new Error(task.message);
      case 'die':
        process.exit(1);
    }
  },
  (error) => (error instanceof FixtureInputError ? { message: error.message } : undefined),
);
