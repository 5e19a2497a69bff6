import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { LibraryEntrySchema, UploadResultSchema } from '../../contract/index.ts';
import { readPhoto } from '../../testing/fixtures.ts';
import { finishedTask, startTestServer, type TestServer } from '../../testing/server.ts';
import { parseZipIds, uniqueNames, zipStream, ZIP_MAX_IDS } from './download-zip.ts';
import type { BlobStore } from '../storage/blobs.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const OTHER = 'tr_other_key';

/**
 * A photo uploaded under `name`, as a data: URI of the stored bytes (the in-process mock cannot
 * fetch the test server's address; the library finds the upload, and its name, by the hash).
 */
async function upload(s: TestServer, photo: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([readPhoto(photo) as Uint8Array<ArrayBuffer>]), name);
  const res = await s.request('/api/uploads', { method: 'POST', body: form });
  const { sha256 } = UploadResultSchema.parse(await res.json());
  const stored = await s.request(`/api/uploads/${sha256}.png`, { key: null });
  return `data:image/png;base64,${Buffer.from(await stored.arrayBuffer()).toString('base64')}`;
}

async function archivedBytes(s: TestServer, id: string, key?: string): Promise<Uint8Array> {
  const entry = LibraryEntrySchema.parse(
    await (await s.request(`/api/library/${id}`, key ? { key } : {})).json(),
  );
  expect(entry.archived).toBe(true);
  return new Uint8Array(await (await s.request(entry.model_url!, { key: null })).arrayBuffer());
}

const zipOf = async (res: Response) => unzipSync(new Uint8Array(await res.arrayBuffer()));

describe('GET /api/library/download.zip', () => {
  it('streams the archived GLBs under their download names, readable by unzip too', async () => {
    server = await startTestServer({ mock: { keys: [{ key: 'tr_test_key', balance: 1000 }] } });
    const chair = await finishedTask(server, {
      model: 'alpha',
      image_url: await upload(server, 'chair.png', 'Grandma’s chair.png'),
    });
    const vase = await finishedTask(server, { model: 'beta-text', prompt: 'a small red vase' });

    const res = await server.request(`/api/library/download.zip?ids=${chair},${vase}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="kiln-2-models-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(res.headers.get('content-length')).toBeNull(); // streamed, not gathered first
    const bytes = new Uint8Array(await res.arrayBuffer());
    const files = unzipSync(bytes);
    const names = Object.keys(files);
    expect(names).toHaveLength(2); // nothing left out: no README
    const chairName = names.find((n) => n.includes('grandma-s-chair'));
    const vaseName = names.find((n) => n.includes('a-small-red-vase'));
    expect(chairName).toMatch(/^kiln-alpha-grandma-s-chair-\d{4}-\d{2}-\d{2}-[a-z0-9]{1,6}\.glb$/);
    expect(vaseName).toMatch(/^kiln-beta-text-a-small-red-vase-\d{4}-\d{2}-\d{2}-[a-z0-9]+\.glb$/);
    expect(files[chairName!]).toEqual(await archivedBytes(server, chair));
    expect(files[vaseName!]).toEqual(await archivedBytes(server, vase));
    expect(strFromU8(files[vaseName!]!.slice(0, 4), true)).toBe('glTF');

    // Another unzipper agrees (the data descriptors of a streamed zip are read right).
    const dir = mkdtempSync(join(tmpdir(), 'kiln-zip-'));
    try {
      writeFileSync(join(dir, 'models.zip'), bytes);
      const tested = execFileSync('unzip', ['-t', join(dir, 'models.zip')], { encoding: 'utf8' });
      expect(tested).toContain('No errors detected');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // no unzip here
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves out what is not the caller’s or not archived, and says so in a README.txt', async () => {
    server = await startTestServer({
      mock: {
        keys: [
          { key: 'tr_test_key', balance: 1000 },
          { key: OTHER, balance: 1000 },
        ],
      },
    });
    const mine = await finishedTask(server, { model: 'beta-text', prompt: 'a blue mug' });
    const failed = await finishedTask(server, { model: 'beta-text', prompt: 'mock:fail a lamp' });
    const theirs = await finishedTask(
      server,
      { model: 'beta-text', prompt: 'a secret chair' },
      OTHER,
    );

    const res = await server.request(
      `/api/library/download.zip?ids=${mine},${theirs},${failed},task_unknown`,
    );
    expect(res.status).toBe(200);
    const files = await zipOf(res);
    const names = Object.keys(files).sort();
    expect(names).toEqual(['README.txt', expect.stringMatching(/^kiln-beta-text-a-blue-mug-/)]);
    const readme = strFromU8(files['README.txt']!);
    expect(readme).toContain('1 model in this zip');
    expect(readme).toContain(`${theirs}: not in your library`);
    expect(readme).toContain(`task_unknown: not in your library`);
    expect(readme).toContain(`${failed}: the task failed`);
    expect(readme).not.toContain('secret');

    // The other key gets its own model, and none of this key's.
    const other = await server.request(`/api/library/download.zip?ids=${theirs},${mine}`, {
      key: OTHER,
    });
    const theirFiles = await zipOf(other);
    expect(Object.keys(theirFiles).filter((n) => n.endsWith('.glb'))).toEqual([
      expect.stringMatching(/^kiln-beta-text-a-secret-chair-/),
    ]);
    expect(strFromU8(theirFiles['README.txt']!)).toContain(`${mine}: not in your library`);

    // Only another's ids: nothing to give, and nothing said about them.
    const none = await server.request(`/api/library/download.zip?ids=${theirs}`);
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({
      error: { code: 'task_not_found', type: 'not_found', param: 'ids' },
    });
  });

  it('refuses bad ids with a 400 naming ids, and asks for a key', async () => {
    server = await startTestServer();
    for (const query of ['', '?ids=', '?ids=,,', '?ids=a%20b', '?ids=../etc', '?ids=%E2%9C%A8']) {
      const res = await server.request(`/api/library/download.zip${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.json(), query).toMatchObject({
        error: { type: 'invalid_request_error', param: 'ids' },
      });
    }
    const many = Array.from({ length: ZIP_MAX_IDS + 1 }, (_, i) => `task_${i}`).join(',');
    const tooMany = await server.request(`/api/library/download.zip?ids=${many}`);
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({
      error: {
        code: 'invalid_value',
        param: 'ids',
        message: expect.stringContaining('at most 100'),
      },
    });
    const noKey = await server.request('/api/library/download.zip?ids=task_1', { key: null });
    expect(noKey.status).toBe(401);
  });
});

describe('parseZipIds', () => {
  it('trims, drops empty parts and repeats, keeps the order', () => {
    expect(parseZipIds(' b , a,,b ')).toEqual(['b', 'a']);
  });
  it('counts distinct ids against the limit', () => {
    expect(parseZipIds(Array(150).fill('task_1').join(','))).toEqual(['task_1']);
  });
});

describe('uniqueNames', () => {
  it('numbers a repeated name before its extension, case-insensitively', () => {
    expect(uniqueNames(['a.glb', 'A.glb', 'a.glb', 'b.glb', 'a-2.glb'])).toEqual([
      'a.glb',
      'A-2.glb',
      'a-3.glb',
      'b.glb',
      'a-2-2.glb',
    ]);
  });
});

describe('zipStream', () => {
  const blob = (chunks: Uint8Array[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(chunk);
        c.close();
      },
    });

  it('opens one blob at a time, as the reader asks, and names a missing one in README.txt', async () => {
    const opened: string[] = [];
    const sha = (c: string) => c.repeat(64);
    const data: Record<string, Uint8Array[]> = {
      [sha('a')]: [new Uint8Array([1, 2]), new Uint8Array([3])],
      [sha('b')]: [new Uint8Array([4, 5, 6])],
    };
    const blobs = {
      open: async (_kind: string, sha256: string) => {
        opened.push(sha256[0]!);
        const chunks = data[sha256];
        return chunks ? { stream: blob(chunks), bytes: 3 } : undefined;
      },
    } as unknown as BlobStore;
    const stream = zipStream(
      blobs,
      [
        { id: 'task_a', name: 'a.glb', sha256: sha('a'), mtime: Date.UTC(2026, 0, 2) },
        { id: 'task_gone', name: 'gone.glb', sha256: sha('c'), mtime: Date.UTC(2026, 0, 2) },
        { id: 'task_b', name: 'b.glb', sha256: sha('b'), mtime: Date.UTC(2026, 0, 2) },
      ],
      [{ id: 'task_x', reason: 'not in your library' }],
    );
    const reader = stream.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(opened).toEqual(['a']); // the first bytes out before the next blob is touched
    const parts: Uint8Array[] = [first.value!];
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
    expect(opened).toEqual(['a', 'c', 'b']);
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    const files = unzipSync(all);
    expect(files['a.glb']).toEqual(new Uint8Array([1, 2, 3]));
    expect(files['b.glb']).toEqual(new Uint8Array([4, 5, 6]));
    expect(files['gone.glb']).toBeUndefined();
    const readme = strFromU8(files['README.txt']!);
    expect(readme).toContain('2 models in this zip');
    expect(readme).toContain('task_x: not in your library.');
    expect(readme).toContain('task_gone: its model is missing');
  });
});
