// Tests only: the collection store (names unique per owner regardless of case, members all or
// nothing, memberships, the library filtered by a collection, public links), run against SQLite
// (collections.test.ts) and PostgreSQL (collections.scale.test.ts), so that both dialects answer
// alike, at once too.
import { describe, expect, it } from 'vitest';
import { completedRow } from '../../testing/library-rows.ts';
import type { CollectionRow } from './collections.ts';
import type { Storage } from './database.ts';

const SHA = (n: number) => n.toString(16).padStart(64, 'b');
const id = (n: number) => `col_${String(n).padStart(20, 'A')}`;
const T0 = 1_800_000_000_000;

/** `me`'s library t1…t6 (t1 oldest), archived but t5 (pending) and t6 (failed); `other`'s x1. */
async function seed(s: Storage) {
  for (let i = 1; i <= 4; i++)
    await s.library.insert(
      completedRow('me', `t${i}`, {
        prompt: i % 2 ? `a red chair ${i}` : `a blue mug ${i}`,
        creditsConsumed: i * 5,
      }),
    );
  await s.library.insert(
    completedRow('me', 't5', { status: 'pending', prompt: 'later', creditsConsumed: null }),
  );
  await s.library.insert(
    completedRow('me', 't6', { status: 'failed', prompt: 'broken', error: { message: 'no' } }),
  );
  await s.library.insert(completedRow('other', 'x1', { prompt: 'a red chair' }));
  for (let i = 1; i <= 4; i++) await s.library.archived(`t${i}`, SHA(i));
  await s.library.archived('x1', SHA(9));
}

const created = (r: CollectionRow | 'name_taken'): CollectionRow => {
  if (r === 'name_taken') throw new Error('name taken');
  return r;
};

export function collectionsSuite(name: string, open: () => Promise<Storage>) {
  describe(`collections on ${name}`, () => {
    const using = async (fn: (s: Storage) => Promise<void>) => {
      const s = await open();
      try {
        await seed(s);
        await fn(s);
      } finally {
        await s.close();
      }
    };

    it('keeps names unique per owner regardless of case, lists by name, renames and deletes', () =>
      using(async ({ collections: c }) => {
        const chairs = created(await c.create('me', id(1), 'Chairs', T0));
        expect(chairs).toEqual({
          id: id(1),
          name: 'Chairs',
          count: 0,
          coverSha256: null,
          createdMs: T0,
          updatedMs: T0,
          share: null,
        });
        expect(await c.create('me', id(2), 'CHAIRS', T0)).toBe('name_taken');
        expect(await c.create('me', id(2), 'Énorme', T0 + 1)).not.toBe('name_taken');
        // "É" typed as E and a combining accent is the same name.
        expect(await c.create('me', id(3), 'E\u0301NORME', T0)).toBe('name_taken');
        expect(await c.create('me', id(3), 'apples', T0)).not.toBe('name_taken');
        expect(await c.create('other', id(4), 'chairs', T0)).not.toBe('name_taken');
        expect((await c.list('me')).map((r) => r.name)).toEqual(['apples', 'Chairs', 'Énorme']);
        expect((await c.list('other')).map((r) => r.id)).toEqual([id(4)]);
        expect(await c.get('me', id(4))).toBeUndefined();

        expect(await c.rename('me', id(3), 'chairs', T0 + 5)).toBe('name_taken');
        expect(await c.rename('me', id(1), 'CHAIRS', T0 + 5)).toMatchObject({
          name: 'CHAIRS',
          updatedMs: T0 + 5,
        });
        expect(await c.rename('me', id(4), 'Mine now', T0)).toBeUndefined();
        expect((await c.get('other', id(4)))?.name).toBe('chairs');

        expect(await c.remove('me', id(4))).toBe(false);
        expect(await c.remove('me', id(3))).toBe(true);
        expect(await c.remove('me', id(3))).toBe(false);
        expect((await c.list('me')).map((r) => r.name)).toEqual(['CHAIRS', 'Énorme']);
        // Its name is free again.
        expect(await c.create('me', id(5), 'Apples', T0)).not.toBe('name_taken');
      }));

    it('one of many creates of one name at once wins, and the rest are told it is taken', () =>
      using(async ({ collections: c }) => {
        const names = ['Shelf', 'shelf', 'SHELF', 'sHeLf', 'Shelf', 'shelF'];
        const results = await Promise.all(names.map((n, i) => c.create('me', id(10 + i), n, T0)));
        expect(results.filter((r) => r !== 'name_taken')).toHaveLength(1);
        expect(await c.list('me')).toHaveLength(1);
        // Renames racing to one name: one wins.
        created(await c.create('me', id(20), 'A', T0));
        created(await c.create('me', id(21), 'B', T0));
        const renames = await Promise.all([
          c.rename('me', id(20), 'Same', T0 + 1),
          c.rename('me', id(21), 'same', T0 + 1),
        ]);
        expect(renames.filter((r) => r === 'name_taken')).toHaveLength(1);
      }));

    it('adds and removes members all or nothing; the same member added at once is no error', () =>
      using(async ({ collections: c, library }) => {
        created(await c.create('me', id(1), 'Chairs', T0));
        created(await c.create('me', id(2), 'All', T0));
        // Ten adds of the same members at once (replicas racing): none fails, each kept once.
        const racing = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            c.changeMembers('me', id(1), { add: ['t1', 't3'], remove: [] }, T0 + i),
          ),
        );
        for (const r of racing) expect(r).toMatchObject({ count: 2 });
        expect(await c.get('me', id(1))).toMatchObject({ count: 2, updatedMs: T0 + 9 });

        const both = await c.changeMembers(
          'me',
          id(2),
          { add: ['t1', 't2', 't3', 't4', 't5', 't6'], remove: [] },
          T0 + 20,
        );
        expect(both).toMatchObject({ count: 6 });
        // Unknown and another owner's ids: nothing applied, and they are named.
        expect(
          await c.changeMembers(
            'me',
            id(1),
            { add: ['t2', 'nope', 'x1'], remove: ['t1'] },
            T0 + 30,
          ),
        ).toEqual({ unknown: { add: ['nope', 'x1'], remove: [] } });
        expect(
          await c.changeMembers('me', id(1), { add: ['t2'], remove: ['ghost'] }, T0 + 30),
        ).toEqual({ unknown: { add: [], remove: ['ghost'] } });
        expect(await c.get('me', id(1))).toMatchObject({ count: 2, updatedMs: T0 + 9 });
        // Another owner's collection is none of mine.
        expect(await c.changeMembers('other', id(1), { add: ['x1'], remove: [] }, T0)).toBe(
          undefined,
        );
        expect(await c.changeMembers('me', id(99), { add: ['t1'], remove: [] }, T0)).toBe(
          undefined,
        );

        // Memberships of a page, in one call: by the collections' names.
        const held = await c.memberships('me', ['t1', 't2', 't3', 't5', 'x1', 'none']);
        expect(Object.fromEntries(held)).toEqual({
          t1: [id(2), id(1)],
          t2: [id(2)],
          t3: [id(2), id(1)],
          t5: [id(2)],
        });
        expect((await c.memberships('other', ['x1', 't1'])).size).toBe(0);
        expect((await c.memberships('me', [])).size).toBe(0);

        // Members newest first, hidden ones too (and counted).
        await library.hide('me', 't4');
        expect((await c.members('me', id(2))).map((r) => r.taskId)).toEqual([
          't6',
          't5',
          't4',
          't3',
          't2',
          't1',
        ]);
        expect((await c.get('me', id(2)))?.count).toBe(6);
        expect(await c.members('other', id(2))).toEqual([]);

        // The cover: the newest shown member with a picture.
        expect((await c.get('me', id(2)))?.coverSha256).toBeNull();
        await library.setThumbnail('me', 't2', SHA(22));
        await library.setThumbnail('me', 't4', SHA(44)); // hidden: not the cover
        expect((await c.get('me', id(2)))?.coverSha256).toBe(SHA(22));
        expect((await c.get('me', id(1)))?.coverSha256).toBeNull();

        // Removing leaves the model, and its other collections.
        expect(
          await c.changeMembers('me', id(2), { add: [], remove: ['t1', 't2'] }, T0 + 40),
        ).toMatchObject({ count: 4, coverSha256: null });
        expect(Object.fromEntries(await c.memberships('me', ['t1']))).toEqual({ t1: [id(1)] });
        expect(await library.get('me', 't1')).toBeDefined();
        // Deleting a collection forgets its members.
        expect(await c.remove('me', id(1))).toBe(true);
        expect((await c.memberships('me', ['t1', 't3'])).get('t1')).toBeUndefined();
        expect(Object.fromEntries(await c.memberships('me', ['t3']))).toEqual({ t3: [id(2)] });
      }));

    it('a delete racing members changes leaves no collection and fails none of them oddly', () =>
      using(async ({ collections: c }) => {
        created(await c.create('me', id(1), 'Racy', T0));
        const [changes, removed] = await Promise.all([
          Promise.all(
            ['t1', 't2', 't3', 't4'].map((t) =>
              c.changeMembers('me', id(1), { add: [t], remove: [] }, T0),
            ),
          ),
          c.remove('me', id(1)),
        ]);
        expect(removed).toBe(true);
        for (const r of changes) expect(r === undefined || 'count' in r).toBe(true);
        expect(await c.get('me', id(1))).toBeUndefined();
        expect((await c.memberships('me', ['t1', 't2', 't3', 't4'])).size).toBe(0);
      }));

    it('filters the library by a collection with search, filters, orders and cursors', () =>
      using(async ({ collections: c, library }) => {
        created(await c.create('me', id(1), 'Some', T0));
        await c.changeMembers('me', id(1), { add: ['t1', 't2', 't3', 't5'], remove: [] }, T0);
        created(await c.create('other', id(2), 'Theirs', T0));
        await c.changeMembers('other', id(2), { add: ['x1'], remove: [] }, T0);
        const list = (options: Parameters<typeof library.list>[1], owner = 'me') =>
          library.list(owner, options).then((rows) => rows.map((r) => r.taskId));
        const some = { collection: id(1) };
        expect(await list({ limit: 100, filter: some })).toEqual(['t5', 't3', 't2', 't1']);
        expect(await list({ limit: 100, filter: { ...some, words: ['chair'] } })).toEqual([
          't3',
          't1',
        ]);
        expect(await list({ limit: 100, filter: { ...some, status: 'pending' } })).toEqual(['t5']);
        expect(
          await list({ limit: 100, filter: { ...some, kind: 'prompt' }, sort: 'oldest' }),
        ).toEqual(['t1', 't2', 't3', 't5']);
        // Another owner's collection lists none of my rows (the route refuses it first).
        expect(await list({ limit: 100, filter: { collection: id(2) } })).toEqual([]);
        expect(await list({ limit: 100, filter: { collection: id(2) } }, 'other')).toEqual(['x1']);
        // Credits order (t3 15, t2 10, t1 5, t5 none) walked one row at a time.
        const seen: string[] = [];
        let after: { seq: number; creditsKey: number } | undefined;
        for (let i = 0; i < 10; i++) {
          const rows = await library.list('me', { limit: 1, filter: some, sort: 'credits', after });
          const last = rows[0];
          if (!last) break;
          seen.push(last.taskId);
          after = { seq: last.seq, creditsKey: last.creditsConsumed ?? -1 };
        }
        expect(seen).toEqual(['t3', 't2', 't1', 't5']);
        await library.hide('me', 't3');
        expect(await list({ limit: 100, filter: some })).toEqual(['t5', 't2', 't1']);
      }));

    it('shares a collection: one link, its shown archived models, revoked with it', () =>
      using(async ({ collections: c, library }) => {
        created(await c.create('me', id(1), 'Shelf', T0));
        await c.changeMembers('me', id(1), { add: ['t1', 't2', 't3', 't5', 't6'], remove: [] }, T0);
        expect(await c.share('other', id(1), 'tok-other-aaaaaaaaaaaaaa', T0)).toBeUndefined();
        const links = await Promise.all(
          ['tok-a', 'tok-b', 'tok-c'].map((t) => c.share('me', id(1), t.padEnd(24, 'x'), T0 + 1)),
        );
        expect(new Set(links.map((l) => l?.token)).size).toBe(1);
        const token = links[0]!.token;
        expect((await c.get('me', id(1)))?.share).toEqual({ token, createdMs: T0 + 1 });

        await library.hide('me', 't2');
        await library.setThumbnail('me', 't3', SHA(33));
        const shared = await c.resolveShare(token);
        expect(shared?.name).toBe('Shelf');
        expect(shared?.models.map((m) => [m.prompt, m.assetSha256, m.thumbnailSha256])).toEqual([
          ['a red chair 3', SHA(3), SHA(33)],
          ['a red chair 1', SHA(1), null],
        ]);
        expect((await c.sharedModel(token, 0))?.assetSha256).toBe(SHA(3));
        expect((await c.sharedModel(token, 1))?.assetSha256).toBe(SHA(1));
        expect(await c.sharedModel(token, 2)).toBeUndefined();
        expect(await c.resolveShare('unknown'.padEnd(24, 'x'))).toBeUndefined();

        // Its link preview picture, remembered with the link (made once, decision 0089).
        expect(shared?.preview).toBeNull();
        await c.setPreview(token, { key: 'k1', sha256: SHA(90) });
        expect((await c.resolveShare(token))?.preview).toEqual({ key: 'k1', sha256: SHA(90) });
        await c.setPreview('unknown'.padEnd(24, 'x'), { key: 'k2', sha256: SHA(91) });
        expect((await c.resolveShare(token))?.preview).toEqual({ key: 'k1', sha256: SHA(90) });

        expect(await c.revokeShare('other', id(1))).toBe(false);
        expect(await c.revokeShare('me', id(1))).toBe(true);
        expect(await c.revokeShare('me', id(1))).toBe(false);
        expect(await c.resolveShare(token)).toBeUndefined();
        expect(await c.sharedModel(token, 0)).toBeUndefined();
        expect((await c.get('me', id(1)))?.share).toBeNull();

        const again = await c.share('me', id(1), 'tok-d'.padEnd(24, 'x'), T0 + 2);
        expect(again?.token).toBe('tok-d'.padEnd(24, 'x'));
        // A new link starts without the old one's picture.
        expect((await c.resolveShare(again!.token))?.preview).toBeNull();
        expect(await c.remove('me', id(1))).toBe(true);
        expect(await c.resolveShare(again!.token)).toBeUndefined();
        expect(await c.share('me', id(1), 'tok-e'.padEnd(24, 'x'), T0)).toBeUndefined();
      }));
  });
}
