// Scale tests only: PostgreSQL stopped under a running stack, and the replicas' way back.
import { expect } from 'vitest';
import { sleep } from '../async/index.ts';
import type { Stack } from './stack.ts';

type Replica = Stack['replicas'][number];

/**
 * Stops the stack's PostgreSQL, runs `check` on each replica and sees that the replica stays
 * alive (a request that needs no database, GET /api/health, still answers 200), then starts
 * PostgreSQL again whatever happened.
 */
export async function whileDatabaseStopped(
  stack: Stack,
  check: (replica: Replica) => Promise<void>,
): Promise<void> {
  stack.pg.stop();
  try {
    for (const replica of stack.replicas) {
      await check(replica);
      expect((await fetch(`${replica.url}/api/health`)).status).toBe(200);
    }
  } finally {
    stack.pg.start();
  }
}

/** The status of GET `path` on a replica, asked every 200 ms (50 times at most) until it is 200. */
export async function statusOnceBack(
  replica: Replica,
  path: string,
  init?: RequestInit,
): Promise<number> {
  let status = 0;
  for (let i = 0; i < 50 && status !== 200; i++) {
    status = (await fetch(`${replica.url}${path}`, init)).status;
    if (status !== 200) await sleep(200);
  }
  return status;
}
