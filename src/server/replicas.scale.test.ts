// Two Kiln replicas on PostgreSQL and S3 behind nginx are one Kiln: what one replica learns,
// the other answers; keys, archives and limits are counted once across both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LibraryEntrySchema,
  LibraryPageSchema,
  OptimiseJobSchema,
  OptimiseStartSchema,
  TaskSchema,
  UploadResultSchema,
  type Task,
} from '../contract/index.ts';
import { readPhoto } from '../testing/fixtures.ts';
import { STACK_KEY, startStack, type Stack } from '../testing/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    replicas: 2,
    keys: ['tr_rate_key:1000'],
    env: { CREATE_RATE_LIMIT: '8' },
  });
});
afterAll(() => stack?.stop());

const auth = { authorization: `Bearer ${STACK_KEY}` };
const json = { ...auth, 'content-type': 'application/json' };
const A = () => stack.replicas[0]!.url;
const B = () => stack.replicas[1]!.url;

async function create(base: string, body: unknown, idem?: string): Promise<Response> {
  return fetch(`${base}/api/v1/3d/generations`, {
    method: 'POST',
    headers: { ...json, ...(idem ? { 'idempotency-key': idem } : {}) },
    body: JSON.stringify(body),
  });
}

async function until(base: () => string, id: string): Promise<Task> {
  for (let i = 0; i < 300; i++) {
    const t = TaskSchema.parse(
      await (await fetch(`${base()}/api/v1/tasks/${id}`, { headers: auth })).json(),
    );
    if (t.status !== 'pending') return t;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${id} never finished`);
}

describe('two replicas, one Kiln', () => {
  it('a task created on A is polled on B, and its library entry reads the same on both', async () => {
    const res = await create(A(), { model: 'beta-text', prompt: 'a red vase' });
    expect(res.status).toBe(202);
    const { id } = TaskSchema.parse(await res.json());
    const done = await until(B, id);
    expect(done.status).toBe('completed');
    const onA = LibraryEntrySchema.parse(
      await (await fetch(`${A()}/api/library/${id}`, { headers: auth })).json(),
    );
    const onB = LibraryEntrySchema.parse(
      await (await fetch(`${B()}/api/library/${id}`, { headers: auth })).json(),
    );
    expect(onA).toEqual(onB);
    expect(onA.status).toBe('completed');
  });

  it('polls alternating A and B see every stage, and each replica records what the other learnt', async () => {
    const res = await create(A(), { model: 'beta-text', prompt: 'a slow green lamp' });
    const { id } = TaskSchema.parse(await res.json());
    const seen: { on: string; status: string; progress: number }[] = [];
    for (let i = 0; i < 300; i++) {
      const on = i % 2 === 0 ? 'A' : 'B';
      const t = TaskSchema.parse(
        await (
          await fetch(`${on === 'A' ? A() : B()}/api/v1/tasks/${id}`, { headers: auth })
        ).json(),
      );
      seen.push({ on, status: t.status, progress: t.progress ?? 0 });
      if (t.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // Progress never goes back, whichever replica answered.
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(seen.at(-1)?.status).toBe('completed');
    // The replica that did not see the completion first still reads it from the database,
    // even though its own last poll (its cache) said pending.
    const last = seen.at(-1)!.on;
    const other = last === 'A' ? B() : A();
    const entry = LibraryEntrySchema.parse(
      await (await fetch(`${other}/api/library/${id}`, { headers: auth })).json(),
    );
    expect(entry.status).toBe('completed');
    expect(entry.progress).toBe(100);
    const listed = LibraryPageSchema.parse(
      await (await fetch(`${other}/api/library?limit=50`, { headers: auth })).json(),
    ).data.find((e) => e.id === id);
    expect(listed?.status).toBe('completed');
  });

  it('an upload made on A is served by B, and generates through nginx', async () => {
    const up = await fetch(`${A()}/api/uploads`, {
      method: 'POST',
      body: readPhoto('chair.png') as Uint8Array<ArrayBuffer>,
      headers: { 'content-type': 'image/png' },
    });
    expect(up.status).toBe(201);
    const upload = UploadResultSchema.parse(await up.json());
    expect(upload.url).toBe(`${stack.url}/api/uploads/${upload.sha256}.png`);
    const onB = await fetch(`${B()}/api/uploads/${upload.sha256}.png`);
    expect(onB.status).toBe(200);
    expect((await onB.arrayBuffer()).byteLength).toBe(upload.bytes);
    // The mock fetches it through nginx (either replica) and makes a model.
    const res = await create(stack.url, { model: 'alpha', image_url: upload.url });
    const { id } = TaskSchema.parse(await res.json());
    expect((await until(() => stack.url, id)).status).toBe('completed');
  });

  it('the same Idempotency-Key sent to A and B at once makes one task and one charge', async () => {
    const before = stack.mockLedger();
    const body = { model: 'beta-text', prompt: 'one of a kind', mode: 'sync' };
    const answers = await Promise.all([
      create(A(), body, 'both-replicas'),
      create(B(), body, 'both-replicas'),
      create(A(), body, 'both-replicas'),
      create(B(), body, 'both-replicas'),
    ]);
    const ids = await Promise.all(answers.map(async (r) => TaskSchema.parse(await r.json()).id));
    expect(new Set(ids).size).toBe(1);
    const after = stack.mockLedger();
    expect(after.tasks).toHaveLength(before.tasks.length + 1);
    expect(after.balance).toBe(before.balance - 10);
    // After completion, a repeat replays from either replica.
    for (const base of [A(), B(), stack.url]) {
      const again = await create(base, body, 'both-replicas');
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(TaskSchema.parse(await again.json()).id).toBe(ids[0]);
    }
    const other = await create(B(), { ...body, prompt: 'another' }, 'both-replicas');
    expect(other.status).toBe(409);
  });

  it('archives a GLB once in total, in S3, and both replicas serve it (ranged too)', async () => {
    const res = await create(A(), { model: 'beta-text', prompt: 'a teapot', mode: 'sync' });
    const { id } = TaskSchema.parse(await res.json());
    // Polls on both replicas at once: each sees the task completed for the first time.
    await Promise.all(
      [A(), B(), A(), B()].map((base) => fetch(`${base}/api/v1/tasks/${id}`, { headers: auth })),
    );
    let entry = LibraryEntrySchema.parse(
      await (await fetch(`${B()}/api/library/${id}`, { headers: auth })).json(),
    );
    for (let i = 0; i < 50 && !entry.archived; i++) {
      await new Promise((r) => setTimeout(r, 200));
      entry = LibraryEntrySchema.parse(
        await (await fetch(`${B()}/api/library/${id}`, { headers: auth })).json(),
      );
    }
    expect(entry.archived).toBe(true);
    const archivedLines = stack.replicas
      .map((r) => r.process?.output() ?? '')
      .join('\n')
      .split('\n')
      .filter((l) => l.includes(`archived ${id}`));
    expect(archivedLines).toHaveLength(1);
    const fromA = new Uint8Array(await (await fetch(`${A()}${entry.model_url}`)).arrayBuffer());
    const fromB = new Uint8Array(await (await fetch(`${B()}${entry.model_url}`)).arrayBuffer());
    expect(fromA).toEqual(fromB);
    expect(new TextDecoder().decode(fromA.slice(0, 4))).toBe('glTF');
    const part = await fetch(`${B()}${entry.model_url}`, { headers: { range: 'bytes=0-3' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('glTF');
  });

  it('an optimise job started on A is polled on B, and its file is served by both', async () => {
    const res = await create(A(), { model: 'beta-text', prompt: 'a red mug', mode: 'sync' });
    const { id } = TaskSchema.parse(await res.json());
    let entry = LibraryEntrySchema.parse(
      await (await fetch(`${A()}/api/library/${id}`, { headers: auth })).json(),
    );
    for (let i = 0; i < 50 && !entry.archived; i++) {
      await new Promise((r) => setTimeout(r, 200));
      entry = LibraryEntrySchema.parse(
        await (await fetch(`${A()}/api/library/${id}`, { headers: auth })).json(),
      );
    }
    expect(entry.archived).toBe(true);
    const started = await fetch(`${A()}/api/library/${id}/optimise`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ preset: 'web' }),
    });
    expect(started.status).toBe(202);
    const { job_id } = OptimiseStartSchema.parse(await started.json());
    // Every poll on B: it did not start the job, yet knows it from the database.
    let job = OptimiseJobSchema.parse(
      await (await fetch(`${B()}/api/optimise/${job_id}`, { headers: auth })).json(),
    );
    for (let i = 0; i < 300 && (job.status === 'queued' || job.status === 'running'); i++) {
      await new Promise((r) => setTimeout(r, 200));
      const poll = await fetch(`${B()}/api/optimise/${job_id}`, { headers: auth });
      expect(poll.status).toBe(200);
      job = OptimiseJobSchema.parse(await poll.json());
    }
    expect(job.status).toBe('succeeded');
    // Asked again on B: the job A has, not a second one.
    const again = await fetch(`${B()}/api/library/${id}/optimise`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ preset: 'web' }),
    });
    expect(OptimiseStartSchema.parse(await again.json()).job_id).toBe(job_id);
    const fromA = new Uint8Array(await (await fetch(`${A()}${job.result!.url}`)).arrayBuffer());
    const fromB = new Uint8Array(await (await fetch(`${B()}${job.result!.url}`)).arrayBuffer());
    expect(fromB).toEqual(fromA);
    expect(new TextDecoder().decode(fromB.slice(0, 4))).toBe('glTF');
  });

  it('the library and credits read the same through nginx, whichever replica answers', async () => {
    const pages = await Promise.all(
      [0, 1, 2, 3].map(async () =>
        LibraryPageSchema.parse(
          await (await fetch(`${stack.url}/api/library?limit=50`, { headers: auth })).json(),
        ),
      ),
    );
    const ids = pages.map((p) => p.data.map((e) => e.id).join());
    expect(new Set(ids).size).toBe(1);
    const upstreams = new Set(
      stack
        .accessLog()
        .filter((l) => l.uri === '/api/library')
        .map((l) => l.upstream),
    );
    expect(upstreams.size).toBe(2);
  });

  it('counts the create rate limit across both replicas', async () => {
    const rate = { authorization: 'Bearer tr_rate_key', 'content-type': 'application/json' };
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const base = i % 2 === 0 ? A() : B();
      const res = await fetch(`${base}/api/v1/3d/generations`, {
        method: 'POST',
        headers: rate,
        body: JSON.stringify({ model: 'beta-text', prompt: `limit ${i}` }),
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await res.json()).toMatchObject({ error: { type: 'rate_limit_error' } });
      }
    }
    expect(statuses.filter((s) => s === 202)).toHaveLength(8);
    expect(statuses.slice(8)).toEqual([429, 429]);
    expect(stack.mockLedger('tr_rate_key').tasks).toHaveLength(8);
  });
});
