// A replica's death (kill -9: it stops writing) and its restart (SIGTERM: a drain with a grace),
// seen through the routes every replica serves (app.request), two job sets sharing one store,
// with a clock the test moves: decision 0097. The scale test replicas.scale.test.ts (beside
// this file) does the same with real processes behind nginx.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ErrorBodySchema,
  OptimiseJobSchema,
  OptimiseStartSchema,
  type OptimiseJob,
} from '../../contract/index.ts';
import { onApiError } from '../../http/index.ts';
import { ownerHasher } from '../owner-id.ts';
import { diskBlobStore, type BlobStore } from '../storage/blobs.ts';
import { openSqliteStorage, type Storage } from '../storage/database.ts';
import { createOptimiseJobs, type OptimiseJobs, type OptimiseJobsDeps } from './jobs.ts';
import type { RunOptimise } from './pool.ts';
import { optimisedOutput } from '../../testing/optimise.ts';
import { optimiseRoutes } from './routes.ts';

const KEY = 'tr_death_key';
const ownerOf = ownerHasher(Buffer.alloc(32, 9));
const output = () => optimisedOutput();

/** A run that waits until released, or stopped (its signal aborted). */
function controllableRun() {
  const started: { release: () => void }[] = [];
  const run: RunOptimise = (_source, _plan, _report, signal) =>
    new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('aborted')));
      started.push({ release: () => resolve(output()) });
    });
  return { run, started };
}

const tick = () => new Promise((r) => setTimeout(r, 5));
async function until(check: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 1000 && !(await check()); i++) await tick();
  expect(await check()).toBe(true);
}

let dir: string;
let blobs: BlobStore;
let storage: Storage;
let source: string;
let t: number;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kiln-replica-death-'));
  blobs = diskBlobStore(join(dir, 'blobs'));
  source = (await blobs.put('assets', new TextEncoder().encode('a model'), 'glb')).sha256;
  storage = await openSqliteStorage(join(dir, 'kiln.db'));
  t = 1_000_000;
});
afterEach(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * One replica: its jobs over the shared store (the clock is the test's; a heartbeat every
 * `heartbeatMs` real milliseconds, counted gone after six of them on the test's clock) and the
 * routes it serves, over a library with one archived task, `t1`.
 */
function replica(holder: string, deps: Partial<OptimiseJobsDeps> & Pick<OptimiseJobsDeps, 'run'>) {
  const jobs = createOptimiseJobs({
    blobs,
    store: storage.optimiseJobs,
    holder,
    exclusive: false,
    now: () => t,
    heartbeatMs: 10_000,
    ...deps,
  });
  const app = new Hono();
  app.onError(onApiError(() => {}));
  app.route(
    '/api',
    optimiseRoutes({
      store: {
        get: (owner, id) =>
          Promise.resolve(
            owner === ownerOf(KEY) && id === 't1'
              ? ({ assetSha256: source, status: 'completed' } as never)
              : undefined,
          ),
      },
      jobs,
      ownerOf,
      blobs,
    }),
  );
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  return {
    jobs,
    start: (body: unknown) =>
      app.request('/api/library/t1/optimise', {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      }),
    async started(body: unknown): Promise<string> {
      const res = await this.start(body);
      expect(res.status, await res.clone().text()).toBe(202);
      return OptimiseStartSchema.parse(await res.json()).job_id;
    },
    async poll(id: string): Promise<OptimiseJob> {
      const res = await app.request(`/api/optimise/${id}`, { headers });
      expect(res.status).toBe(200);
      return OptimiseJobSchema.parse(await res.json());
    },
  };
}

const custom = (triangles: number) => ({ preset: 'custom', triangles });
const stopAll = (...all: OptimiseJobs[]) => Promise.all(all.map((j) => j.stop()));

/** Replicas A and B, A running one job (100 triangles) with another (200) waiting behind it. */
async function twoJobsOnA() {
  const { run, started } = controllableRun();
  const a = replica('A', { run });
  const b = replica('B', { run });
  const running = await a.started(custom(100));
  const waiting = await a.started(custom(200));
  await until(() => started.length === 1);
  return { a, b, running, waiting, started };
}

describe('a replica killed mid-job (it writes nothing more)', () => {
  it('its jobs read as failed on another replica once six heartbeats pass, saying to run them again, and are written so', async () => {
    const { a, b, running, waiting } = await twoJobsOnA();
    // A dies here. Within six heartbeats (60 s on this clock) it may only be slow.
    t += 59_000;
    expect((await b.poll(running)).status).toBe('running');
    expect((await b.poll(waiting)).status).toBe('queued');
    t += 2_000;
    for (const id of [running, waiting]) {
      const job = await b.poll(id);
      expect(job).toMatchObject({ status: 'failed', stage: 'Failed' });
      expect(job.error).toMatchObject({
        code: ERROR_CODES.optimiseInterrupted,
        message: expect.stringMatching(/stopped answering before it finished.*: run it again\.$/),
      });
      // Failed for good in the store (and so forgotten an hour later like any finished job).
      const row = await storage.optimiseJobs.get(id);
      expect(row?.job).toEqual(job);
      expect(row?.job.finished_ms).toBe(1_000_000);
    }
    await stopAll(a.jobs, b.jobs);
  });

  it('a dead job is neither counted against the key’s three nor given out again; asked again, it runs anew, within the limit', async () => {
    const { run, started } = controllableRun();
    const a = replica('A', { run });
    const b = replica('B', { run });
    const dead = [await a.started(custom(100)), await a.started(custom(200))];
    await until(() => started.length === 1);
    t += 61_000; // A is gone: nobody has read its jobs yet, so the store still says running.
    expect((await storage.optimiseJobs.get(dead[0]!))?.job.status).toBe('running');
    // Three new jobs on B: the two dead ones do not count.
    const live = [
      await b.started(custom(300)),
      await b.started(custom(400)),
      await b.started(custom(500)),
    ];
    // The dead job's very request is a new job, not the dead one; and it counts like any other.
    const again = await b.start(custom(100));
    expect(again.status).toBe(429);
    expect(ErrorBodySchema.parse(await again.json()).error.message).toMatch(
      /You have 3 optimise jobs under way/,
    );
    await until(() => started.length === 2);
    started[1]!.release();
    await until(async () => (await b.poll(live[0]!)).status === 'succeeded');
    const rerun = await b.started(custom(100));
    expect(dead).not.toContain(rerun);
    expect((await b.poll(rerun)).status).toMatch(/queued|running/);
    await stopAll(a.jobs, b.jobs);
  });

  it('a runner that writes again after all is not overwritten by a reader that took it for dead', async () => {
    const { run, started } = controllableRun();
    const a = replica('A', { run });
    const id = await a.started(custom(100));
    await until(() => started.length === 1);
    const seen = (await storage.optimiseJobs.get(id))!;
    // A writes (a heartbeat) after B read the row, and before B writes its verdict.
    t += 61_000;
    await storage.optimiseJobs.put({ ...seen, updatedMs: t });
    const failed = { ...seen.job, status: 'failed' as const, finished_ms: seen.updatedMs };
    expect(
      await storage.optimiseJobs.failSilent(failed, {
        holder: seen.holder,
        updatedMs: seen.updatedMs,
      }),
    ).toBe(false);
    expect((await storage.optimiseJobs.get(id))?.job.status).toBe('running');
    started[0]!.release();
    await until(async () => (await a.poll(id)).status === 'succeeded');
    await a.jobs.stop();
  });
});

describe('a replica restarted mid-job (SIGTERM: a drain with a grace)', () => {
  it('takes no new job, fails its waiting ones at once, and lets its running one finish within the grace', async () => {
    const { a, b, running, waiting, started } = await twoJobsOnA();
    a.jobs.drain(60_000);
    const refused = await a.start(custom(300));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(ErrorBodySchema.parse(await refused.json()).error).toMatchObject({
      code: ERROR_CODES.serviceUnavailable,
      message: expect.stringMatching(/restarting; ask again in a moment/),
    });
    // Read on B at once (written, not guessed after six heartbeats).
    await until(async () => (await b.poll(waiting)).status === 'failed');
    expect((await b.poll(waiting)).error).toMatchObject({
      code: ERROR_CODES.optimiseInterrupted,
      message: expect.stringMatching(/restarted before its turn came.*: run it again\.$/),
    });
    expect((await b.poll(running)).status).toBe('running');
    let stopped = false;
    const stopping = a.jobs.stop().then(() => (stopped = true));
    await tick();
    expect(stopped).toBe(false);
    started[0]!.release();
    await stopping;
    expect((await b.poll(running)).status).toBe('succeeded');
    // Asked again (on B, the replica that stays), the waiting job's request runs anew.
    expect(await b.started(custom(200))).not.toBe(waiting);
    await b.jobs.stop();
  });

  it('a running job still unfinished near the grace’s end is stopped and written failed before the exit', async () => {
    const { run, started } = controllableRun();
    const a = replica('A', { run });
    const b = replica('B', { run });
    const running = await a.started(custom(100));
    await until(() => started.length === 1);
    // A 50 ms grace: stopped 10 ms before it ends.
    a.jobs.drain(50);
    await a.jobs.stop();
    const job = await b.poll(running);
    expect(job).toMatchObject({ status: 'failed', stage: 'Failed' });
    expect(job.error).toMatchObject({
      code: ERROR_CODES.optimiseInterrupted,
      message: expect.stringMatching(/was restarted before it could finish.*: run it again\.$/),
    });
    // It freed its place: the same request starts afresh on B.
    expect(await b.started(custom(100))).not.toBe(running);
    await b.jobs.stop();
  });

  it('keeps writing its running jobs while it drains, so other replicas do not take them for dead', async () => {
    const { run, started } = controllableRun();
    // A heartbeat every 20 ms: gone after 120 ms of the test's clock without one.
    const a = replica('A', { run, heartbeatMs: 20 });
    const b = replica('B', { run, heartbeatMs: 20 });
    const running = await a.started(custom(100));
    await until(() => started.length === 1);
    a.jobs.drain(60_000);
    t += 10_000;
    await until(async () => (await storage.optimiseJobs.get(running))?.updatedMs === t);
    expect((await b.poll(running)).status).toBe('running');
    started[0]!.release();
    await a.jobs.stop();
    expect((await b.poll(running)).status).toBe('succeeded');
    await b.jobs.stop();
  });
});
