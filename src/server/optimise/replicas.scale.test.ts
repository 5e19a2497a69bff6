// Optimise jobs across a replica's death (decision 0097), on the real stack: two replicas on
// PostgreSQL and S3 behind nginx. A replica killed -9 with jobs under way, and one stopped with
// SIGTERM (a deploy) with a job running: the artist, polling through nginx, sees each job end,
// succeeded or failed saying to run it again, and can run it again at once (its place under the
// key's three is free). One stack for the file; every wait is bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  LibraryEntrySchema,
  OptimiseJobSchema,
  OptimiseStartSchema,
  TaskSchema,
  UploadResultSchema,
  type OptimiseJob,
} from '../../contract/index.ts';
import { readPhoto } from '../../testing/fixtures.ts';
import { STACK_KEY, startStack, type AccessLogLine, type Stack } from '../../testing/stack.ts';

const auth = { authorization: `Bearer ${STACK_KEY}` };
const json = { ...auth, 'content-type': 'application/json' };
// The heaviest job the finest mock model makes realistic: its textures to KTX2 (Basis encoding)
// and its geometry through Draco, seconds of work on this machine.
const HEAVY = { preset: 'custom', texture_format: 'ktx2', compression: 'draco' };
const light = (triangles: number) => ({ preset: 'custom', triangles });

let stack: Stack;
let taskId: string;
beforeAll(async () => {
  stack = await startStack({ replicas: 2 });
  const up = await fetch(`${stack.url}/api/uploads`, {
    method: 'POST',
    body: readPhoto('chair.png') as Uint8Array<ArrayBuffer>,
    headers: { 'content-type': 'image/png' },
  });
  const { url } = UploadResultSchema.parse(await up.json());
  const created = await fetch(`${stack.url}/api/v1/3d/generations`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ model: 'gamma', image_url: url, mode: 'sync' }),
  });
  const task = TaskSchema.parse(await created.json());
  expect(task.status).toBe('completed');
  taskId = task.id;
  await until('the model is archived', async () => {
    const res = await fetch(`${stack.url}/api/library/${taskId}`, { headers: auth });
    return LibraryEntrySchema.parse(await res.json()).archived;
  });
});
afterAll(() => stack?.stop());

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Starts a job on `base` (nginx, or one replica). */
async function start(base: string, body: object): Promise<string> {
  const res = await fetch(`${base}/api/library/${taskId}/optimise`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(202);
  return OptimiseStartSchema.parse(await res.json()).job_id;
}

/** The job, polled through nginx as the optimise page does. */
async function poll(id: string): Promise<OptimiseJob> {
  const res = await fetch(`${stack.url}/api/optimise/${id}`, { headers: auth });
  expect(res.status).toBe(200);
  return OptimiseJobSchema.parse(await res.json());
}

/** Polls through nginx until the job has ended (bounded). */
async function ended(id: string, timeoutMs = 60_000): Promise<OptimiseJob> {
  let job = await poll(id);
  await until(
    `job ${id} ends`,
    async () => {
      job = await poll(id);
      return job.status === 'succeeded' || job.status === 'failed';
    },
    timeoutMs,
  );
  return job;
}

/** Starts a job through nginx; which replica nginx gave it to (from its access log). */
async function startThroughNginx(body: object): Promise<{ id: string; replica: number }> {
  const isStart = (l: AccessLogLine) =>
    l.method === 'POST' && l.uri === `/api/library/${taskId}/optimise`;
  const before = stack.accessLog().filter(isStart).length;
  const id = await start(stack.url, body);
  // The line is written once the answer has gone: wait for it.
  let line: AccessLogLine | undefined;
  await until('nginx logs the start', async () => {
    line = stack.accessLog().filter(isStart)[before];
    return line !== undefined;
  });
  // `a, b` when nginx tried a replica that was gone first: the last one answered.
  const upstream = line!.upstream.split(', ').at(-1);
  const replica = stack.replicas.findIndex((r) => upstream === `127.0.0.1:${r.port}`);
  expect(replica, `nginx's line: ${JSON.stringify(line)}`).toBeGreaterThanOrEqual(0);
  return { id, replica };
}

describe('optimise jobs across a replica’s death', () => {
  it('kill -9: the jobs under way there fail, saying to run them again, and run again at once', async () => {
    const { id: running, replica: victim } = await startThroughNginx(HEAVY);
    // Two more behind it on the same replica: the key's three, all there.
    const waiting = [
      await start(stack.replicas[victim]!.url, light(1000)),
      await start(stack.replicas[victim]!.url, light(2000)),
    ];
    await stack.kill9(victim);
    // Killed mid-run: the other replica reads the job as its runner last wrote it.
    expect((await poll(running)).status).toMatch(/^(queued|running)$/);
    for (const id of waiting) expect((await poll(id)).status).toBe('queued');
    const back = stack.startReplica(victim);
    for (const id of [running, ...waiting]) {
      const job = await ended(id);
      expect(job.status).toBe('failed');
      expect(job.error).toMatchObject({
        code: ERROR_CODES.optimiseInterrupted,
        message: expect.stringMatching(/stopped answering before it finished.*: run it again\.$/),
      });
    }
    await back;
    // The dead three hold no place and are not handed out again: the same three run anew.
    const again = [
      await start(stack.url, HEAVY),
      await start(stack.url, light(1000)),
      await start(stack.url, light(2000)),
    ];
    for (const id of again) {
      expect([running, ...waiting]).not.toContain(id);
      expect((await ended(id)).status).toBe('succeeded');
    }
  });

  it('SIGTERM: a running job finishes within the grace on the stopping replica', async () => {
    const { id, replica: stopped } = await startThroughNginx({ ...HEAVY, pivot: 'center' });
    const replica = stack.replicas[stopped]!.process!;
    const exit = replica.stop();
    expect((await ended(id)).status).toBe('succeeded');
    await exit;
    expect(replica.child.exitCode).toBe(0);
    // It was running when the drain began (SHUTDOWN_GRACE 30 s), and was left to finish.
    expect(replica.output()).toMatch(/stopping: 0 waiting jobs failed; 1 running may finish/);
    await stack.startReplica(stopped);
  });

  it('SIGTERM with a short grace: the running job fails, saying to run it again, before the exit', async () => {
    // This replica alone gets a grace shorter than the heavy job.
    const stopped = 0;
    await stack.replicas[stopped]!.process!.stop();
    stack.env.SHUTDOWN_GRACE = '2s';
    try {
      await stack.startReplica(stopped);
    } finally {
      delete stack.env.SHUTDOWN_GRACE;
    }
    const replica = stack.replicas[stopped]!.process!;
    const running = await start(replica.url, { ...HEAVY, pivot: 'bottom' });
    const waiting = await start(replica.url, light(4000));
    await replica.stop();
    expect(replica.child.exitCode).toBe(0);
    // Read at once through nginx (the other replica): written by the stopping replica itself,
    // not guessed after its silence.
    const job = await poll(running);
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({
      code: ERROR_CODES.optimiseInterrupted,
      message: expect.stringMatching(/was restarted before it could finish.*: run it again\.$/),
    });
    expect((await poll(waiting)).error).toMatchObject({
      code: ERROR_CODES.optimiseInterrupted,
      message: expect.stringMatching(/restarted before its turn came.*: run it again\.$/),
    });
    // Run again: a new job, on the replica that stayed, to its end.
    const again = await start(stack.url, { ...HEAVY, pivot: 'bottom' });
    expect(again).not.toBe(running);
    expect((await ended(again)).status).toBe('succeeded');
    await stack.startReplica(stopped);
  });
});
