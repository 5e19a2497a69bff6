// Names (decision 0085): PATCH /api/library/{id} with `name`, what is refused (a 400 naming
// `name`), the search, the zip's entry names and the share page's title.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LibraryEntrySchema,
  LibraryPageSchema,
  PublicShareSchema,
  ShareSchema,
} from '../../contract/index.ts';
import { KEY, finishedTask, startTestServer, type TestServer } from '../../testing/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A built SPA, as far as the share page reads it: index.html and Vite's manifest. */
function staticDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-names-static-'));
  mkdirSync(join(dir, '.vite'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Kiln</title></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, '.vite/manifest.json'), JSON.stringify({}));
  return dir;
}

/** A `beta-text` task of `prompt`, ended and archived. */
const finished = (s: TestServer, prompt: string) => finishedTask(s, { model: 'beta-text', prompt });

const patch = (s: TestServer, id: string, body: unknown, key: string = KEY) =>
  s.request(`/api/library/${id}`, {
    method: 'PATCH',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    key,
  });
const errorOf = (body: unknown) => (body as { error: Record<string, unknown> }).error;

describe('naming a model', () => {
  it('names, renames and clears a name; the name is trimmed and the search finds it', async () => {
    server = await startTestServer();
    const id = await finished(server, 'a small red vase');
    const before = LibraryEntrySchema.parse(
      await (await server.request(`/api/library/${id}`)).json(),
    );
    expect(before.name).toBeNull();

    const named = await patch(server, id, { name: '  Grandma’s   teapot  ' });
    expect(named.status).toBe(200);
    expect(LibraryEntrySchema.parse(await named.json())).toMatchObject({
      id,
      name: 'Grandma’s   teapot',
      prompt: 'a small red vase',
    });
    const found = LibraryPageSchema.parse(
      await (await server.request('/api/library?q=TEAPOT')).json(),
    );
    expect(found.data.map((e) => e.id)).toEqual([id]);
    // The prompt is still searched too.
    const byPrompt = LibraryPageSchema.parse(
      await (await server.request('/api/library?q=vase')).json(),
    );
    expect(byPrompt.data.map((e) => e.id)).toEqual([id]);

    // Starred and renamed at once; then cleared with "" and with null.
    const both = LibraryEntrySchema.parse(
      await (await patch(server, id, { favourite: true, name: 'Blue teapot' })).json(),
    );
    expect(both).toMatchObject({ favourite: true, name: 'Blue teapot' });
    expect(
      LibraryEntrySchema.parse(await (await patch(server, id, { name: '' })).json()).name,
    ).toBeNull();
    await patch(server, id, { name: 'Again' });
    expect(
      LibraryEntrySchema.parse(await (await patch(server, id, { name: null })).json()).name,
    ).toBeNull();
    const gone = LibraryPageSchema.parse(
      await (await server.request('/api/library?q=teapot')).json(),
    );
    expect(gone.data).toEqual([]);

    // Exactly 120 characters (code points: an emoji is one) is taken.
    const longest = `${'🏺'.repeat(20)}${'x'.repeat(100)}`;
    const taken = await patch(server, id, { name: longest });
    expect(taken.status).toBe(200);
    expect(LibraryEntrySchema.parse(await taken.json()).name).toBe(longest);
  });

  it('refuses a bad name with a 400 that names `name` and says what is wrong', async () => {
    server = await startTestServer();
    const id = await finished(server, 'a small red vase');
    await patch(server, id, { name: 'Kept' });
    for (const [name, says] of [
      ['x'.repeat(121), /at most 120 characters \(this one has 121\)/],
      [`  ${'y'.repeat(121)}  `, /at most 120 characters/],
      ['evil\u202Egnp.exe', /direction overrides or isolates/],
      ['\u2066isolated\u2069', /direction overrides or isolates/],
      ['two\nlines', /control characters/],
      ['tab\there', /control characters/],
      ['nul\u0000here', /cannot store/],
      ['half \ud800 a pair', /cannot store/],
      [42, /must be text/],
      [['a'], /must be text/],
    ] as const) {
      const res = await patch(server, id, { name });
      expect(res.status, JSON.stringify(name)).toBe(400);
      const error = errorOf(await res.json());
      expect(error).toMatchObject({ code: 'invalid_value', param: 'name' });
      expect(String(error.message)).toMatch(says);
    }
    // Nothing was changed by a refused name, and a name with its hidden flag is refused whole.
    const mixed = await patch(server, id, { hidden: true, name: 'x'.repeat(121) });
    expect(mixed.status).toBe(400);
    const entry = LibraryEntrySchema.parse(
      await (await server.request(`/api/library/${id}`)).json(),
    );
    expect(entry).toMatchObject({ name: 'Kept' });
    expect(entry.hidden).toBeUndefined();

    // An unknown field is blamed on its own, and the message lists what can be changed.
    const unknown = await patch(server, id, { title: 'Nope' });
    expect(unknown.status).toBe(400);
    const error = errorOf(await unknown.json());
    expect(error).toMatchObject({ param: 'title' });
    expect(String(error.message)).toContain('hidden, favourite and name');
  });

  it('another key cannot name the task: 404, and the name stays', async () => {
    server = await startTestServer({
      mock: {
        keys: [
          { key: KEY, balance: 1000 },
          { key: 'tr_other_key', balance: 1000 },
        ],
      },
    });
    const id = await finished(server, 'a small red vase');
    const theirs = await patch(server, id, { name: 'Mine now' }, 'tr_other_key');
    expect(theirs.status).toBe(404);
    const entry = LibraryEntrySchema.parse(
      await (await server.request(`/api/library/${id}`)).json(),
    );
    expect(entry.name).toBeNull();
  });

  it('names the zip’s entry and the share page by the name, the prompt beside it', async () => {
    server = await startTestServer({ staticDir: staticDir() });
    const id = await finished(server, 'a small red vase');
    await patch(server, id, { name: 'Blue "teapot" <b>' });

    const zip = await server.request(`/api/library/download.zip?ids=${id}`);
    expect(zip.status).toBe(200);
    const names = Object.keys(unzipSync(new Uint8Array(await zip.arrayBuffer())));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^kiln-beta-text-blue-teapot-b-\d{4}-\d{2}-\d{2}-[a-z0-9]+\.glb$/);

    const link = ShareSchema.parse(
      await (await server.request(`/api/library/${id}/share`, { method: 'POST' })).json(),
    );
    expect(link.embed_html).toContain(
      'title="Blue &quot;teapot&quot; &lt;b&gt; — 3D model on Kiln"',
    );
    const facts = PublicShareSchema.parse(
      await (await server.request(`/api/shares/${link.token}`, { key: null })).json(),
    );
    expect(facts).toMatchObject({
      title: 'Blue "teapot" <b>',
      name: 'Blue "teapot" <b>',
      prompt: 'a small red vase',
      input: 'prompt',
    });
    const html = await (await server.request(`/s/${link.token}`, { key: null })).text();
    expect(html).toContain('<title>Blue &quot;teapot&quot; &lt;b&gt; · Kiln</title>');
    expect(html).toContain(
      '<meta property="og:title" content="Blue &quot;teapot&quot; &lt;b&gt;" />',
    );

    // Renamed: the page says the new name at once; cleared: the prompt again.
    await patch(server, id, { name: 'Teapot' });
    const renamed = await (await server.request(`/s/${link.token}`, { key: null })).text();
    expect(renamed).toContain('<title>Teapot · Kiln</title>');
    await patch(server, id, { name: null });
    const cleared = PublicShareSchema.parse(
      await (await server.request(`/api/shares/${link.token}`, { key: null })).json(),
    );
    expect(cleared).toMatchObject({ title: '“a small red vase”', name: null });
  });
});
