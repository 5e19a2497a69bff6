// Faults in a scaled-out Kiln: a replica killed mid-burst, and PostgreSQL restarting under both.
// Clients behave as Kiln's own client does: they retry a 502/503 or a dropped connection with
// the same Idempotency-Key, and nothing is lost, duplicated or charged twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../async/index.ts';
import { ErrorBodySchema, LibraryEntrySchema, TaskSchema } from '../contract/index.ts';
import { statusOnceBack, whileDatabaseStopped } from '../testing/database-stopped.ts';
import { STACK_KEY, startStack, type Stack } from '../testing/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ replicas: 2, mockSpeed: 'fast' });
});
afterAll(() => stack?.stop());

const auth = { authorization: `Bearer ${STACK_KEY}` };
const json = { ...auth, 'content-type': 'application/json' };

/** One request, retried (same request, same key) while the answer is 502/503/504 or no answer. */
async function withRetries(send: () => Promise<Response>): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await send();
      if (![502, 503, 504].includes(res.status) || attempt >= 60) return res;
      await res.arrayBuffer();
    } catch (err) {
      if (attempt >= 60) throw err;
    }
    await sleep(250);
  }
}

function createKeyed(prompt: string, key: string): Promise<Response> {
  return withRetries(() =>
    fetch(`${stack.url}/api/v1/3d/generations`, {
      method: 'POST',
      headers: { ...json, 'idempotency-key': key },
      body: JSON.stringify({ model: 'beta-text', prompt }),
    }),
  );
}

async function poll(id: string) {
  const res = await withRetries(() => fetch(`${stack.url}/api/v1/tasks/${id}`, { headers: auth }));
  expect(res.status).toBe(200);
  return TaskSchema.parse(await res.json());
}

describe('a scaled-out Kiln under faults', () => {
  it('kill -9 of replica A mid-burst: B answers everything, nothing lost or doubled, A rejoins', async () => {
    const before = stack.mockLedger();
    const run = `burst-${Date.now()}`;
    const prompts = Array.from({ length: 24 }, (_, i) => `${run} vase ${i}`);
    const ids = new Map<string, string>();
    let answered = 0;
    let killed: Promise<void> | undefined;

    // Six clients share the burst; once a third of it is answered, A dies without warning.
    const queue = [...prompts];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let prompt = queue.shift(); prompt; prompt = queue.shift()) {
          const res = await createKeyed(prompt, `key-${prompt.replaceAll(' ', '-')}`);
          expect(res.status, await res.clone().text()).toBe(202);
          const task = TaskSchema.parse(await res.json());
          ids.set(prompt, task.id);
          await poll(task.id);
          if (++answered === 8) killed = stack.kill9(0);
        }
      }),
    );
    await killed;
    expect(ids.size).toBe(prompts.length);

    // Every task completes, polled through nginx (only B is left).
    for (const id of ids.values()) {
      let task = await poll(id);
      for (let i = 0; task.status === 'pending' && i < 300; i++) {
        await sleep(100);
        task = await poll(id);
      }
      expect(task.status).toBe('completed');
    }

    // The upstream made exactly one task per prompt and charged each once.
    const after = stack.mockLedger();
    const made = after.tasks.slice(before.tasks.length);
    expect(made.map((t) => t.prompt).sort()).toEqual([...prompts].sort());
    expect(new Set(made.map((t) => t.id))).toEqual(new Set(ids.values()));
    const charged = made.reduce((sum, t) => sum + t.credits, 0);
    expect(after.balance).toBe(before.balance - charged);

    // The library shows every task completed and archived (a download A held is taken over).
    for (const id of ids.values()) {
      let entry = LibraryEntrySchema.parse(
        await (
          await withRetries(() => fetch(`${stack.url}/api/library/${id}`, { headers: auth }))
        ).json(),
      );
      for (let i = 0; !entry.archived && i < 200; i++) {
        await sleep(500);
        entry = LibraryEntrySchema.parse(
          await (
            await withRetries(() => fetch(`${stack.url}/api/library/${id}`, { headers: auth }))
          ).json(),
        );
      }
      expect(entry).toMatchObject({ status: 'completed', archived: true });
    }

    // A restarts and rejoins: nginx sends it requests again.
    await stack.startReplica(0);
    const aAddress = `127.0.0.1:${stack.replicas[0]!.port}`;
    const logBefore = stack.accessLog().length;
    for (let i = 0; i < 80; i++) {
      await withRetries(() => fetch(`${stack.url}/api/library?limit=1`, { headers: auth }));
      if (
        stack
          .accessLog()
          .slice(logBefore)
          .some((l) => l.upstream.includes(aAddress))
      )
        break;
      await sleep(200);
    }
    const served = stack.accessLog().slice(logBefore);
    expect(served.some((l) => l.upstream.includes(aAddress) && l.status === 200)).toBe(true);
  }, 240_000);

  it('PostgreSQL restarting under both replicas: clean 503s with the error body, then recovery', async () => {
    const res = await fetch(`${stack.url}/api/library?limit=1`, { headers: auth });
    expect(res.status).toBe(200);
    const created = await createKeyed('before the database went away', 'pg-before');
    const known = TaskSchema.parse(await created.json()).id;
    await whileDatabaseStopped(stack, async (replica) => {
      for (const path of ['/api/library?limit=1', `/api/library/${known}`]) {
        const down = await fetch(`${replica.url}${path}`, { headers: auth });
        expect(down.status, path).toBe(503);
        expect(down.headers.get('retry-after')).toBe('5');
        const body = ErrorBodySchema.parse(await down.json());
        expect(body.error.code).toBe('service_unavailable');
        expect(body.error.message).toMatch(/database/);
      }
      const create = await fetch(`${replica.url}/api/v1/3d/generations`, {
        method: 'POST',
        headers: { ...json, 'idempotency-key': `pg-down-${replica.port}` },
        body: JSON.stringify({ model: 'beta-text', prompt: 'while the database is away' }),
      });
      expect(create.status).toBe(503);
      ErrorBodySchema.parse(await create.json());
    });
    // No Kiln restart: the next requests reach the database again, on both replicas.
    for (const replica of stack.replicas) {
      expect(await statusOnceBack(replica, '/api/library?limit=1', { headers: auth })).toBe(200);
      expect(replica.process?.child.exitCode).toBeNull();
    }
    const again = await createKeyed('after the database came back', 'pg-back');
    expect(again.status).toBe(202);
  }, 120_000);
});
