// Tests only: a client of the real stack (src/testing/stack.ts) as Kiln's own clients behave
// under faults: each request retried while nginx answers 502/503/504 or nothing, every status
// kept; and the checks the trust tests make of what the upstream charged against what Kiln shows.
import { expect } from 'vitest';
import { sleep } from '../async/index.ts';
import {
  CreditsSchema,
  LibraryEntrySchema,
  TaskSchema,
  type Credits,
  type Task,
} from '../contract/index.ts';
import type { Stack } from './stack.ts';

export const headers = (key: string) => ({
  authorization: `Bearer ${key}`,
  'content-type': 'application/json',
});

/** Every rise of the history is a refund, or a correction that names both figures and why. */
export function expectNoUnexplainedRise(history: Credits['history']) {
  for (let i = 1; i < history.length; i++) {
    const [was, now] = [history[i - 1]!, history[i]!];
    if (now.balance <= was.balance || now.kind === 'refund') continue;
    expect(now.kind, JSON.stringify([was, now])).toBe('correction');
    expect(now.correction).toMatchObject({ ledger: was.balance, stated: now.balance });
    expect(now.correction?.cause).toMatch(/^(outside|overlap|recovery)$/);
  }
}

/** The stack as a client sees it through nginx; `seen` is every status it got (a 502: a replica was gone). */
export function trustClient(stack: () => Stack) {
  const seen: number[] = [];

  /** A request retried (same request, same key) while the answer is 502/503/504 or nothing. */
  async function withRetries(send: () => Promise<Response>, attempts = 160): Promise<Response> {
    for (let i = 0; ; i++) {
      try {
        const res = await send();
        seen.push(res.status);
        if (![502, 503, 504].includes(res.status) || i >= attempts) return res;
        await res.arrayBuffer();
      } catch (err) {
        if (i >= attempts) throw err;
      }
      await sleep(250);
    }
  }

  async function create(key: string, body: object, idem: string): Promise<Task> {
    const res = await withRetries(() =>
      fetch(`${stack().url}/api/v1/3d/generations`, {
        method: 'POST',
        headers: { ...headers(key), 'idempotency-key': idem },
        body: JSON.stringify(body),
      }),
    );
    expect([200, 202], await res.clone().text()).toContain(res.status);
    return TaskSchema.parse(await res.json());
  }

  async function pollUntilEnded(key: string, id: string): Promise<Task> {
    for (let i = 0; i < 600; i++) {
      const res = await withRetries(() =>
        fetch(`${stack().url}/api/v1/tasks/${id}`, { headers: headers(key) }),
      );
      const task = TaskSchema.parse(await res.json());
      if (task.status !== 'pending') return task;
      await sleep(100);
    }
    throw new Error(`${id} never ended`);
  }

  async function credits(key: string): Promise<Credits> {
    const res = await withRetries(() =>
      fetch(`${stack().url}/api/credits`, { headers: headers(key) }),
    );
    expect(res.status).toBe(200);
    return CreditsSchema.parse(await res.json());
  }

  /** Every task the upstream made for `key` is in Kiln's library, in the state the upstream says. */
  async function expectEveryChargeRecorded(key: string) {
    // Once the upstream has ended every task (the mock's are quick): then their states are final.
    let ledger = stack().mockLedger(key);
    for (let i = 0; i < 120 && ledger.tasks.some((t) => t.status === 'pending'); i++) {
      await sleep(500);
      ledger = stack().mockLedger(key);
    }
    // The upstream's state of a task now (one still pending above may have ended since).
    const upstreamNow = (id: string) =>
      stack()
        .mockLedger(key)
        .tasks.find((x) => x.id === id)?.status;
    for (const t of ledger.tasks) {
      let status = '';
      for (let i = 0; i < 120 && status !== upstreamNow(t.id); i++) {
        const res = await withRetries(() =>
          fetch(`${stack().url}/api/library/${t.id}`, { headers: headers(key) }),
        );
        expect(res.status, `${t.id} is charged upstream but not in the library`).toBe(200);
        status = LibraryEntrySchema.parse(await res.json()).status;
        if (status !== upstreamNow(t.id)) await sleep(500);
      }
      expect(status, t.id).toBe(upstreamNow(t.id));
    }
    return ledger;
  }

  return { seen, withRetries, create, pollUntilEnded, credits, expectEveryChargeRecorded };
}
