// The one client against a real Kiln (the server and its built-in mock, SQLite in a temp folder)
// over HTTP on a loopback port: every resource it names, its refusals and its bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPhoto } from '../../testing/fixtures.ts';
import { startHttpKiln, type HttpKiln } from '../../testing/http-kiln.ts';
import { KEY } from '../../testing/server.ts';
import { AuthenticationError, InvalidRequestError, NotFoundError } from '../errors.ts';
import { createKilnApi, kilnBaseUrl, type KilnApi } from './index.ts';

let kiln: HttpKiln;
let baseUrl: string;
let api: KilnApi;

beforeAll(async () => {
  kiln = await startHttpKiln();
  baseUrl = kiln.baseUrl;
  api = createKilnApi({ baseUrl, apiKey: KEY });
});
afterAll(() => kiln.close());

/** A completed alpha model made from the chair photo: its task id. */
async function chairModel(): Promise<string> {
  const photo = await api.upload(readPhoto('chair.png'), 'chair.png', 'image/png');
  const progress: number[] = [];
  const task = await api.generate(
    { model: 'alpha', image_url: photo.url },
    {
      idempotencyKey: `kiln-${crypto.randomUUID()}`,
      intervalMs: 20,
      onProgress: (t) => progress.push(t.progress ?? 0),
    },
  );
  expect(task.status, JSON.stringify(task.error) + photo.url).toBe('completed');
  expect(progress.length).toBeGreaterThan(0);
  return task.id;
}

describe('the Kiln client over HTTP', () => {
  it('makes a model, finds it in the library, names, stars, collects, shares and optimises it', async () => {
    const id = await chairModel();
    const page = await api.library.list({ kind: 'photo' }, { limit: 5 });
    expect(page.data.map((e) => e.id)).toContain(id);

    const named = await api.library.patch(id, { name: 'Garden chair', favourite: true });
    expect(named.name).toBe('Garden chair');
    expect(named.favourite).toBe(true);
    const found = await api.library.list({ q: 'garden', favourite: true });
    expect(found.data.map((e) => e.id)).toEqual([id]);

    const collection = await api.collections.create(`Chairs ${crypto.randomUUID().slice(0, 6)}`);
    const withChair = await api.collections.members(collection.id, { add: [id] });
    expect(withChair.count).toBe(1);
    const inIt = await api.library.list({ collection: collection.id });
    expect(inIt.data.map((e) => e.id)).toEqual([id]);
    expect((await api.collections.list()).map((c) => c.id)).toContain(collection.id);

    const share = await api.shares.of(id).create();
    const seen = await api.shares.public(share.token);
    expect(seen.title).toBe('Garden chair');
    await api.shares.of(id).revoke();
    await expect(api.shares.public(share.token)).rejects.toBeInstanceOf(NotFoundError);

    const { job_id } = await api.optimise.start(id, { preset: 'web' });
    let job = await api.optimise.job(job_id);
    for (let i = 0; i < 600 && job.status !== 'succeeded' && job.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = await api.optimise.job(job_id);
    }
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const file = await api.download(job.result!.url);
    expect(new TextDecoder().decode(file.bytes.slice(0, 4))).toBe('glTF');

    const credits = await api.credits();
    expect(credits.history.some((p) => p.task_id === id)).toBe(true);
  }, 120_000);

  it('refuses bad input with the field named, a wrong key and a bad address', async () => {
    const refusal = await api.collections.create('').catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(InvalidRequestError);
    expect((refusal as InvalidRequestError).param).toBe('name');

    const stranger = createKilnApi({ baseUrl, apiKey: 'not a key' });
    await expect(stranger.library.list()).rejects.toBeInstanceOf(AuthenticationError);

    await expect(api.library.get('task_nope')).rejects.toBeInstanceOf(NotFoundError);
    expect(() => kilnBaseUrl('ftp://example.test')).toThrow(/baseUrl/);
    expect(() => kilnBaseUrl('not an address')).toThrow(/baseUrl/);
    expect(kilnBaseUrl('http://127.0.0.1:5173/')).toBe('http://127.0.0.1:5173');
  });
});
