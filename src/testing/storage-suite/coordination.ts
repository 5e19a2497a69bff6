// What replicas share to stay in step: rate-limit counters, leases, and a stale intent taken over
// with what the stages before a vendor task's reference cost.
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

    it("lets one taker have a stale intent, and keeps a vendor task's reference with its prior cost", () =>
      using(async ({ intents, providerRefs }) => {
        const held = {
          id: 'continue:meshy_preview.meshy-6.x',
          owner: 'o',
          holder: 'dead',
          sentMs: 1_000,
          model: 'meshy/meshy-6',
          summary: 'the next stage',
        };
        await intents.record(held);
        const taken = await Promise.all(
          ['a', 'b', 'c'].map((h) => intents.takeOver(held, h, 40_000)),
        );
        expect(taken.filter(Boolean)).toHaveLength(1);
        expect(await intents.get(held.id)).toMatchObject({ sentMs: 40_000 });
        // As seen before the take-over: no longer what the intent is.
        expect(await intents.takeOver(held, 'z', 50_000)).toBe(false);
        await intents.remove(held.id);
        expect(await intents.takeOver(held, 'z', 50_000)).toBe(false);

        expect(await providerRefs.get('meshy_t')).toBeUndefined();
        await providerRefs.set('meshy_t', 'refine.meshy-6.y', 2_000, 20);
        expect(await providerRefs.get('meshy_t')).toEqual({
          ref: 'refine.meshy-6.y',
          priorCost: 20,
        });
        await providerRefs.set('fal_t', 'r', 2_000, 0.02);
        expect((await providerRefs.get('fal_t'))?.priorCost).toBeCloseTo(0.02, 9);
      }));
  });
}
