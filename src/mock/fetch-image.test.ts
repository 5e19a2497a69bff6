// Every connection here goes to a node:http server on 127.0.0.1; any other target is refused by
// the request layer the test injects, so no packet leaves the machine.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestFunction } from '../net/index.ts';
import { readPhoto } from '../testing/fixtures.ts';
import { fetchImage, ImageFetchError } from './fetch-image.ts';

const PNG = readPhoto('chair.png');
let server: http.Server;
let host: string;
let hits = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    if (req.url === '/chair.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    } else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>internal admin panel</h1>');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const attempted: string[] = [];
/** Connects to the loopback test server only; anything else is recorded and refused. */
const loopbackOnly: RequestFunction = (opts) => {
  if (opts.hostname !== '127.0.0.1') {
    attempted.push(String(opts.hostname));
    throw new Error('test guard: no connection outside loopback');
  }
  return http.request(opts);
};

async function refusal(url: string, options: Parameters<typeof fetchImage>[1] = {}) {
  const err = await fetchImage(url, { request: loopbackOnly, ...options }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ImageFetchError);
  return (err as Error).message;
}

describe('fetchImage: the address policy', () => {
  it('refuses loopback, link-local, private and metadata addresses without connecting, all with one sentence', async () => {
    const before = hits;
    const urls = [
      `http://${host}/chair.png`, // a listening port
      `http://127.0.0.1:9/x.png`, // a closed port
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.7/x.png',
      'http://[::1]/x.png',
      'http://[::ffff:192.168.1.1]/x.png',
    ];
    const messages = await Promise.all(urls.map((u) => refusal(u)));
    expect(hits).toBe(before);
    expect(attempted).toEqual([]);
    for (const [i, m] of messages.entries())
      expect(m).toBe(
        `The image at ${urls[i]} could not be fetched: the mock fetches images only from public http(s) addresses, data: URIs and Kiln's own uploads.`,
      );
  });

  it('says the same for a name that resolves to a private address and one that does not resolve', async () => {
    const lookup = async (name: string) => {
      if (name === 'intranet.example') return [{ address: '192.168.0.10', family: 4 as const }];
      throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    };
    const a = await refusal('http://intranet.example/x.png', { lookup });
    const b = await refusal('http://nowhere.example/x.png', { lookup });
    expect(a.replace('intranet', 'X')).toBe(b.replace('nowhere', 'X'));
    expect(attempted).toEqual([]);
  });

  it('fetches from Kiln’s own origin (its listening address, PUBLIC_URL)', async () => {
    const bytes = await fetchImage(`http://${host}/chair.png`, {
      request: loopbackOnly,
      ownOrigins: () => [undefined, `http://${host}`],
    });
    expect(Buffer.from(bytes).equals(Buffer.from(PNG))).toBe(true);
  });

  it('fetches private addresses when the operator allows it (MOCK_ALLOW_PRIVATE_FETCH)', async () => {
    const bytes = await fetchImage(`http://${host}/chair.png`, {
      request: loopbackOnly,
      allowPrivate: true,
    });
    expect(bytes.byteLength).toBe(PNG.byteLength);
    expect(await refusal(`http://${host}/admin`, { allowPrivate: true })).toBe(
      `The image at http://${host}/admin answered HTTP 404.`,
    );
  });

  it('refuses other schemes and reads data: URIs', async () => {
    expect(await refusal('file:///etc/passwd')).toMatch(/not an http, https or data: URL/);
    const data = `data:image/png;base64,${Buffer.from(PNG).toString('base64')}`;
    expect((await fetchImage(data)).byteLength).toBe(PNG.byteLength);
  });
});
