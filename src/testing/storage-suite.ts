// Tests only: one behaviour suite for Kiln's storage, run against SQLite (the unit tests) and
// PostgreSQL (the scale tests), so that both dialects answer alike.
import { describe, expect, it } from 'vitest';
import { optimisePlanOf } from '../contract/index.ts';
import type { Storage } from '../server/storage/database.ts';
import type { LibraryRow } from '../server/storage/library.ts';

type Row = Parameters<Storage['library']['insert']>[0];

const row = (owner: string, taskId: string, over: Partial<Row> = {}): Row => ({
  owner,
  taskId,
  model: 'beta-text',
  mode: 'async',
  images: [{ url: 'https://x.test/a.png', upload: null }],
  prompt: 'a cube',
  status: 'pending',
  progress: 0,
  progressStage: 'Initializing',
  created: 1_800_000_000,
  completedAt: null,
  createdMs: 1_800_000_000_000,
  updatedMs: 1_800_000_000_000,
  creditsConsumed: null,
  creditsRemaining: null,
  error: null,
  upstreamModelUrl: null,
  ...over,
});

const completed = {
  status: 'completed',
  progress: 100,
  progressStage: 'Completed',
  completedAt: 1_800_000_010,
  creditsConsumed: 10,
  creditsRemaining: 990,
  error: null,
  upstreamModelUrl: 'https://up.test/m.glb',
};

export function storageSuite(name: string, open: () => Promise<Storage>) {
  describe(`storage on ${name}`, () => {
    const using = async (fn: (s: Storage) => Promise<void>) => {
      const s = await open();
      try {
        await fn(s);
      } finally {
        await s.close();
      }
    };

    it('records, updates, lists newest first with a cursor, and hides library rows', () =>
      using(async ({ library }) => {
        for (let i = 0; i < 5; i++) await library.insert(row('o1', `t${i}`));
        await library.insert(row('o1', 't0', { prompt: 'ignored: already there' }));
        await library.insert(row('o2', 't9'));
        const page1 = await library.list('o1', { limit: 3 });
        expect(page1.map((r) => r.taskId)).toEqual(['t4', 't3', 't2']);
        const page2 = await library.list('o1', { limit: 3, beforeSeq: page1.at(-1)!.seq });
        expect(page2.map((r) => r.taskId)).toEqual(['t1', 't0']);
        expect(page2.at(-1)?.prompt).toBe('a cube');

        const rows = await library.update('t1', completed, 1_800_000_020_000);
        expect(rows).toHaveLength(1);
        const t1 = rows[0] as LibraryRow;
        expect(t1).toMatchObject({
          status: 'completed',
          creditsRemaining: 990,
          completedAt: 1_800_000_010,
          updatedMs: 1_800_000_020_000,
          archiveNextMs: 0,
          hidden: false,
        });
        expect(typeof t1.seq).toBe('number');

        // Forward only: a late, older answer (another replica's poll) changes nothing.
        const stale = {
          ...completed,
          status: 'pending',
          progress: 40,
          progressStage: 'Generating',
          completedAt: null,
        };
        expect((await library.update('t1', stale, 1_800_000_030_000))[0]).toMatchObject({
          status: 'completed',
          progress: 100,
          updatedMs: 1_800_000_020_000,
        });
        await library.update('t2', { ...stale, progress: 60 }, 1_800_000_030_000);
        expect((await library.update('t2', stale, 1_800_000_031_000))[0]).toMatchObject({
          progress: 60,
        });
        expect((await library.update('t2', completed, 1_800_000_032_000))[0]?.status).toBe(
          'completed',
        );
        // A task's end is kept: reading it again later does not move it to now.
        const failed = { ...stale, status: 'failed', progress: 40, error: { message: 'no' } };
        await library.update('t3', failed, 1_800_000_040_000);
        expect((await library.update('t3', failed, 1_800_000_900_000))[0]?.updatedMs).toBe(
          1_800_000_040_000,
        );
        expect(await library.hide('o1', 't1')).toBe(true);
        expect(await library.hide('o2', 't1')).toBe(false);
        expect((await library.list('o1', { limit: 10 })).map((r) => r.taskId)).not.toContain('t1');
        expect((await library.get('o1', 't1'))?.hidden).toBe(true);
      }));

    it('schedules archives: due when completed, backed off, given up, archived', () =>
      using(async ({ library }) => {
        await library.insert(row('o1', 'a'));
        await library.update('a', completed, 1);
        expect((await library.archiveDue(0, 10)).map((r) => r.taskId)).toEqual(['a']);
        await library.archiveFailed('a', 'reset', 30_000);
        expect(await library.archiveDue(29_999, 10)).toEqual([]);
        expect((await library.archiveDue(30_000, 10))[0]).toMatchObject({
          archiveAttempts: 1,
          archiveError: 'reset',
        });
        await library.archiveFailed('a', 'gone', null);
        expect(await library.archiveDue(10 ** 13, 10)).toEqual([]);
        await library.archived('a', 'f'.repeat(64));
        expect(await library.get('o1', 'a')).toMatchObject({
          assetSha256: 'f'.repeat(64),
          archiveNextMs: null,
          archiveError: null,
        });
      }));

    it("keeps the first picture of an owner's archived model, and only then", () =>
      using(async ({ library }) => {
        await library.insert(row('o1', 't'));
        const [first, second] = ['1'.repeat(64), '2'.repeat(64)];
        expect(await library.setThumbnail('o1', 't', first)).toBe(false); // not archived yet
        await library.archived('t', 'f'.repeat(64));
        expect(await library.setThumbnail('o2', 't', first)).toBe(false); // not o2's
        expect(await library.setThumbnail('o1', 't', first)).toBe(true);
        expect(await library.setThumbnail('o1', 't', second)).toBe(false); // the first stays
        expect((await library.get('o1', 't'))?.thumbnailSha256).toBe(first);
      }));

    it('keeps one link per owner and task, resolves it to the archived model only, revokes it', () =>
      using(async ({ library, shares }) => {
        await library.insert(row('o1', 't', { images: [], prompt: 'a red vase' }));
        await library.insert(row('o2', 't2'));
        // Two requests at once get one link: the first token made wins.
        const made = await Promise.all(
          ['A'.repeat(24), 'B'.repeat(24)].map((token) => shares.create('o1', 't', token, 5)),
        );
        expect(made[0]?.token).toBe(made[1]?.token);
        const token = made[0]!.token;
        expect(made[0]).toEqual({ token, taskId: 't', createdMs: 5, usdzSha256: null });
        expect(await shares.create('o1', 't', 'C'.repeat(24), 9)).toEqual(made[0]);
        expect(await shares.forTask('o1', 't')).toEqual(made[0]);
        expect(await shares.forTask('o2', 't')).toBeUndefined(); // not o2's link
        expect([...(await shares.forTasks('o1', ['t', 'x'])).keys()]).toEqual(['t']);
        expect((await shares.forTasks('o2', ['t'])).size).toBe(0);
        expect(await shares.forTasks('o1', [])).toEqual(new Map());

        // Not completed and archived yet: the link shows nothing.
        expect(await shares.resolve(token)).toBeUndefined();
        await library.update('t', completed, 10);
        expect(await shares.resolve(token)).toBeUndefined();
        await library.archived('t', 'f'.repeat(64));
        const shown = await shares.resolve(token);
        expect(shown).toEqual({
          model: 'beta-text',
          prompt: 'a red vase',
          name: null,
          photos: 0,
          created: 1_800_000_000,
          assetSha256: 'f'.repeat(64),
          thumbnailSha256: null,
          usdzSha256: null,
          preview: null,
        });
        // The link's USDZ and preview picture are kept with it (the owner's link only).
        expect(await shares.setUsdz('o2', 't', '2'.repeat(64))).toBe(false);
        expect(await shares.setUsdz('o1', 't', '2'.repeat(64))).toBe(true);
        await shares.setPreview(token, { key: 'k'.repeat(64), sha256: '3'.repeat(64) });
        expect(await shares.resolve(token)).toMatchObject({
          usdzSha256: '2'.repeat(64),
          preview: { key: 'k'.repeat(64), sha256: '3'.repeat(64) },
        });
        expect((await shares.forTask('o1', 't'))?.usdzSha256).toBe('2'.repeat(64));
        // Public facts only: nothing names the owner or the task.
        expect(JSON.stringify(shown)).not.toMatch(/o1|"t"/);
        await library.setThumbnail('o1', 't', '1'.repeat(64));
        expect((await shares.resolve(token))?.thumbnailSha256).toBe('1'.repeat(64));
        expect(await shares.resolve('Z'.repeat(24))).toBeUndefined();

        expect(await shares.revoke('o2', 't')).toBe(false); // another owner cannot
        expect(await shares.resolve(token)).toBeDefined();
        expect(await shares.revoke('o1', 't')).toBe(true);
        expect(await shares.resolve(token)).toBeUndefined();
        expect(await shares.revoke('o1', 't')).toBe(false);
        // Shared again: a new token; the old one stays dead.
        const again = await shares.create('o1', 't', 'D'.repeat(24), 20);
        expect(again.token).toBe('D'.repeat(24));
        expect(again.usdzSha256).toBeNull(); // the old link's USDZ went with it
        expect((await shares.resolve(again.token))?.preview).toBeNull();
        expect(await shares.resolve(token)).toBeUndefined();
        expect(await shares.resolve(again.token)).toBeDefined();
      }));

    it('keeps the windows of each charge and refund, and the balances refusals stated', () =>
      using(async ({ library, intents }) => {
        await library.insert(row('o1', 'w1', { sentMs: 100, answeredMs: 120, updatedMs: 120 }));
        await library.insert(row('o1', 'w2', { sentMs: 130, answeredMs: 150, updatedMs: 150 }));
        await library.update('w1', { ...completed, creditsRemaining: 990 }, 400);
        const pending = {
          ...completed,
          status: 'pending',
          progress: 20,
          creditsConsumed: null,
          creditsRemaining: null,
          upstreamModelUrl: null,
          completedAt: null,
        };
        await library.update('w2', pending, 300);
        const failed = { ...pending, status: 'failed', error: { message: 'no' } };
        await library.update('w2', failed, 500);
        // A late poll of the failed one changes neither window.
        await library.update('w2', failed, 900);
        const ledger = await library.ledger('o1', 10);
        expect(ledger).toEqual([
          expect.objectContaining({
            taskId: 'w1',
            sentMs: 100,
            answeredMs: 120,
            endedMs: 400,
            creditsRemaining: 990,
          }),
          expect.objectContaining({
            taskId: 'w2',
            sentMs: 130,
            answeredMs: 150,
            lastPendingMs: 300,
            endedMs: 500,
            status: 'failed',
          }),
        ]);
        expect(await library.ledger('o2', 10)).toEqual([]);
        await library.recordBalance('o1', 5, 700, null, 690);
        expect(await library.refusals('o1', 10)).toEqual([
          { balance: 5, sentMs: 690, answeredMs: 700 },
        ]);
        // Intents: written before a create is sent, gone once answered.
        await intents.record({
          id: 'i1',
          owner: 'o1',
          holder: 'h',
          sentMs: 10,
          model: 'alpha',
          summary: 'a cube',
        });
        await intents.record({
          id: 'i2',
          owner: 'o1',
          holder: 'h',
          sentMs: 20,
          model: 'alpha',
          summary: 'a cube',
        });
        await expect(
          intents.record({
            id: 'i2',
            owner: 'o1',
            holder: 'h',
            sentMs: 20,
            model: 'alpha',
            summary: 'x',
          }),
        ).rejects.toThrow();
        await intents.remove('i1');
        expect((await intents.unresolved('o1', 1000)).map((i) => i.id)).toEqual(['i2']);
        expect(await intents.unresolved('o1', 15)).toEqual([]);
        expect(await intents.unresolved('o2', 1000)).toEqual([]);
      }));

    it('claims an idempotency key once, lets an expired lease be taken over, keeps answers', () =>
      using(async ({ idempotency }) => {
        const claims = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            idempotency.claim('o', 'k', 'sha', `h${i}`, 1_000, 10_000),
          ),
        );
        expect(claims.filter(Boolean)).toHaveLength(1);
        const holder = `h${claims.indexOf(true)}`;
        expect(await idempotency.get('o', 'k')).toMatchObject({
          state: 'in_flight',
          holder,
          leaseUntilMs: 11_000,
          response: undefined,
        });
        expect(await idempotency.takeOver('o', 'k', 'other', 5_000, 10_000)).toBe(false);
        expect(await idempotency.renew('o', 'k', holder, 20_000)).toBe(true);
        expect(await idempotency.takeOver('o', 'k', 'other', 20_001, 10_000)).toBe(true);
        expect(await idempotency.renew('o', 'k', holder, 40_000)).toBe(false);
        await idempotency.finish('o', 'k', 'other', {
          status: 202,
          headers: { 'content-type': 'application/json' },
          body: new TextEncoder().encode('{"id":"t"}'),
        });
        const done = await idempotency.get('o', 'k');
        expect(done?.state).toBe('done');
        expect(new TextDecoder().decode(done?.response?.body)).toBe('{"id":"t"}');
        expect(done?.response?.headers).toEqual({ 'content-type': 'application/json' });

        await idempotency.claim('o', 'k2', 'sha', 'h', 1_000, 10_000);
        await idempotency.release('o', 'k2', 'h');
        expect(await idempotency.get('o', 'k2')).toBeUndefined();
        await idempotency.claim('o', 'k3', 'sha', 'h', 1_000, 10 ** 9);
        expect(await idempotency.expireAllLeases()).toBe(1);
        expect((await idempotency.get('o', 'k3'))?.leaseUntilMs).toBe(0);
        await idempotency.purge(2_000);
        expect(await idempotency.get('o', 'k')).toBeUndefined();
      }));

    it('indexes uploads: size, references, and the unreferenced old ones', () =>
      using(async ({ uploads }) => {
        await uploads.record('a'.repeat(64), 'png', 1000, 1);
        await uploads.record('a'.repeat(64), 'png', 1000, 2);
        await uploads.record('b'.repeat(64), 'jpg', 500, 3);
        await uploads.record('c'.repeat(64), 'webp', 250, 100);
        expect(await uploads.totalBytes()).toBe(1750);
        await uploads.markReferenced(['a'.repeat(64)]);
        expect(await uploads.unreferenced(50, 10)).toEqual([
          { sha256: 'b'.repeat(64), ext: 'jpg' },
        ]);
        expect(await uploads.remove('b'.repeat(64))).toBe(true);
        expect(await uploads.remove('b'.repeat(64))).toBe(false);
        expect(await uploads.remove('a'.repeat(64))).toBe(false); // referenced: kept
        expect(await uploads.totalBytes()).toBe(1250);
        // Names: the latest one given wins; bytes sent without a name keep the one they had.
        await uploads.record('c'.repeat(64), 'webp', 250, 101, 'first.webp');
        await uploads.record('c'.repeat(64), 'webp', 250, 102, 'second.webp');
        await uploads.record('c'.repeat(64), 'webp', 250, 103);
        expect(await uploads.names(['a'.repeat(64), 'c'.repeat(64)])).toEqual(
          new Map([['c'.repeat(64), 'second.webp']]),
        );
        expect(await uploads.names([])).toEqual(new Map());
      }));

    it('takes room for uploads atomically, and none for bytes stored before', () =>
      using(async ({ uploads }) => {
        const sha = (i: number) => i.toString(16).padStart(64, '0');
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, i) => uploads.reserve(sha(i), 'png', 100, 1, null, 1000)),
        );
        expect(outcomes.filter((o) => o === 'new')).toHaveLength(10);
        expect(outcomes.filter((o) => o === 'full')).toHaveLength(10);
        expect(await uploads.totalBytes()).toBe(1000);
        // Full, yet an image already stored is taken (its name updated), and needs no room.
        const kept = outcomes.indexOf('new');
        expect(await uploads.reserve(sha(kept), 'png', 100, 2, 'again.png', 1000)).toBe('stored');
        expect(await uploads.names([sha(kept)])).toEqual(new Map([[sha(kept), 'again.png']]));
        // A reservation whose bytes never arrived is taken back.
        await uploads.forget(sha(kept));
        expect(await uploads.totalBytes()).toBe(900);
        expect(await uploads.reserve(sha(99), 'png', 100, 3, null, 1000)).toBe('new');
      }));

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

    it('counts hits per window, concurrently', () =>
      using(async ({ counters }) => {
        const hits = await Promise.all(
          Array.from({ length: 10 }, () => counters.hit('create:o', 60_000, 120_001)),
        );
        expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual([
          1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
        ]);
        expect(hits[0]?.resetMs).toBe(180_000);
        expect((await counters.hit('create:o', 60_000, 180_000)).count).toBe(1);
      }));

    it('gives a lease to one holder at a time, and to another once it runs out', () =>
      using(async ({ leases }) => {
        const got = await Promise.all(
          ['a', 'b', 'c'].map((h) => leases.claim('archive:t', h, 1_000, 60_000)),
        );
        expect(got.filter(Boolean)).toHaveLength(1);
        const holder = ['a', 'b', 'c'][got.indexOf(true)]!;
        expect(await leases.claim('archive:t', holder, 2_000, 60_000)).toBe(true);
        expect(await leases.claim('archive:t', 'z', 61_000, 60_000)).toBe(false);
        expect(await leases.claim('archive:t', 'z', 62_001, 60_000)).toBe(true);
        await leases.release('archive:t', holder); // not the holder any more: no effect
        expect(await leases.claim('archive:t', holder, 62_002, 60_000)).toBe(false);
        await leases.release('archive:t', 'z');
        expect(await leases.claim('archive:t', holder, 62_003, 60_000)).toBe(true);
      }));
  });
}
