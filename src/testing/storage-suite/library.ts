// The library's rows: written, moved forward only, listed, hidden, archived, pictured.
import { describe, expect, it } from 'vitest';
import type { LibraryRow } from '../../server/storage/library.ts';
import { type Using, row, completed } from './rows.ts';

export function libraryTests(using: Using) {
  describe('library rows', () => {
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
  });
}
