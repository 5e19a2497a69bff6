// A hidden model that is still shared (issue 31, item 7; decision 0095): the gallery's Hidden view
// lists the hidden tasks (`?hidden=1`), each saying whether its public link is live (`share`, the
// share routes' one place for it), so the SPA can say so and offer Stop sharing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LibraryEntrySchema,
  LibraryPageSchema,
  ShareSchema,
  TaskSchema,
} from '../../contract/index.ts';
import { post, startTestServer, type TestServer } from '../../testing/server.ts';

let s: TestServer;
const made: string[] = [];
beforeAll(async () => {
  s = await startTestServer();
  for (const prompt of ['a shared boat', 'a plain boat', 'a shown boat']) {
    const res = await s.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt, mode: 'sync' }),
    );
    made.push(TaskSchema.parse(await res.json()).id);
  }
});
afterAll(() => s.close());

const list = async (query: string) => {
  const res = await s.request(`/api/library${query}`);
  expect(res.status).toBe(200);
  return LibraryPageSchema.parse(await res.json()).data;
};

describe('the hidden view and the share it keeps', () => {
  it('lists only hidden tasks with ?hidden=1, each saying whether its public link is live', async () => {
    const [shared, plain, shown] = made as [string, string, string];
    const link = ShareSchema.parse(
      await (await s.request(`/api/library/${shared}/share`, { method: 'POST' })).json(),
    );
    const hid = await s.request(
      '/api/library/bulk',
      post({ ids: [shared, plain], action: 'hide' }),
    );
    expect(hid.status).toBe(200);

    // The gallery as it was: the hidden ones are not in it.
    expect((await list('')).map((e) => e.id)).toEqual([shown]);
    expect((await list('?hidden=0')).map((e) => e.id)).toEqual([shown]);
    // The Hidden view: only they, hidden, the shared one saying where its page is.
    const hidden = await list('?hidden=1');
    expect(hidden.map((e) => e.id)).toEqual([plain, shared]);
    expect(hidden.every((e) => e.hidden === true)).toBe(true);
    expect(hidden.find((e) => e.id === shared)?.share).toEqual({
      url: link.url,
      created_ms: expect.any(Number),
    });
    expect(hidden.find((e) => e.id === plain)?.share).toBeNull();
    // Combined with the other filters like any of them.
    expect((await list('?hidden=1&q=shared')).map((e) => e.id)).toEqual([shared]);
    // Its page is up while it is hidden.
    expect((await s.request(`/api/shares/${link.token}`, { key: null })).status).toBe(200);

    // Stop sharing, from the hidden card: the page goes, and the entry says so.
    const revoked = await s.request(`/api/library/${shared}/share`, { method: 'DELETE' });
    expect(revoked.status).toBe(204);
    expect((await s.request(`/api/shares/${link.token}`, { key: null })).status).toBe(404);
    const entry = LibraryEntrySchema.parse(
      await (await s.request(`/api/library/${shared}`)).json(),
    );
    expect(entry).toMatchObject({ hidden: true, share: null });
  });

  it('refuses a bad hidden value naming it', async () => {
    const res = await s.request('/api/library?hidden=yes');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_value', param: 'hidden' } });
  });
});
