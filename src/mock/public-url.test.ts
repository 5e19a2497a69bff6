// The mock's PUBLIC_URL rule (issue 31, decision 0093): Kiln's own origin is fetched, exactly
// that origin (scheme, host, effective port), on every hop. With a bare `http://127.0.0.1`, no
// other port of the host is reached, by a task's image_url or by a redirect.
//
// Every connection here goes to a node:http server this file starts on a free loopback port.
// `http://127.0.0.1` (port 80) is played by one of them: the request layer points port 80 at it,
// and refuses any host but 127.0.0.1, so no packet leaves the machine.
import * as http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailedTaskSchema, PendingTaskSchema, TaskSchema } from '../contract/index.ts';
import type { RequestFunction } from '../net/index.ts';
import { readPhoto } from '../testing/fixtures.ts';
import { freePort } from '../testing/ports.ts';
import { spawnEntry } from '../testing/spawn-server.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchImage, ImageFetchError } from './fetch-image.ts';

const PNG = readPhoto('chair.png');
const refusal = (url: string) =>
  `The image at ${url} could not be fetched: the mock fetches images only from public http(s) addresses, data: URIs and Kiln's own uploads.`;

interface Site {
  port: number;
  hits: string[];
  server: http.Server;
}

/** A loopback image server on a free port: `/chair.png`, and `/to?u=…` redirecting to `u`. */
async function site(): Promise<Site> {
  const port = await freePort();
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(url.pathname);
    if (url.pathname === '/chair.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    } else if (url.pathname === '/to') {
      res.writeHead(302, { location: url.searchParams.get('u') ?? '/' });
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { port, hits, server };
}

let own: Site; // plays http://127.0.0.1 (port 80), and itself at its own port
let other: Site; // another port of the same host: never to be reached
beforeAll(async () => {
  [own, other] = await Promise.all([site(), site()]);
});
afterAll(async () => {
  for (const s of [own, other]) await new Promise<void>((r) => s.server.close(() => r()));
});

const connects: string[] = [];
/** 127.0.0.1 only; port 80 is the `own` site. Every connection is recorded as host:port. */
const portEightyIsOwn: RequestFunction = (opts) => {
  connects.push(`${String(opts.hostname)}:${String(opts.port)}`);
  if (opts.hostname !== '127.0.0.1') throw new Error('test guard: no connection outside loopback');
  return http.request({ ...opts, port: Number(opts.port) === 80 ? own.port : opts.port });
};

async function refused(url: string, ownOrigins: string[]): Promise<string> {
  const err = await fetchImage(url, {
    request: portEightyIsOwn,
    ownOrigins: () => ownOrigins,
  }).then(
    () => new Error(`fetched ${url}`),
    (e: unknown) => e,
  );
  expect(err, url).toBeInstanceOf(ImageFetchError);
  return (err as Error).message;
}

describe('fetchImage with a bare PUBLIC_URL (http://127.0.0.1)', () => {
  const bare = ['http://127.0.0.1'];

  it('fetches from that origin: port 80, with or without the port written', async () => {
    for (const url of ['http://127.0.0.1/chair.png', 'http://127.0.0.1:80/chair.png']) {
      const bytes = await fetchImage(url, { request: portEightyIsOwn, ownOrigins: () => bare });
      expect(Buffer.from(bytes).equals(Buffer.from(PNG)), url).toBe(true);
    }
  });

  it('refuses another port of the host before connecting', async () => {
    const before = { connects: connects.length, hits: other.hits.length };
    const url = `http://127.0.0.1:${other.port}/chair.png`;
    expect(await refused(url, bare)).toBe(refusal(url));
    expect(connects.length).toBe(before.connects);
    expect(other.hits.length).toBe(before.hits);
  });

  it('refuses another scheme on the host', async () => {
    const before = connects.length;
    expect(await refused('https://127.0.0.1/chair.png', bare)).toBe(
      refusal('https://127.0.0.1/chair.png'),
    );
    expect(connects.length).toBe(before);
  });

  it('refuses a redirect from the origin to another port, without following it', async () => {
    const before = { own: own.hits.length, other: other.hits.length };
    const url = `http://127.0.0.1/to?u=${encodeURIComponent(`http://127.0.0.1:${other.port}/chair.png`)}`;
    expect(await refused(url, bare)).toBe(refusal(url));
    expect(own.hits.slice(before.own)).toEqual(['/to']);
    expect(other.hits.length).toBe(before.other);
  });
});

describe('fetchImage with PUBLIC_URL on a port', () => {
  it('follows a redirect within the origin, and refuses one to another port', async () => {
    const origin = [`http://127.0.0.1:${own.port}`];
    const within = `http://127.0.0.1:${own.port}/to?u=/chair.png`;
    const bytes = await fetchImage(within, { request: portEightyIsOwn, ownOrigins: () => origin });
    expect(bytes.byteLength).toBe(PNG.byteLength);

    const before = other.hits.length;
    const away = `http://127.0.0.1:${own.port}/to?u=${encodeURIComponent(`http://127.0.0.1:${other.port}/chair.png`)}`;
    expect(await refused(away, origin)).toBe(refusal(away));
    expect(other.hits.length).toBe(before);
  });
});

describe('npm run mock with PUBLIC_URL=http://127.0.0.1', () => {
  it('fails a task whose image is on another port of that host, without fetching it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiln-mock-public-url-'));
    const mock = await spawnEntry('src/mock/main.ts', {
      DATA_DIR: dir,
      MOCK_KEYS: 'tr_public_url:100',
      MOCK_SPEED: 'instant',
      PUBLIC_URL: 'http://127.0.0.1',
    });
    try {
      const before = other.hits.length;
      const imageUrl = `http://127.0.0.1:${other.port}/chair.png`;
      const headers = { authorization: 'Bearer tr_public_url', 'content-type': 'application/json' };
      const res = await fetch(`${mock.url}/v1/3d/generations`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: 'alpha', image_url: imageUrl }),
      });
      expect(res.status).toBe(202);
      const { id } = PendingTaskSchema.parse(await res.json());
      let task = TaskSchema.parse(
        await (await fetch(`${mock.url}/v1/tasks/${id}`, { headers })).json(),
      );
      for (let i = 0; task.status === 'pending' && i < 300; i++) {
        await new Promise((r) => setTimeout(r, 100));
        task = TaskSchema.parse(
          await (await fetch(`${mock.url}/v1/tasks/${id}`, { headers })).json(),
        );
      }
      const failed = FailedTaskSchema.parse(task);
      expect(failed.error.message).toContain(refusal(imageUrl));
      expect(other.hits.length).toBe(before);
    } finally {
      await mock.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
