// Kiln's MCP server over stdio, driven by the MCP SDK's own Client as a host would: `npm run
// mcp` started with its environment pointing at a real Kiln (server, mock with the real demo
// generator, SQLite) on a loopback port. Every tool is called; bad input gets a tool error naming
// the field; nothing answered carries a key; a bad environment exits 2 with one line.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoPath } from '../testing/fixtures.ts';
import { startHttpKiln, type HttpKiln } from '../testing/http-kiln.ts';
import { KEY } from '../testing/server.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TRIPO_KEY = 'tsk_never_answered_back';

let kiln: HttpKiln;
let client: Client;
/** Every text any tool or resource answered, for the check that none carries a key. */
const answered: string[] = [];
/** The model the tests make, its collection, and generate's answer. */
let id: string;
let shelfId: string;
let generated: ReturnType<typeof JSON.parse>;

beforeAll(async () => {
  kiln = await startHttpKiln();
  client = new Client({ name: 'kiln-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: 'npm',
      args: ['run', '--silent', 'mcp'],
      cwd: ROOT,
      // A vendor's key is given too, to show it never comes back either.
      env: { KILN_URL: kiln.baseUrl, KILN_KEY: KEY, KILN_TRIPO_KEY: TRIPO_KEY },
      stderr: 'pipe',
    }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  await kiln?.close();
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
  })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  answered.push(text, JSON.stringify(result.structuredContent ?? null));
  return { result, text, json: result.isError ? undefined : JSON.parse(text) };
}

/** A tool error whose text starts with the field it names. */
async function refused(name: string, args: Record<string, unknown>, field: string) {
  const { result, text } = await call(name, args);
  expect(result.isError, text).toBe(true);
  // The tool's own checks start with the field; the input schema's (the SDK's) name it in their
  // sentence ("… at image_paths", 'Unrecognized key: "extra"').
  const named =
    text.startsWith(field) || (/Input validation error/.test(text) && text.includes(field));
  expect(named, text).toBe(true);
  return text;
}

describe('Kiln’s MCP server over stdio', () => {
  it('lists its tools, each with an input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'add_to_collection',
        'create_collection',
        'credits',
        'export_model',
        'favourite_model',
        'generate',
        'get_model',
        'hide_model',
        'list_collections',
        'remove_from_collection',
        'rename_model',
        'revoke_share',
        'search_library',
        'share_model',
        'task_status',
        'wait_for_task',
      ].sort(),
    );
    const generate = tools.find((t) => t.name === 'generate')!;
    expect(Object.keys(generate.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['model', 'image_path', 'image_paths', 'image_url', 'prompt']),
    );
  });

  it('makes a model from a local photo, named and in a collection, telling its progress', async () => {
    const shelf = await call('create_collection', { name: 'Shelf' });
    expect(shelf.json.collection).toMatchObject({ name: 'Shelf', count: 0 });
    shelfId = shelf.json.collection.id;
    const progress: number[] = [];
    const made = (await client.callTool(
      {
        name: 'generate',
        arguments: {
          model: 'alpha',
          image_path: photoPath('chair.png'),
          name: 'Garden chair',
          collection: 'shelf',
        },
      },
      undefined,
      { timeout: 120_000, onprogress: (p) => progress.push(p.progress) },
    )) as CallToolResult;
    const text = made.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    answered.push(text);
    expect(made.isError, text).toBeFalsy();
    generated = JSON.parse(text);
    expect(generated).toMatchObject({
      done: true,
      task: { status: 'completed' },
      model: { name: 'Garden chair', kind: 'photo', photos: ['chair.png'], archived: true },
      facts: { materials: expect.any(Number), validator: { errors: 0 } },
    });
    id = generated.model.id;
    expect(generated.model.collections).toEqual([shelfId]);
    expect(generated.facts.triangles).toBeGreaterThan(100);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // An absolute, signed address of Kiln's copy, which opens without a key.
    expect(generated.download_url).toMatch(
      new RegExp(`^${kiln.baseUrl}/api/assets/[a-f0-9]{64}\\.glb\\?`),
    );
    expect((await fetch(generated.download_url)).status).toBe(200);
  }, 120_000);

  it('tells the task, waits for it, finds the model and reads its facts', async () => {
    const status = await call('task_status', { task_id: id });
    expect(status.json.task).toMatchObject({ task_id: id, status: 'completed', progress: 100 });
    const waited = await call('wait_for_task', { task_id: id, timeout_seconds: 5 });
    expect(waited.json).toMatchObject({ done: true, model: { id } });
    const found = await call('search_library', {
      text: 'garden',
      kind: 'photo',
      collection: 'Shelf',
    });
    expect(found.json.models.map((m: { id: string }) => m.id)).toEqual([id]);
    const got = await call('get_model', { id });
    expect(got.json).toMatchObject({
      id,
      title: 'Garden chair',
      collections: [{ id: shelfId, name: 'Shelf' }],
      facts: { triangles: generated.facts.triangles, size_m: expect.any(Array) },
    });
  });

  it('renames, stars, shares, hides, shows and stops sharing it', async () => {
    expect((await call('rename_model', { id, name: 'Blue chair' })).json.model.name).toBe(
      'Blue chair',
    );
    expect((await call('favourite_model', { id })).json.model.favourite).toBe(true);
    const favourites = await call('search_library', { favourite: true });
    expect(favourites.json.models.map((m: { id: string }) => m.id)).toEqual([id]);
    const shared = await call('share_model', { id });
    expect(shared.json.url).toMatch(new RegExp(`^${kiln.baseUrl}/s/`));
    const hidden = await call('hide_model', { id });
    expect(hidden.json.model.hidden).toBe(true);
    expect(hidden.json.note).toMatch(/revoke_share/);
    expect((await call('search_library', {})).json.models).toEqual([]);
    expect((await call('hide_model', { id, hidden: false })).json.model.hidden).toBe(false);
    expect((await call('revoke_share', { id })).json).toEqual({ id, shared: false });
    expect((await fetch(shared.json.url)).status).toBe(404);
  });

  it('moves it between collections, exports it for the web and tells the credits', async () => {
    const out = await call('remove_from_collection', { collection: 'Shelf', ids: [id] });
    expect(out.json.collection.count).toBe(0);
    const back = await call('add_to_collection', { collection: shelfId, ids: [id] });
    expect(back.json.collection.count).toBe(1);
    const listed = await call('list_collections');
    expect(listed.json.collections).toEqual([expect.objectContaining({ name: 'Shelf', count: 1 })]);

    const exported = await call('export_model', { id, target: 'web' });
    expect(exported.json).toMatchObject({ target: 'web', format: 'glb' });
    expect(exported.json.after.triangles).toBeLessThanOrEqual(exported.json.before.triangles);
    expect((await fetch(exported.json.download_url)).status).toBe(200);

    const credits = await call('credits', { history: 3 });
    expect(credits.json).toMatchObject({ balance: expect.any(Number), exact: true });
    expect(credits.json.history.length).toBeLessThanOrEqual(3);
    expect(credits.json.history.some((h: { task_id: string }) => h.task_id === id)).toBe(true);
  }, 60_000);

  it('offers each model (its entry, file and picture) and each collection as resources', async () => {
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'kiln://collections/{id}',
      'kiln://models/{id}',
      'kiln://models/{id}/model.glb',
      'kiln://models/{id}/picture.webp',
    ]);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining([
        `kiln://models/${id}`,
        `kiln://models/${id}/model.glb`,
        `kiln://collections/${shelfId}`,
      ]),
    );
    const entry = await client.readResource({ uri: `kiln://models/${id}` });
    const collection = await client.readResource({ uri: `kiln://collections/${shelfId}` });
    answered.push(JSON.stringify(entry), JSON.stringify(collection), JSON.stringify(resources));
    expect(JSON.parse((entry.contents[0] as { text: string }).text)).toMatchObject({
      id,
      name: 'Blue chair',
    });
    expect(JSON.parse((collection.contents[0] as { text: string }).text).models).toEqual([
      expect.objectContaining({ id }),
    ]);
    const file = await client.readResource({ uri: `kiln://models/${id}/model.glb` });
    const bytes = Buffer.from((file.contents[0] as { blob: string }).blob, 'base64');
    expect(bytes.subarray(0, 4).toString()).toBe('glTF');
  });

  it('refuses bad input with a tool error naming the field', async () => {
    const photo = photoPath('chair.png');
    await refused(
      'generate',
      { model: 'alpha' },
      'image_path, image_url, image_data, image_paths, image_urls or prompt',
    );
    await refused(
      'generate',
      { model: 'alpha', image_path: photo, prompt: 'a chair' },
      'image_path, prompt',
    );
    await refused('generate', { model: 'omega', image_path: photo }, 'model');
    await refused('generate', { image_path: photo }, 'model');
    await refused(
      'generate',
      { model: 'alpha-multiview', image_paths: Array(5).fill(photo) },
      'image_paths',
    );
    await refused('generate', { model: 'alpha', image_path: '/nowhere/chair.png' }, 'image_path');
    await refused('generate', { model: 'beta-text', image_path: photo }, 'image_path');
    await refused('generate', { model: 'alpha', prompt: 'a chair' }, 'prompt');
    await refused('generate', { model: 'meshy/meshy-6', image_path: photo }, 'model');
    await refused(
      'generate',
      { model: 'alpha', image_path: photo, collection: 'Nope' },
      'collection',
    );
    await refused(
      'generate',
      { model: 'alpha', image_data: 'data:image/png;base64,' },
      'image_data',
    );
    await refused('generate', { model: 'alpha', image_path: ROOT }, 'image_path');
    // Kiln's own refusal of a fetched address names the tool's field, not the route's (`url`).
    await refused(
      'generate',
      { model: 'alpha', image_url: `${kiln.baseUrl}/api/health` },
      'image_url',
    );
    await refused('get_model', { id: 'task_nope' }, 'id');
    await refused('task_status', { task_id: 'task_nope' }, 'task_id');
    await refused('rename_model', { id: 'task_nope', name: 'x\ny' }, 'name');
    await refused('export_model', { id: 'task_nope', target: 'web', height_mm: 50 }, 'height_mm');
    await refused('export_model', { id: 'task_nope', target: 'moon' }, 'target');
    await refused('create_collection', { name: '' }, 'name');
    await refused('add_to_collection', { collection: 'Nope', ids: ['task_nope'] }, 'collection');
    await refused('search_library', { limit: 500 }, 'limit');
    await refused('credits', { extra: 1 }, 'extra');
  }, 60_000);

  it('never answers with a key', () => {
    expect(answered.length).toBeGreaterThan(20);
    for (const text of answered) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(TRIPO_KEY);
      expect(text.toLowerCase()).not.toContain('bearer ');
    }
  });
});

describe('npm run mcp with a bad environment', () => {
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn('npm', ['run', '--silent', 'mcp'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code) => resolve({ code, stderr }));
    });

  it('exits 2 with one line naming the variable', async () => {
    const [noKey, badUrl, notAKey] = await Promise.all([
      run({ KILN_URL: 'http://127.0.0.1:9' }),
      run({ KILN_URL: 'ftp://kiln.test', KILN_KEY: KEY }),
      run({ KILN_KEY: 'sk-not-kiln' }),
    ]);
    expect(noKey).toEqual({
      code: 2,
      stderr: expect.stringMatching(/^kiln mcp: KILN_KEY is not set[^\n]*\n$/),
    });
    expect(badUrl).toEqual({
      code: 2,
      stderr: expect.stringMatching(/^kiln mcp: KILN_URL "ftp:\/\/kiln.test" [^\n]*\n$/),
    });
    expect(notAKey).toEqual({
      code: 2,
      stderr: expect.stringMatching(/^kiln mcp: KILN_KEY is not a Kiln API key[^\n]*\n$/),
    });
  }, 60_000);
});
