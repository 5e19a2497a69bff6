// What replicas share to stay in step: rate-limit counters and leases.
import { describe, expect, it } from 'vitest';
import { type Using } from './rows.ts';

export function coordinationTests(using: Using) {
  describe('counters and leases', () => {
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
