// Idempotency keys: claimed once, leases taken over when they run out, answers kept.
import { describe, expect, it } from 'vitest';
import { type Using } from './rows.ts';

export function idempotencyTests(using: Using) {
  describe('idempotency keys', () => {
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
  });
}
