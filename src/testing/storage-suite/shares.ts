// A model's public link: one per owner and task, resolved to the archived model only, revoked.
import { describe, expect, it } from 'vitest';
import { type Using, row, completed } from './rows.ts';

export function shareTests(using: Using) {
  describe('public links', () => {
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
  });
}
