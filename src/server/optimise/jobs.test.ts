import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  OptimiseJobSchema,
  optimisePlanOf,
  type OptimiseJob,
} from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { diskBlobStore, type BlobStore } from '../storage/blobs.ts';
import { openSqliteStorage, type Storage } from '../storage/database.ts';
import { createOptimiseJobs, type OptimiseJobsDeps } from './jobs.ts';
import { OptimiseInputError } from './pipeline.ts';
import type { RunOptimise } from './pool.ts';
import { optimisedOutput } from '../../testing/optimise.ts';

const WEB = optimisePlanOf({ preset: 'web' });
const GAME = optimisePlanOf({ preset: 'game', triangles: 1000, texture_size: 512 });
const output = optimisedOutput;

/** A run that waits until released (or aborted), reporting progress as it goes. */
function controllableRun() {
  const waiting: { release: () => void; report: (p: number, s: string) => void }[] = [];
  const run: RunOptimise = (_source, _plan, report, signal) =>
    new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('aborted')));
      waiting.push({ release: () => resolve(output()), report });
    });
  return { run, waiting };
}

const tick = () => new Promise((r) => setTimeout(r, 5));
async function until(check: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 400 && !(await check()); i++) await tick();
  expect(await check()).toBe(true);
}

let dir: string;
let blobs: BlobStore;
let source: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kiln-optimise-'));
  blobs = diskBlobStore(dir);
  source = (await blobs.put('assets', new TextEncoder().encode('a model'), 'glb')).sha256;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const jobsWith = (deps: Partial<OptimiseJobsDeps> & Pick<OptimiseJobsDeps, 'run'>) =>
  createOptimiseJobs({ blobs, ...deps });

describe('optimise jobs', () => {
  it('run one at a time, the rest queued in order, each reporting progress, then its result', async () => {
    const { run, waiting } = controllableRun();
    const jobs = jobsWith({ run, concurrency: 1 });
    const a = await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB });
    const b = await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: GAME });
    // The first starts at once; the second waits its turn, and says so.
    expect(OptimiseJobSchema.parse(a)).toMatchObject({ status: 'running', stage: 'Starting' });
    expect(OptimiseJobSchema.parse(b)).toMatchObject({ status: 'queued', progress: 0 });
    expect(b.stage).toMatch(/Waiting for a turn/);
    await until(() => waiting.length === 1);
    expect(jobs.load).toEqual({ running: 1, waiting: 1 });
    expect((await jobs.get('o1', a.id))?.status).toBe('running');
    expect((await jobs.get('o1', b.id))?.status).toBe('queued');

    waiting[0]!.report(40, 'Simplifying');
    expect(await jobs.get('o1', a.id)).toMatchObject({ progress: 40, stage: 'Simplifying' });
    waiting[0]!.report(20, 'Going back'); // progress never goes back
    expect((await jobs.get('o1', a.id))?.progress).toBe(40);
    waiting[0]!.report(100, 'Almost'); // 100 only once the file is saved
    expect((await jobs.get('o1', a.id))?.progress).toBe(99);

    waiting[0]!.release();
    await until(async () => (await jobs.get('o1', a.id))?.status === 'succeeded');
    const done = OptimiseJobSchema.parse(await jobs.get('o1', a.id));
    expect(done).toMatchObject({ progress: 100, stage: 'Done', error: null });
    expect(done.result?.url).toMatch(/^\/api\/optimise\/files\/[a-f0-9]{64}\.glb$/);
    expect(done.result?.preview_url).toBe(done.result?.url);
    const sha = done.result!.sha256;
    expect(new TextDecoder().decode(await blobs.get('assets', sha, 'glb'))).toBe('optimised');
    // Then the second one runs.
    await until(() => waiting.length === 2);
    expect((await jobs.get('o1', b.id))?.status).toBe('running');
    waiting[1]!.release();
    await until(async () => (await jobs.get('o1', b.id))?.status === 'succeeded');
  });

  it('two at once when the concurrency is 2', async () => {
    const { run, waiting } = controllableRun();
    const jobs = jobsWith({ run, concurrency: 2 });
    for (const plan of [WEB, GAME, optimisePlanOf({ preset: 'print', height_mm: 10 })])
      await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan });
    await until(() => waiting.length === 2);
    expect(jobs.load).toEqual({ running: 2, waiting: 1 });
    for (const w of waiting) w.release();
    await until(() => waiting.length === 3);
    waiting[2]!.release();
    await until(() => jobs.load.running === 0);
  });

  it('are the owner’s only', async () => {
    const { run, waiting } = controllableRun();
    const jobs = jobsWith({ run });
    const job = await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB });
    expect(await jobs.get('o2', job.id)).toBeUndefined();
    expect((await jobs.get('o1', job.id))?.id).toBe(job.id);
    expect(await jobs.get('o1', 'opt_nope')).toBeUndefined();
    await until(() => waiting.length === 1);
    waiting[0]!.release();
  });

  it('give the same job for the same model and plan (until it fails), a new one otherwise', async () => {
    let calls = 0;
    const jobs = jobsWith({
      run: async () => {
        calls++;
        if (calls === 1) throw new OptimiseInputError('first one fails');
        return output();
      },
    });
    const a = await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB });
    expect(
      (await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB })).id,
    ).toBe(a.id);
    await until(async () => (await jobs.get('o1', a.id))?.status === 'failed');
    const b = await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB });
    expect(b.id).not.toBe(a.id);
    await until(async () => (await jobs.get('o1', b.id))?.status === 'succeeded');
    expect(
      (await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB })).id,
    ).toBe(b.id);
    // Another key asking the same gets its own job.
    const other = await jobs.start({ owner: 'o2', taskId: 't1', sourceSha256: source, plan: WEB });
    expect(other.id).not.toBe(b.id);
  });

  it('say why they failed: the model, a crash, a missing file', async () => {
    const failing = (error: Error) => jobsWith({ run: () => Promise.reject(error) });
    const cases: [ReturnType<typeof jobsWith>, string, RegExp][] = [
      [
        failing(new OptimiseInputError('The model has no triangles to optimise.')),
        source,
        /^The model has no triangles/,
      ],
      [failing(new Error('out of memory')), source, /^Optimising failed: out of memory$/],
      [jobsWith({ run: async () => output() }), 'f'.repeat(64), /missing from the library/],
    ];
    for (const [jobs, sha, message] of cases) {
      const job = await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: sha, plan: WEB });
      await until(async () => (await jobs.get('o1', job.id))?.status === 'failed');
      const failed: OptimiseJob = (await jobs.get('o1', job.id))!;
      expect(failed.error?.code).toBe(ERROR_CODES.optimiseFailed);
      expect(failed.error?.message).toMatch(message);
      expect(failed.result).toBeNull();
      expect(failed.finished_ms).not.toBeNull();
    }
  });

  it('are stopped at their time limit, saying so', async () => {
    const { run } = controllableRun();
    const jobs = jobsWith({ run, timeoutMs: 30 });
    const job = await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB });
    await until(async () => (await jobs.get('o1', job.id))?.status === 'failed');
    expect((await jobs.get('o1', job.id))?.error).toMatchObject({
      code: ERROR_CODES.optimiseTimeout,
      message: expect.stringMatching(/took longer than 0 s and was stopped/) as unknown,
    });
    // The next one still runs.
    const next = jobsWith({ run: async () => output(), timeoutMs: 30 });
    const ok = await next.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB });
    await until(async () => (await next.get('o1', ok.id))?.status === 'succeeded');
  });

  it('limit each key to three under way, and the queue as a whole', async () => {
    const { run } = controllableRun();
    const jobs = jobsWith({ run, maxWaiting: 3 });
    const plans = [100, 200, 300, 400].map((t) =>
      optimisePlanOf({ preset: 'custom', triangles: t }),
    );
    for (const plan of plans.slice(0, 3))
      await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan });
    const tooMany = (await jobs
      .start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: plans[3]! })
      .catch((e: unknown) => e)) as ApiError;
    expect(tooMany).toBeInstanceOf(ApiError);
    expect(tooMany.status).toBe(429);
    expect(tooMany.error.code).toBe(ERROR_CODES.optimiseBusy);
    expect(tooMany.headers['retry-after']).toBe('10');
    // Another key: its first job queues behind; once the queue is full, a 429 for everyone.
    await jobs.start({ owner: 'o2', taskId: 't1', sourceSha256: source, plan: plans[0]! });
    const full = (await jobs
      .start({ owner: 'o3', taskId: 't1', sourceSha256: source, plan: plans[0]! })
      .catch((e: unknown) => e)) as ApiError;
    expect(full.status).toBe(429);
    expect(full.error.message).toMatch(/many models/);
  });

  it('are forgotten an hour after they finish', async () => {
    let t = 1_000_000;
    const jobs = jobsWith({ run: async () => output(), now: () => t });
    const job = await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB });
    await until(async () => (await jobs.get('o1', job.id))?.status === 'succeeded');
    t += 59 * 60 * 1000;
    expect(await jobs.get('o1', job.id)).toBeDefined();
    t += 2 * 60 * 1000;
    expect(await jobs.get('o1', job.id)).toBeUndefined();
  });

  it('stop: running and queued jobs fail, saying the server was restarted', async () => {
    const { run, waiting } = controllableRun();
    const jobs = jobsWith({ run });
    const a = await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB });
    const b = await jobs.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: GAME });
    await until(() => waiting.length === 1);
    await jobs.stop();
    for (const id of [a.id, b.id]) {
      expect((await jobs.get('o1', id))?.status).toBe('failed');
      expect((await jobs.get('o1', id))?.error).toMatchObject({
        code: ERROR_CODES.optimiseInterrupted,
        message: expect.stringMatching(/was restarted before .*: run it again\.$/),
      });
    }
  });
});

describe('optimise jobs shared through the database (two replicas, or a restart)', () => {
  let storage: Storage;
  beforeEach(async () => {
    storage = await openSqliteStorage(join(dir, 'kiln.db'));
  });
  afterEach(() => storage.close());

  const replica = (
    holder: string,
    deps: Partial<OptimiseJobsDeps> & Pick<OptimiseJobsDeps, 'run'>,
  ) => jobsWith({ store: storage.optimiseJobs, holder, exclusive: false, ...deps });

  it('a job run on A is seen on B as it runs, then with its result; only by its owner', async () => {
    const { run, waiting } = controllableRun();
    const a = replica('A', { run });
    const b = replica('B', { run: () => Promise.reject(new Error('B runs nothing here')) });
    const job = await a.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB });
    expect((await b.get('o1', job.id))?.status).toBe('running');
    await until(() => waiting.length === 1);
    waiting[0]!.report(40, 'Simplifying');
    await until(async () => (await b.get('o1', job.id))?.stage === 'Simplifying');
    expect((await b.get('o1', job.id))?.progress).toBe(40);
    expect(await b.get('o2', job.id)).toBeUndefined();
    waiting[0]!.release();
    await until(async () => (await b.get('o1', job.id))?.status === 'succeeded');
    const seen = OptimiseJobSchema.parse(await b.get('o1', job.id));
    expect(seen).toEqual(await a.get('o1', job.id));
    expect(seen.result?.url).toMatch(/^\/api\/optimise\/files\/[a-f0-9]{64}\.glb$/);
    // Asked again on B: the same job, not a second run.
    expect((await b.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB })).id).toBe(
      job.id,
    );
  });

  it("a key's jobs under way are counted on every replica", async () => {
    const { run } = controllableRun();
    const a = replica('A', { run });
    const b = replica('B', { run });
    const plans = [100, 200, 300, 400].map((t) =>
      optimisePlanOf({ preset: 'custom', triangles: t }),
    );
    for (const plan of plans.slice(0, 3))
      await a.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan });
    const tooMany = (await b
      .start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: plans[3]! })
      .catch((e: unknown) => e)) as ApiError;
    expect(tooMany.status).toBe(429);
    expect(tooMany.error.message).toMatch(/You have 3 optimise jobs under way/);
    await a.stop();
    await b.stop();
  });

  it('a job whose replica stopped writing it reads as failed, saying so', async () => {
    const { run } = controllableRun();
    let t = 1_000_000;
    const a = replica('A', { run, now: () => t, heartbeatMs: 5_000 });
    const b = replica('B', { run, now: () => t, heartbeatMs: 5_000 });
    const job = await a.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB });
    await until(async () => (await b.get('o1', job.id))?.status === 'running');
    // A is gone (killed: it writes nothing more). Within six heartbeats it may just be slow.
    t += 25_000;
    expect((await b.get('o1', job.id))?.status).toBe('running');
    t += 10_000;
    const lost = await b.get('o1', job.id);
    expect(lost).toMatchObject({ status: 'failed', stage: 'Failed' });
    expect(lost?.error).toMatchObject({
      code: ERROR_CODES.optimiseInterrupted,
      message: expect.stringMatching(/stopped answering before it finished.*: run it again\.$/),
    });
    // It no longer counts as under way, nor as the job to give for the same request.
    const again = await b.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB });
    expect(again.id).not.toBe(job.id);
    await b.stop();
  });

  it('after a restart of an embedded Kiln, finished jobs are still known and unfinished ones failed', async () => {
    const { run, waiting } = controllableRun();
    const before = jobsWith({ store: storage.optimiseJobs, holder: 'old', exclusive: true, run });
    const done = await before.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: WEB });
    await until(() => waiting.length === 1);
    waiting[0]!.release();
    await until(async () => (await before.get('o1', done.id))?.status === 'succeeded');
    const cut = await before.start({ owner: 'o1', taskId: 't1', sourceSha256: source, plan: GAME });
    // The process dies with `cut` running: nothing more is written.
    await until(() => waiting.length === 2);
    const after = jobsWith({ store: storage.optimiseJobs, holder: 'new', exclusive: true, run });
    expect((await after.get('o1', done.id))?.status).toBe('succeeded');
    expect((await after.get('o1', cut.id))?.status).toBe('failed');
    waiting[1]!.release();
  });
});
