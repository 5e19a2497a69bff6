// The upload index: sizes, references, names, and room taken atomically under the quota.
import { describe, expect, it } from 'vitest';
import { type Using } from './rows.ts';

export function uploadTests(using: Using) {
  describe('the upload index', () => {
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
  });
}
