// Tests only: the library's list (search, filters, orders, cursors), favourites, bulk actions and
// "same input", run against SQLite (library-list.test.ts) and PostgreSQL
// (library-list.scale.test.ts), so that both dialects answer alike.
import { describe, expect, it } from 'vitest';
import type { LibraryImage } from '../../contract/index.ts';
import { completedRow, type LibraryInsert } from '../../testing/library-rows.ts';
import type { Storage } from './database.ts';
import type { LibraryListOptions, LibraryRow } from './library.ts';

const SHA = (n: number) => n.toString(16).padStart(64, 'a');
const upload = (n: number, name: string | null): LibraryImage => ({
  url: `https://kiln.test/api/uploads/${SHA(n)}.png`,
  upload: `/api/uploads/${SHA(n)}.png`,
  ...(name ? { name } : {}),
});

/**
 * One owner's library, oldest first (seq order): prompts, one photo, views; completed, failed,
 * pending; different prices. `other` has rows that would match every search.
 */
const LIBRARY: LibraryInsert[] = [
  completedRow('me', 't01', { prompt: 'A red Chair', creditsConsumed: 10 }),
  completedRow('me', 't02', {
    model: 'alpha',
    images: [upload(1, 'Chair-front.PNG')],
    creditsConsumed: 10,
  }),
  completedRow('me', 't03', {
    model: 'alpha-multiview',
    images: [upload(2, 'mug_front.png'), upload(3, 'mug_right.png')],
    creditsConsumed: 20,
  }),
  completedRow('me', 't04', {
    prompt: 'a blue vase, 100% ceramic',
    status: 'failed',
    creditsConsumed: null,
    error: { message: 'nope' },
  }),
  completedRow('me', 't05', { model: 'gamma', images: [upload(4, null)], creditsConsumed: 30 }),
  completedRow('me', 't06', {
    prompt: 'wooden chair_leg',
    status: 'pending',
    progress: 40,
    creditsConsumed: null,
  }),
  completedRow('me', 't07', {
    model: 'beta',
    images: [upload(1, 'Chair-front.PNG')],
    creditsConsumed: 15,
  }),
  completedRow('me', 't08', { prompt: 'A red Chair', model: 'gamma-text', creditsConsumed: 0 }),
  completedRow('other', 'x01', { prompt: 'a red chair', creditsConsumed: 10 }),
  completedRow('other', 'x02', { images: [upload(1, 'chair-front.png')], creditsConsumed: 99 }),
];

export function libraryListSuite(name: string, open: () => Promise<Storage>) {
  describe(`the library's list on ${name}`, () => {
    const using = async (fn: (s: Storage) => Promise<void>) => {
      const s = await open();
      try {
        for (const row of LIBRARY) await s.library.insert(row);
        await fn(s);
      } finally {
        await s.close();
      }
    };
    const ids = (rows: LibraryRow[]) => rows.map((r) => r.taskId);
    const list = (s: Storage, options: Partial<LibraryListOptions> = {}, owner = 'me') =>
      s.library.list(owner, { limit: 100, ...options }).then(ids);

    it('finds words in the prompt or a photo’s file name, case-insensitively, every word', () =>
      using(async (s) => {
        expect(await list(s, { filter: { words: ['chair'] } })).toEqual([
          't08',
          't07',
          't06',
          't02',
          't01',
        ]);
        expect(await list(s, { filter: { words: ['RED', 'chair'] } })).toEqual(['t08', 't01']);
        expect(await list(s, { filter: { words: ['front.png'] } })).toEqual(['t07', 't03', 't02']);
        expect(await list(s, { filter: { words: ['mug_right'] } })).toEqual(['t03']);
        expect(await list(s, { filter: { words: ['table'] } })).toEqual([]);
      }));

    it('takes % and _ as plain characters, and never matches an upload’s hash or address', () =>
      using(async (s) => {
        // LIKE's wildcards, escaped: "100%" is only the vase, "_" only where there is one.
        expect(await list(s, { filter: { words: ['100%'] } })).toEqual(['t04']);
        expect(await list(s, { filter: { words: ['%'] } })).toEqual(['t04']);
        expect(await list(s, { filter: { words: ['chair_'] } })).toEqual(['t06']);
        expect(await list(s, { filter: { words: ['_'] } })).toEqual(['t06', 't03']);
        expect(await list(s, { filter: { words: ['\\'] } })).toEqual([]);
        // t05's photo has no name: its URL and hash are not searched.
        expect(await list(s, { filter: { words: ['aaaa'] } })).toEqual([]);
        expect(await list(s, { filter: { words: ['uploads'] } })).toEqual([]);
      }));

    it('filters by model, input kind, status and favourite, together with a search', () =>
      using(async (s) => {
        expect(await list(s, { filter: { model: 'gamma' } })).toEqual(['t05']);
        expect(await list(s, { filter: { kind: 'prompt' } })).toEqual(['t08', 't06', 't04', 't01']);
        expect(await list(s, { filter: { kind: 'photo' } })).toEqual(['t07', 't05', 't02']);
        expect(await list(s, { filter: { kind: 'views' } })).toEqual(['t03']);
        expect(await list(s, { filter: { status: 'completed' } })).toEqual([
          't08',
          't07',
          't05',
          't03',
          't02',
          't01',
        ]);
        expect(await list(s, { filter: { status: 'failed' } })).toEqual(['t04']);
        expect(await list(s, { filter: { status: 'pending' } })).toEqual(['t06']);
        expect(await list(s, { filter: { favourite: true } })).toEqual([]);
        expect(await s.library.setFavourite('me', 't02', true)).toBe(true);
        expect(await s.library.setFavourite('me', 't04', true)).toBe(true);
        expect(await list(s, { filter: { favourite: true } })).toEqual(['t04', 't02']);
        expect(await list(s, { filter: { favourite: false } })).toHaveLength(6);
        expect(
          await list(s, { filter: { favourite: true, kind: 'photo', words: ['chair'] } }),
        ).toEqual(['t02']);
        expect(
          await list(s, { filter: { words: ['chair'], status: 'completed', kind: 'prompt' } }),
        ).toEqual(['t08', 't01']);
        // Hidden rows are never listed, whatever the filter.
        await s.library.hide('me', 't02');
        expect(await list(s, { filter: { favourite: true } })).toEqual(['t04']);
      }));

    it('filters by provider in the query, so a page of one provider is full and its cursor walks on', () =>
      using(async (s) => {
        const vendors = ['meshy/meshy-6', 'fal/fal-ai/trellis', 'tripo/v2.5-20250123'];
        for (let i = 0; i < 9; i++)
          await s.library.insert(
            completedRow('me', `v${i}`, { model: vendors[i % 3]!, prompt: `a cup ${i}` }),
          );
        await s.library.insert(completedRow('other', 'vx', { model: 'meshy/meshy-6' }));
        expect(await list(s, { filter: { provider: 'meshy' } })).toEqual(['v6', 'v3', 'v0']);
        expect(await list(s, { filter: { provider: 'fal' } })).toEqual(['v7', 'v4', 'v1']);
        expect(await list(s, { filter: { provider: 'tripo', words: ['cup', '5'] } })).toEqual([
          'v5',
        ]);
        // The spec's bare aliases only: none of the vendors' rows.
        expect(await list(s, { filter: { provider: 'spec' } })).toEqual(
          await list(s, { filter: {} }).then((all) => all.filter((id) => id.startsWith('t'))),
        );
        // Two rows a page: the second page starts after the first's last, among Meshy's rows only.
        const first = await s.library.list('me', { limit: 2, filter: { provider: 'meshy' } });
        expect(ids(first)).toEqual(['v6', 'v3']);
        const after = { seq: first[1]!.seq };
        expect(await list(s, { limit: 2, after, filter: { provider: 'meshy' } })).toEqual(['v0']);
      }));

    it('sorts newest, oldest or by credits, and every cursor walk sees each row once in order', () =>
      using(async (s) => {
        const all = await list(s);
        expect(all).toEqual(['t08', 't07', 't06', 't05', 't04', 't03', 't02', 't01']);
        expect(await list(s, { sort: 'oldest' })).toEqual([...all].reverse());
        // Most credits first; equal credits newest first; unknown credits (null) after 0.
        const byCredits = ['t05', 't03', 't07', 't02', 't01', 't08', 't06', 't04'];
        expect(await list(s, { sort: 'credits' })).toEqual(byCredits);

        const walk = async (options: Partial<LibraryListOptions>, size: number) => {
          const seen: string[] = [];
          let after: LibraryListOptions['after'];
          for (let i = 0; i < 20; i++) {
            const rows = await s.library.list('me', { ...options, limit: size, after });
            seen.push(...ids(rows));
            const last = rows.at(-1);
            if (rows.length < size || !last) break;
            after = { seq: last.seq, creditsKey: last.creditsConsumed ?? -1 };
          }
          return seen;
        };
        for (const size of [1, 2, 3]) {
          expect(await walk({ sort: 'newest' }, size)).toEqual(all);
          expect(await walk({ sort: 'oldest' }, size)).toEqual([...all].reverse());
          expect(await walk({ sort: 'credits' }, size)).toEqual(byCredits);
          expect(await walk({ sort: 'credits', filter: { words: ['chair'] } }, size)).toEqual([
            't07',
            't02',
            't01',
            't08',
            't06',
          ]);
        }
        // The old cursor (beforeSeq) still pages newest first.
        const first = await s.library.list('me', { limit: 3 });
        expect(ids(await s.library.list('me', { limit: 3, beforeSeq: first.at(-1)!.seq }))).toEqual(
          ['t05', 't04', 't03'],
        );
      }));

    it('keeps owners apart: lists, favourites and bulk actions touch only the owner’s rows', () =>
      using(async (s) => {
        expect(await list(s, { filter: { words: ['chair'] } }, 'other')).toEqual(['x02', 'x01']);
        expect(await list(s, { sort: 'credits' }, 'nobody')).toEqual([]);
        expect(await s.library.setFavourite('me', 'x01', true)).toBe(false);
        expect(await s.library.bulk('me', ['x01', 'x02', 't01'], 'hide')).toEqual(['t01']);
        expect(await list(s, {}, 'other')).toEqual(['x02', 'x01']);
        expect((await s.library.get('other', 'x01'))?.favourite).toBe(false);
      }));

    it('applies bulk actions: hide, unhide, favourite and unfavourite, each id once', () =>
      using(async (s) => {
        const some = ['t01', 't03', 't03', 'nope', 't05'];
        expect(await s.library.bulk('me', some, 'favourite')).toEqual(['t01', 't03', 't05']);
        expect(await list(s, { filter: { favourite: true } })).toEqual(['t05', 't03', 't01']);
        expect((await s.library.get('me', 't03'))?.favourite).toBe(true);
        expect(await s.library.bulk('me', ['t03'], 'unfavourite')).toEqual(['t03']);
        expect(await list(s, { filter: { favourite: true } })).toEqual(['t05', 't01']);
        expect(await s.library.bulk('me', ['t01', 't05', 't07'], 'hide')).toEqual([
          't01',
          't05',
          't07',
        ]);
        expect(await list(s)).toEqual(['t08', 't06', 't04', 't03', 't02']);
        expect((await s.library.get('me', 't05'))?.hidden).toBe(true);
        expect(await s.library.bulk('me', ['t05', 't07'], 'unhide')).toEqual(['t05', 't07']);
        expect(await list(s)).toEqual(['t08', 't07', 't06', 't05', 't04', 't03', 't02']);
        expect(await s.library.bulk('me', [], 'hide')).toEqual([]);
      }));

    it('finds the owner’s other completed generations of the same input', () =>
      using(async (s) => {
        const same = (id: string) => s.library.sameInput('me', id, 20).then(ids);
        // The same prompt (another model), not the pending or failed ones, not another owner's.
        expect(await same('t01')).toEqual(['t08']);
        expect(await same('t08')).toEqual(['t01']);
        // The same photo (its upload).
        expect(await same('t02')).toEqual(['t07']);
        expect(await same('t07')).toEqual(['t02']);
        // No other generation of these inputs.
        expect(await same('t03')).toEqual([]);
        expect(await same('t05')).toEqual([]);
        expect(await same('x01')).toEqual([]);
        // Views in another order, or only the same first photo, are another input.
        await s.library.insert(
          completedRow('me', 't09', {
            model: 'beta-multiview',
            images: [upload(3, 'mug_right.png'), upload(2, 'mug_front.png')],
          }),
        );
        await s.library.insert(
          completedRow('me', 't10', {
            model: 'beta-multiview',
            images: [upload(2, 'mug_front.png')],
          }),
        );
        expect(await same('t03')).toEqual([]);
        await s.library.insert(
          completedRow('me', 't11', {
            model: 'beta-multiview',
            images: [upload(2, 'mug_front.png'), upload(3, 'mug_right.png')],
          }),
        );
        expect(await same('t03')).toEqual(['t11']);
        // Hidden ones are not offered.
        await s.library.hide('me', 't08');
        expect(await same('t01')).toEqual([]);
      }));
  });
}
