// Optimise jobs: a key's limit across replicas, and the jobs of a runner that went silent.
import { describe, expect, it } from 'vitest';
import { optimisePlanOf } from '../../contract/index.ts';
import { type Using } from './rows.ts';

export function optimiseJobTests(using: Using) {
  describe('optimise jobs', () => {
    it('lets a key start optimise jobs up to its limit, whichever replica asks', () =>
      using(async ({ optimiseJobs }) => {
        const job = (i: number) => ({
          object: 'optimise_job' as const,
          id: `opt_${i}`,
          task_id: 't',
          status: 'queued' as const,
          progress: 0,
          stage: 'Queued',
          plan: optimisePlanOf({ preset: 'web' }),
          created_ms: 1_000 + i,
          finished_ms: null,
          result: null,
          error: null,
        });
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            optimiseJobs.insertIfUnder(
              {
                owner: 'o',
                dedupeKey: `k${i}`,
                job: job(i),
                holder: `replica-${i % 2}`,
                updatedMs: 5_000,
              },
              3,
              { holder: `replica-${i % 2}`, sinceMs: 4_000 },
            ),
          ),
        );
        expect(outcomes.filter((o) => o.kind === 'inserted')).toHaveLength(3);
        expect(outcomes.filter((o) => o.kind === 'full')).toHaveLength(17);
        // The same request again finds its job; another owner has a limit of its own.
        const first = outcomes.findIndex((o) => o.kind === 'inserted');
        expect(
          (
            await optimiseJobs.insertIfUnder(
              {
                owner: 'o',
                dedupeKey: `k${first}`,
                job: job(100),
                holder: 'replica-0',
                updatedMs: 5_000,
              },
              3,
              { holder: 'replica-0', sinceMs: 4_000 },
            )
          ).kind,
        ).toBe('existing');
        expect(
          (
            await optimiseJobs.insertIfUnder(
              { owner: 'p', dedupeKey: 'p1', job: job(101), holder: 'replica-0', updatedMs: 5_000 },
              3,
              { holder: 'replica-0', sinceMs: 4_000 },
            )
          ).kind,
        ).toBe('inserted');
        // Jobs whose runner stopped writing them no longer count.
        expect(
          (
            await optimiseJobs.insertIfUnder(
              {
                owner: 'o',
                dedupeKey: 'late',
                job: job(102),
                holder: 'replica-2',
                updatedMs: 9_000,
              },
              3,
              { holder: 'replica-2', sinceMs: 6_000 },
            )
          ).kind,
        ).toBe('inserted');
      }));

    it('fails a silent runner’s optimise job unless it wrote since, and neither counts nor gives it out', () =>
      using(async ({ optimiseJobs }) => {
        const job = (id: string, status: 'running' | 'succeeded' = 'running') => ({
          object: 'optimise_job' as const,
          id,
          task_id: 't',
          status,
          progress: 10,
          stage: 'Simplifying',
          plan: optimisePlanOf({ preset: 'web' }),
          created_ms: 1_000,
          finished_ms: status === 'succeeded' ? 2_000 : null,
          result: null,
          error: null,
        });
        const row = (id: string, holder: string, updatedMs: number) => ({
          owner: 'o',
          dedupeKey: `key-${id}`,
          job: job(id),
          holder,
          updatedMs,
        });
        await optimiseJobs.put(row('dead', 'gone', 2_000));
        await optimiseJobs.put(row('slow', 'slow', 2_000));
        // A silent runner's job with the same request: the request makes a new job.
        expect(
          (
            await optimiseJobs.insertIfUnder(
              { ...row('new', 'me', 9_000), dedupeKey: 'key-dead' },
              1,
              {
                holder: 'me',
                sinceMs: 5_000,
              },
            )
          ).kind,
        ).toBe('inserted');
        // The slow runner writes again after a reader saw its job silent: the reader's verdict is
        // not written; the dead one's is.
        await optimiseJobs.put(row('slow', 'slow', 9_500));
        const failed = (id: string) => ({
          ...job(id),
          status: 'failed' as const,
          finished_ms: 2_000,
        });
        expect(
          await optimiseJobs.failSilent(failed('slow'), { holder: 'slow', updatedMs: 2_000 }),
        ).toBe(false);
        expect((await optimiseJobs.get('slow'))?.job.status).toBe('running');
        expect(
          await optimiseJobs.failSilent(failed('dead'), { holder: 'gone', updatedMs: 2_000 }),
        ).toBe(true);
        expect((await optimiseJobs.get('dead'))?.job).toEqual(failed('dead'));
        // Written once: a second reader's verdict finds it failed already.
        expect(
          await optimiseJobs.failSilent(failed('dead'), { holder: 'gone', updatedMs: 2_000 }),
        ).toBe(false);
        // An unfinished job nobody wrote for as long as finished jobs are kept is forgotten.
        await optimiseJobs.put(row('forgotten', 'gone', 1_500));
        expect(await optimiseJobs.sweep(2_500)).toBe(2);
        expect(await optimiseJobs.get('forgotten')).toBeUndefined();
        expect(await optimiseJobs.get('dead')).toBeUndefined();
        expect((await optimiseJobs.get('slow'))?.job.status).toBe('running');
      }));
  });
}
