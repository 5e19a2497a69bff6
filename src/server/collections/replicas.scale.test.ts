// Collections on two Kiln replicas (PostgreSQL, S3, nginx): what one replica makes, the other
// lists, filters, zips and shares; members added on both at once are kept once; a link revoked
// on one is gone on the other.
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CollectionSchema,
  LibraryEntrySchema,
  LibraryPageSchema,
  PublicCollectionSchema,
  ShareSchema,
  TaskSchema,
} from '../../contract/index.ts';
import { STACK_KEY, startStack, type Stack } from '../../testing/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ replicas: 2 });
});
afterAll(() => stack?.stop());

const auth = { authorization: `Bearer ${STACK_KEY}` };
const json = { ...auth, 'content-type': 'application/json' };
const A = () => stack.replicas[0]!.url;
const B = () => stack.replicas[1]!.url;

const post = (base: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) });

/** A finished, archived model made through `base`: its task id. */
async function archivedModel(base: string, prompt: string): Promise<string> {
  const res = await post(base, '/api/v1/3d/generations', {
    model: 'beta-text',
    prompt,
    mode: 'sync',
  });
  const { id } = TaskSchema.parse(await res.json());
  for (let i = 0; i < 100; i++) {
    const entry = LibraryEntrySchema.parse(
      await (await fetch(`${base}/api/library/${id}`, { headers: auth })).json(),
    );
    if (entry.archived) return id;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${id} was never archived`);
}

describe('collections on two replicas', () => {
  it('made on A, filled on both at once, listed, zipped and shared on either, revoked for both', async () => {
    const models = await Promise.all([
      archivedModel(A(), 'a red vase'),
      archivedModel(B(), 'a blue mug'),
      archivedModel(A(), 'a green lamp'),
    ]);

    // The same name made on both replicas at once: one wins, the other is told it is taken.
    const made = await Promise.all([
      post(A(), '/api/collections', { name: 'Shelf' }),
      post(B(), '/api/collections', { name: 'shelf' }),
    ]);
    expect(made.map((r) => r.status).sort()).toEqual([201, 409]);
    const winner = made.find((r) => r.status === 201)!;
    const shelf = CollectionSchema.parse(await winner.json());
    const loser = made.find((r) => r.status === 409)!;
    expect(await loser.json()).toMatchObject({
      error: { code: 'collection_name_taken', param: 'name' },
    });

    // Members added on both replicas at once, overlapping: no error, each kept once.
    const adds = await Promise.all(
      [A(), B(), A(), B(), B(), A()].map((base, i) =>
        post(base, `/api/collections/${shelf.id}/models`, {
          add: [models[i % 3]!, models[(i + 1) % 3]!],
        }),
      ),
    );
    expect(adds.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const base of [A(), B()]) {
      const read = CollectionSchema.parse(
        await (await fetch(`${base}/api/collections/${shelf.id}`, { headers: auth })).json(),
      );
      expect(read.count).toBe(3);
    }

    // The gallery filtered by it reads the same on both, and each entry says it is in it.
    const [onA, onB] = await Promise.all(
      [A(), B()].map(async (base) =>
        LibraryPageSchema.parse(
          await (
            await fetch(`${base}/api/library?collection=${shelf.id}&limit=50`, { headers: auth })
          ).json(),
        ),
      ),
    );
    expect(onA!.data.map((e) => e.id).sort()).toEqual([...models].sort());
    expect(onB!.data.map((e) => e.id)).toEqual(onA!.data.map((e) => e.id));
    for (const e of onB!.data) expect(e.collections).toContain(shelf.id);

    // The zip from B holds every model (from the shared bucket).
    const zip = await fetch(`${B()}/api/collections/${shelf.id}/download.zip`, { headers: auth });
    expect(zip.status).toBe(200);
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const glbs = Object.keys(files).filter((n) => n.endsWith('.glb'));
    expect(glbs).toHaveLength(3);
    for (const n of glbs) expect(strFromU8(files[n]!.slice(0, 4))).toBe('glTF');

    // Shared on A, read on B (and through nginx), its files served by both.
    const shared = await fetch(`${A()}/api/collections/${shelf.id}/share`, {
      method: 'POST',
      headers: auth,
    });
    expect(shared.status).toBe(201);
    const link = ShareSchema.parse(await shared.json());
    expect(link.url).toBe(`${stack.url}/c/${link.token}`);
    const again = await fetch(`${B()}/api/collections/${shelf.id}/share`, {
      method: 'POST',
      headers: auth,
    });
    expect(ShareSchema.parse(await again.json()).token).toBe(link.token);
    const page = PublicCollectionSchema.parse(
      await (await fetch(`${B()}/api/collection-shares/${link.token}`)).json(),
    );
    expect(page.name).toBe(shelf.name); // whichever replica's create won the race
    expect(page.models).toHaveLength(3);
    const fromA = new Uint8Array(
      await (await fetch(`${A()}${page.models[0]!.model_url}`)).arrayBuffer(),
    );
    const fromB = new Uint8Array(
      await (await fetch(`${B()}${page.models[0]!.model_url}`)).arrayBuffer(),
    );
    expect(fromB).toEqual(fromA);
    expect(strFromU8(fromA.slice(0, 4))).toBe('glTF');

    // Revoked on B: gone on A at once.
    const revoked = await fetch(`${B()}/api/collections/${shelf.id}/share`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(revoked.status).toBe(204);
    for (const base of [A(), B(), stack.url]) {
      expect((await fetch(`${base}/api/collection-shares/${link.token}`)).status).toBe(404);
      expect((await fetch(`${base}${page.models[0]!.model_url}`)).status).toBe(404);
    }

    // Deleted on A: gone on B, its models still there.
    const deleted = await fetch(`${A()}/api/collections/${shelf.id}`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(deleted.status).toBe(204);
    const after = await fetch(`${B()}/api/collections/${shelf.id}`, { headers: auth });
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({ error: { code: 'collection_not_found' } });
    const entry = LibraryEntrySchema.parse(
      await (await fetch(`${B()}/api/library/${models[0]}`, { headers: auth })).json(),
    );
    expect(entry.collections).toEqual([]);
    expect(
      (await fetch(`${A()}/api/library?collection=${shelf.id}`, { headers: auth })).status,
    ).toBe(404);
  });
});
