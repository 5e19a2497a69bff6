import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  LibraryEntrySchema,
  LibraryPageSchema,
  PublicShareSchema,
  ShareSchema,
} from '../../contract/index.ts';
import { builtSpa } from '../../testing/built-spa.ts';
import { solid } from '../../testing/images.ts';
import { photoDataUri } from '../../testing/mock.ts';
import { KEY, ORIGIN, finishedTask, serverPerTest, type TestServer } from '../../testing/server.ts';
import { ownerHasher } from '../owner-id.ts';
import { FRAMEABLE_CSP } from '../security.ts';
import { newShareToken } from './service.ts';

const startServer = serverPerTest();

const OTHER = 'tr_other_key';
/** The owner id the test server files KEY's tasks under (its secret is 32 bytes of 7). */
const OWNER = ownerHasher(Buffer.alloc(32, 7))(KEY);

/** A built SPA, as far as the share page reads it: index.html and Vite's manifest. */
const staticDir = () => builtSpa('src/web/features/share/share-page.tsx', 'assets/share-page-S.js');

const share = (s: TestServer, id: string, method: string, key: string | null = KEY) =>
  s.request(`/api/library/${id}/share`, { method, key });

/** Every public address of a link. */
const publicPaths = (token: string) => [
  `/api/shares/${token}`,
  `/api/shares/${token}/model.glb`,
  `/api/shares/${token}/thumbnail.webp`,
  `/api/shares/${token}/preview.jpg`,
  `/api/shares/${token}/model.usdz`,
  `/s/${token}`,
  `/s/${token}/embed`,
];

describe('share links', () => {
  it('makes one link per task, answers it again, shows it in the library, and revokes it', async () => {
    const server = await startServer({ staticDir: staticDir() });
    const id = await finishedTask(server, { model: 'beta-text', prompt: 'a small red vase' });

    const made = await share(server, id, 'POST');
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const link = ShareSchema.parse(await made.json());
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(link.url).toBe(`${ORIGIN}/s/${link.token}`);
    expect(link.embed_url).toBe(`${ORIGIN}/s/${link.token}/embed`);
    expect(link.embed_html).toBe(
      `<iframe src="${link.embed_url}" title="“a small red vase” — 3D model on Kiln" width="640" height="480" style="border:0;max-width:100%" loading="lazy"></iframe>`,
    );

    // Re-sharing answers the link there is; reading it too.
    const again = await share(server, id, 'POST');
    expect(again.status).toBe(200);
    expect(ShareSchema.parse(await again.json())).toEqual(link);
    expect(ShareSchema.parse(await (await share(server, id, 'GET')).json())).toEqual(link);

    // The library says so, one entry and the list alike.
    const entry = LibraryEntrySchema.parse(
      await (await server.request(`/api/library/${id}`)).json(),
    );
    expect(entry.share).toEqual({ url: link.url, created_ms: link.created_ms });
    const page = LibraryPageSchema.parse(await (await server.request('/api/library')).json());
    expect(page.data.find((e) => e.id === id)?.share?.url).toBe(link.url);

    // Anyone with the link, without a key: the facts, the model, the page.
    const facts = await server.request(`/api/shares/${link.token}`, { key: null });
    expect(facts.status).toBe(200);
    expect(facts.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(facts.headers.get('cache-control')).toBe('no-store');
    expect(PublicShareSchema.parse(await facts.json())).toEqual({
      object: 'shared_model',
      title: '“a small red vase”',
      name: null,
      model: 'beta-text',
      input: 'prompt',
      prompt: 'a small red vase',
      created: entry.created,
      model_url: `/api/shares/${link.token}/model.glb`,
      thumbnail_url: null,
      usdz_url: null,
      url: link.url,
    });
    const glb = await server.request(`/api/shares/${link.token}/model.glb`, { key: null });
    expect(glb.status).toBe(200);
    expect(glb.headers.get('content-type')).toBe('model/gltf-binary');
    const bytes = new Uint8Array(await glb.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe('glTF');
    const archived = new Uint8Array(
      await (await server.request(entry.model_url!, { key: null })).arrayBuffer(),
    );
    expect(bytes).toEqual(archived);
    expect((await server.request(`/s/${link.token}`, { key: null })).status).toBe(200);

    // Revoked: every public address answers 404 at once; the library says it is not shared.
    const revoked = await share(server, id, 'DELETE');
    expect(revoked.status).toBe(204);
    for (const path of publicPaths(link.token)) {
      const res = await server.request(path, { key: null });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('x-robots-tag'), path).toBe('noindex, nofollow');
    }
    const gone = await server.request(`/api/shares/${link.token}`, { key: null });
    expect(await gone.json()).toMatchObject({ error: { code: 'share_not_found' } });
    const goneShell = await (await server.request(`/s/${link.token}`, { key: null })).text();
    expect(goneShell).toContain('<title>Link not found · Kiln</title>');
    // No first frame to draw: the app (which says the link is gone) is named at once.
    expect(goneShell).toContain('/assets/boot-B.js');
    expect((await share(server, id, 'GET')).status).toBe(404);
    expect((await share(server, id, 'DELETE')).status).toBe(404);
    expect(
      LibraryEntrySchema.parse(await (await server.request(`/api/library/${id}`)).json()).share,
    ).toBeNull();

    // Shared again: a new link; the old one stays dead.
    const fresh = ShareSchema.parse(await (await share(server, id, 'POST')).json());
    expect(fresh.token).not.toBe(link.token);
    expect((await server.request(`/api/shares/${fresh.token}`, { key: null })).status).toBe(200);
    expect((await server.request(`/api/shares/${link.token}`, { key: null })).status).toBe(404);
  });

  it("lets no other key share, read or revoke a task's link, and says nothing of it to them", async () => {
    const server = await startServer();
    const id = await finishedTask(server, { model: 'alpha', image_url: photoDataUri('chair.png') });
    for (const method of ['POST', 'GET', 'DELETE']) {
      const res = await share(server, id, method, OTHER);
      expect(res.status, method).toBe(404);
      expect(await res.json(), method).toMatchObject({
        error: { code: 'task_not_found', param: 'id' },
      });
      const anonymous = await share(server, id, method, null);
      expect(anonymous.status, method).toBe(401);
    }
    const link = ShareSchema.parse(await (await share(server, id, 'POST')).json());
    // Still another key: not its task, not its link (the same 404 as before it was shared).
    for (const method of ['GET', 'DELETE', 'POST']) {
      const res = await share(server, id, method, OTHER);
      expect(res.status, method).toBe(404);
      expect(await res.json(), method).toMatchObject({ error: { code: 'task_not_found' } });
    }
    expect((await server.request(`/api/library/${id}`, { key: OTHER })).status).toBe(404);
    const theirs = LibraryPageSchema.parse(
      await (await server.request('/api/library', { key: OTHER })).json(),
    );
    expect(theirs.data).toEqual([]);
    // The owner's link lives on.
    expect((await server.request(`/api/shares/${link.token}`, { key: OTHER })).status).toBe(200);
    expect(ShareSchema.parse(await (await share(server, id, 'GET')).json())).toEqual(link);
  });

  it('shares only a finished model Kiln has kept, and says why not', async () => {
    // An upstream whose model URLs cannot be fetched: completed, but not archived.
    const server = await startServer({
      fetchGlb: async () => {
        throw new Error('unreachable');
      },
    });
    expect((await share(server, 'task_nope', 'POST')).status).toBe(404);
    const unarchived = await finishedTask(server, { model: 'beta-text', prompt: 'a chair' });
    const early = await share(server, unarchived, 'POST');
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({
      error: { code: 'task_not_archived', param: 'id', message: expect.stringMatching(/saving/) },
    });
    const failed = await finishedTask(server, { model: 'beta-text', prompt: 'mock:fail now' });
    const refused = await share(server, failed, 'POST');
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      error: { code: 'task_not_archived', message: 'A failed task has no model to share.' },
    });
    expect((await share(server, failed, 'GET')).status).toBe(404);
  });

  it('serves the GLB ranged and conditionally, revalidated on every use, and the picture', async () => {
    const server = await startServer();
    const id = await finishedTask(server, { model: 'alpha', image_url: photoDataUri('chair.png') });
    const link = ShareSchema.parse(await (await share(server, id, 'POST')).json());
    const path = `/api/shares/${link.token}/model.glb`;
    const whole = await server.request(path, { key: null });
    const size = Number(whole.headers.get('content-length'));
    expect(size).toBeGreaterThan(12);
    expect(whole.headers.get('cache-control')).toBe('private, no-cache');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const etag = whole.headers.get('etag')!;

    const head = await server.request(path, { key: null, headers: { range: 'bytes=0-11' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe(`bytes 0-11/${size}`);
    expect(new TextDecoder().decode(new Uint8Array(await head.arrayBuffer()).slice(0, 4))).toBe(
      'glTF',
    );
    const cached = await server.request(path, { key: null, headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(cached.headers.get('cache-control')).toBe('private, no-cache');

    // No picture yet: 404, and the facts say null. Once drawn, it is served too.
    expect((await server.request(`/api/shares/${link.token}/thumbnail.webp`)).status).toBe(404);
    await server.request(`/api/library/${id}/thumbnail`, {
      method: 'PUT',
      body: (await solid(64, 48, 'png')) as Uint8Array<ArrayBuffer>,
      headers: { 'content-type': 'image/png' },
    });
    const facts = PublicShareSchema.parse(
      await (await server.request(`/api/shares/${link.token}`, { key: null })).json(),
    );
    expect(facts).toMatchObject({
      input: 'photo',
      prompt: null,
      title: expect.stringMatching(
        /^A 3D model from a photo, made with \w[\w-]* on \d{1,2} \w{3} \d{4}$/,
      ),
      thumbnail_url: `/api/shares/${link.token}/thumbnail.webp`,
    });
    const picture = await server.request(facts.thumbnail_url!, { key: null });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/webp');

    // Revoked: a client holding the ETag gets 404, not 304.
    await share(server, id, 'DELETE');
    const after = await server.request(path, { key: null, headers: { 'if-none-match': etag } });
    expect(after.status).toBe(404);
  });

  it('puts no owner, key or task id in any public answer', async () => {
    const server = await startServer({ staticDir: staticDir() });
    const id = await finishedTask(server, { model: 'alpha', image_url: photoDataUri('chair.png') });
    await server.request(`/api/library/${id}/thumbnail`, {
      method: 'PUT',
      body: (await solid(64, 48, 'png')) as Uint8Array<ArrayBuffer>,
      headers: { 'content-type': 'image/png' },
    });
    const link = ShareSchema.parse(await (await share(server, id, 'POST')).json());
    const usdz = zipSync({ 'model.usda': strToU8('#usda 1.0\n') }, { level: 0 });
    const sent = await server.request(`/api/library/${id}/share/model.usdz`, {
      method: 'PUT',
      body: usdz as Uint8Array<ArrayBuffer>,
    });
    expect(sent.status).toBe(200);
    const secrets = [KEY, OWNER, OWNER.slice(0, 8), id, 'chair.png', '/api/uploads/'];
    for (const path of publicPaths(link.token)) {
      for (const key of [null, OTHER]) {
        const res = await server.request(path, { key });
        expect(res.status, path).toBe(200);
        const text = /\.(glb|webp|jpg|usdz)$/.test(path) ? '' : await res.text();
        const headers = JSON.stringify([...res.headers]);
        for (const secret of secrets) {
          expect(text, `${path} body`).not.toContain(secret);
          expect(headers, `${path} headers`).not.toContain(secret);
        }
      }
    }
  });

  it('answers 404 at once for tokens that are not links, whatever their shape', async () => {
    const server = await startServer({ staticDir: staticDir() });
    for (const token of [
      newShareToken(),
      'short',
      'A'.repeat(25),
      '..%2F..%2Fetc',
      '%27%20or%201%3D1--aaaaaaaaaaaaa',
    ]) {
      for (const path of publicPaths(token)) {
        const res = await server.request(path, { key: null });
        expect(res.status, path).toBe(404);
      }
      const facts = await server.request(`/api/shares/${token}`, { key: null });
      expect(await facts.json()).toMatchObject({
        error: { code: 'share_not_found', type: 'not_found' },
      });
    }
  });

  it('makes tokens of 144 random bits, all different', () => {
    const tokens = new Set(Array.from({ length: 2000 }, newShareToken));
    expect(tokens.size).toBe(2000);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // Every base64url character turns up: not a narrow alphabet.
    expect(new Set([...tokens].join('')).size).toBe(64);
  });

  it('makes links on PUBLIC_URL when it is set', async () => {
    const server = await startServer({ publicUrl: 'https://kiln.example/' });
    const id = await finishedTask(server, { model: 'beta-text', prompt: 'a lamp' });
    const link = ShareSchema.parse(await (await share(server, id, 'POST')).json());
    expect(link.url).toBe(`https://kiln.example/s/${link.token}`);
    expect(link.embed_html).toContain(`src="https://kiln.example/s/${link.token}/embed"`);
  });
});

describe('the share page shell', () => {
  it('has Open Graph and Twitter tags with the absolute picture, noindex, and preloads', async () => {
    const server = await startServer({ staticDir: staticDir() });
    const id = await finishedTask(server, {
      model: 'beta-text',
      prompt: 'a red "vase" <script>alert(1)</script> & co',
    });
    const link = ShareSchema.parse(await (await share(server, id, 'POST')).json());
    expect(link.embed_html).toContain(
      'title="“a red &quot;vase&quot; &lt;script&gt;alert(1)&lt;/script&gt; &amp; co” — 3D model on Kiln"',
    );

    let res = await server.request(`/s/${link.token}`, { key: null });
    let html = await res.text();
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const escaped = '“a red &quot;vase&quot; &lt;script&gt;alert(1)&lt;/script&gt; &amp; co”';
    expect(html).toContain(`<title>${escaped} · Kiln</title>`);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow" />');
    expect(html).toContain(`<meta property="og:title" content="${escaped}" />`);
    expect(html).toContain('<meta property="og:type" content="website" />');
    expect(html).toContain(`<meta property="og:url" content="${link.url}" />`);
    expect(html).toMatch(/<meta property="og:description" content="A 3D model made with Kiln/);
    expect(html).toMatch(/<meta name="description" content="A 3D model made with Kiln/);
    expect(html).not.toContain('Kiln: a browser studio'); // the app's description, replaced
    // No picture of the model drawn yet: the preview is its name on Kiln's stage, still large.
    const image = `${ORIGIN}/api/shares/${link.token}/preview.jpg`;
    expect(html).toContain(`<meta property="og:image" content="${image}" />`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html).toContain(
      `<meta property="og:image:alt" content="The name of the 3D model “${escaped}”, on Kiln’s stage" />`,
    );
    // What the first frame is drawn with, named; the app's code (index.html's app preloads, the
    // page, the viewer) left to be asked for once it is drawn (decision 0132).
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/first-frame-F.js" />',
    );
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/three-T.js" />');
    expect(html).not.toContain('/assets/boot-B.js');
    expect(html).not.toContain('/assets/share-page-S.js');
    expect(html).not.toContain('/assets/model-viewer-M.js');
    expect(html).toContain('<div id="root"></div>');
    // The first paint: the link's facts inline (no text in them ends the script early), and the
    // GLB asked for with the page; no picture kept yet, so no poster.
    const inline = /<script type="application\/json" id="kiln-share">(.*?)<\/script>/s.exec(html);
    expect(inline?.[1]).not.toContain('<');
    const facts = await server.request(`/api/shares/${link.token}`, { key: null });
    expect(JSON.parse(inline![1]!)).toEqual(await facts.json());
    expect(html).toContain(
      `<link rel="preload" as="fetch" crossorigin href="/api/shares/${link.token}/model.glb" />`,
    );
    expect(html).not.toContain('rel="preload" as="image"');
    // The page itself drawn before the SPA's root, with its stylesheet: the title, the facts, and
    // the stage's frame with no picture yet.
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/share-page-S.css" />');
    const first = /<div id="kiln-first-paint">(.*?)<\/div>\s*<div id="root"><\/div>/s.exec(html);
    expect(first?.[1]).toContain(`<h1 class="share-page__title">${escaped}</h1>`);
    expect(first?.[1]).toMatch(
      /<p class="muted share-page__facts">From a text prompt · beta-text · /,
    );
    expect(first?.[1]).toContain('<div class="share-page__poster-frame"></div>');

    await server.request(`/api/library/${id}/thumbnail`, {
      method: 'PUT',
      body: (await solid(64, 48, 'png')) as Uint8Array<ArrayBuffer>,
      headers: { 'content-type': 'image/png' },
    });
    res = await server.request(`/s/${link.token}`, { key: null });
    html = await res.text();
    expect(html).toContain(`<meta property="og:image" content="${image}" />`);
    // The picture asked for first, with the stylesheets, before the page's scripts.
    const poster = `<link rel="preload" as="image" fetchpriority="high" href="/api/shares/${link.token}/thumbnail.webp" />`;
    expect(html.indexOf(poster)).toBeGreaterThan(0);
    expect(html.indexOf(poster)).toBeLessThan(html.indexOf('<script'));
    expect(html.indexOf('/assets/share-page-S.css')).toBeLessThan(html.indexOf('<script'));
    expect(html).toContain('<meta property="og:image:type" content="image/jpeg" />');
    expect(html).toContain('<meta property="og:image:width" content="1200" />');
    expect(html).toContain('<meta property="og:image:height" content="630" />');
    expect(html).toContain(
      `<meta property="og:image:alt" content="The 3D model “${escaped}” on Kiln’s stage, with its name" />`,
    );
    expect(html).toContain(`<meta name="twitter:image" content="${image}" />`);
    expect(html).toContain(
      `<div class="share-page__poster-frame"><img class="share-page__poster" src="/api/shares/${link.token}/thumbnail.webp" alt="" fetchpriority="high" /></div>`,
    );
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    // The picture the tags name is there for a preview fetcher (no key).
    const picture = await server.request(new URL(image).pathname, { key: null });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/jpeg');
  });

  it('lets any site frame the embed, and no other page', async () => {
    const server = await startServer({ staticDir: staticDir() });
    const id = await finishedTask(server, { model: 'beta-text', prompt: 'a mug' });
    const link = ShareSchema.parse(await (await share(server, id, 'POST')).json());

    const embed = await server.request(`/s/${link.token}/embed`, { key: null });
    expect(embed.status).toBe(200);
    expect(embed.headers.get('content-security-policy')).toBe(FRAMEABLE_CSP);
    expect(FRAMEABLE_CSP).toContain('frame-ancestors *');
    expect(FRAMEABLE_CSP).not.toContain("frame-ancestors 'none'");
    expect(FRAMEABLE_CSP).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(embed.headers.get('x-frame-options')).toBeNull();
    expect(embed.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const page = await embed.text();
    expect(page).toContain('og:title');
    // Its first paint is the embed's: the stage filling the frame and the credit, no top bar.
    expect(page).toContain('<main class="share-embed"><h1 class="visually-hidden">“a mug”</h1>');
    expect(page).toContain('share-page__poster-frame--embed');
    expect(page).toContain(`<a class="share-embed__credit" href="${link.url}"`);
    expect(page).not.toContain('public-page__head');

    for (const path of [`/s/${link.token}`, '/', '/viewer', `/api/shares/${link.token}`]) {
      const res = await server.request(path, { key: null });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });
});
