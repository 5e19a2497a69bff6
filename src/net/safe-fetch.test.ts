// Every real connection in this file goes to a node:http server on 127.0.0.1. Paths that would
// connect to a public address are observed at the `lookup`/`request` layer, and the socket is
// either re-pointed at loopback or replaced by an in-memory stream: no packet leaves the machine.
import * as http from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { Duplex } from 'node:stream';
import { Document, NodeIO } from '@gltf-transform/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchGlbSafely } from './fetch-glb.ts';
import type { RequestFunction } from './exchange.ts';
import type { ResolvedAddress } from './resolve-target.ts';
import { SafeFetchError } from './safe-fetch-error.ts';
import { safeFetch, type SafeFetchOptions } from './safe-fetch.ts';

// ---------------------------------------------------------------------------------------------
// Fixtures

let glb: Uint8Array;

/** A GLB header claiming `length` bytes (version 2 unless told). */
function glbHeader(length: number, version = 2): Buffer {
  const b = Buffer.alloc(12);
  b.write('glTF', 0, 'latin1');
  b.writeUInt32LE(version, 4);
  b.writeUInt32LE(length, 8);
  return b;
}

interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
}

let server: http.Server;
let port: number;
let origin: string;
let host: string;
const seen: Seen[] = [];
const openIntervals = new Set<NodeJS.Timeout>();

function route(req: http.IncomingMessage, res: http.ServerResponse): void {
  const path = req.url ?? '/';
  seen.push({ path, headers: req.headers });
  const redirect = (status: number, location?: string) => {
    res.writeHead(status, location === undefined ? {} : { location });
    res.end();
  };
  const m = /^\/redirect\/(\d{3})$/.exec(path);
  if (m?.[1]) return redirect(Number(m[1]), '/model.glb');
  switch (path) {
    case '/model.glb':
      res.writeHead(200, { 'content-type': 'model/gltf-binary', 'content-length': glb.byteLength });
      res.end(glb);
      return;
    case '/chunked.glb': {
      res.writeHead(200, { 'content-type': 'model/gltf-binary' }); // no length: chunked
      const bytes = Buffer.from(glb);
      for (let i = 0; i < bytes.length; i += 7) res.write(bytes.subarray(i, i + 7));
      res.end();
      return;
    }
    case '/with-cookie':
      res.writeHead(302, { location: '/model.glb', 'set-cookie': 'session=secret; Path=/' });
      res.end();
      return;
    case '/absolute-redirect':
      return redirect(302, `${origin}/model.glb`);
    case '/to-metadata':
      return redirect(302, 'http://169.254.169.254/latest/meta-data/');
    case '/to-localhost':
      return redirect(302, `http://localhost:${port}/model.glb`);
    case '/to-internal-name':
      return redirect(307, 'http://internal.example/model.glb');
    case '/to-file':
      return redirect(302, 'file:///etc/passwd');
    case '/to-credentials':
      return redirect(302, `http://user:pass@127.0.0.1:${port}/model.glb`);
    case '/loop':
      return redirect(302, '/loop');
    case '/no-location':
      return redirect(302);
    case '/missing':
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    case '/error':
      res.writeHead(500);
      res.end();
      return;
    case '/html':
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html><body>definitely not a model</body></html>');
      return;
    case '/gltf-v1':
      res.end(Buffer.concat([glbHeader(20, 1), Buffer.alloc(8)]));
      return;
    case '/short':
      res.end('glT');
      return;
    case '/length-mismatch':
      res.end(Buffer.concat([glbHeader(100), Buffer.alloc(8)]));
      return;
    case '/huge-declared':
      // Headers only, then silence: the client must refuse on Content-Length alone.
      res.writeHead(200, { 'content-length': 10_000_000 });
      res.flushHeaders();
      return;
    case '/declares-big':
      res.writeHead(200);
      res.write(glbHeader(10_000_000));
      return; // never ends
    case '/stream-forever': {
      // A valid-looking header (declared 50 kB) followed by an endless chunked body.
      res.writeHead(200, { 'content-type': 'model/gltf-binary' });
      res.write(glbHeader(50_000));
      const chunk = Buffer.alloc(16 * 1024);
      const timer = setInterval(() => res.write(chunk), 2);
      openIntervals.add(timer);
      res.on('close', () => {
        clearInterval(timer);
        openIntervals.delete(timer);
      });
      return;
    }
    case '/hang':
      return; // never answers
    case '/stall-body':
      res.writeHead(200, { 'content-length': glb.byteLength });
      res.write(Buffer.from(glb).subarray(0, 12));
      return; // never finishes
    case '/reset':
      res.writeHead(200, { 'content-length': glb.byteLength });
      res.write(Buffer.from(glb).subarray(0, 12), () => req.socket.destroy());
      return;
    default:
      res.writeHead(404);
      res.end();
  }
}

beforeAll(async () => {
  glb = await new NodeIO().writeBinary(new Document());
  server = http.createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  host = `127.0.0.1:${port}`;
  origin = `http://${host}`;
});

afterAll(async () => {
  for (const t of openIntervals) clearInterval(t);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

/** The SafeFetchError code a fetch rejects with, or 'ok'. */
async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof SafeFetchError) return err.code;
    throw err;
  }
}

/**
 * A safety net for the tests themselves: the real node:http request, but it refuses to connect
 * anywhere other than 127.0.0.1, so a bug in the code under test cannot send a packet out.
 */
const loopbackOnly: RequestFunction = (opts) => {
  const hostname = opts.hostname ?? '';
  if (isIP(hostname) !== 0 && hostname !== '127.0.0.1') {
    throw new Error(`test guard: refused to connect to ${hostname}`);
  }
  const pinned = opts.lookup;
  return http.request({
    ...opts,
    ...(pinned
      ? {
          lookup: (h, o, cb) =>
            pinned(h, o, (err, address, family) => {
              const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
              if (!err && list.some((a) => a !== '127.0.0.1')) {
                cb(new Error(`test guard: refused to connect to ${list.join(', ')}`), address);
              } else cb(err, address, family);
            }),
        }
      : {}),
  });
};

/** The loopback test server is allowed; connections are guarded. */
const allowed: SafeFetchOptions = {
  get allowedHosts() {
    return [host];
  },
  request: loopbackOnly,
};
const guarded: SafeFetchOptions = { request: loopbackOnly };
const fixedLookup =
  (table: Record<string, ResolvedAddress[]>) =>
  async (hostname: string): Promise<ResolvedAddress[]> => {
    const found = table[hostname];
    if (!found) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
const PUBLIC_V4 = '93.184.216.34';

/** A socket stand-in that accepts the request bytes and never answers. */
function silentSocket(): Duplex {
  return new Duplex({
    read() {},
    write(_chunk, _enc, cb) {
      cb();
    },
  });
}

// ---------------------------------------------------------------------------------------------

describe('safeFetch', () => {
  it('returns the body, its type and the final URL, after a redirect', async () => {
    const got = await safeFetch(`${origin}/redirect/302`, allowed);
    expect(Buffer.from(got.bytes).equals(Buffer.from(glb))).toBe(true);
    expect(got.contentType).toBe('model/gltf-binary');
    expect(got.url).toBe(`${origin}/model.glb`);
    expect(seen[0]?.headers['user-agent']).toBe('kiln');
  });

  it('lets an operator allow every address, and refuses loopback otherwise', async () => {
    expect(await codeOf(safeFetch(`${origin}/model.glb`, guarded))).toBe('blocked_address');
    expect(seen).toHaveLength(0);
    expect(await codeOf(safeFetch(`${origin}/model.glb`, { ...guarded, allowPrivate: true }))).toBe(
      'ok',
    );
  });

  it('ends the download with bad_body when a check says so, and on the head alone', async () => {
    const headSeen: number[] = [];
    const err = await safeFetch(`${origin}/html`, {
      ...allowed,
      headBytes: 4,
      checkHead: (head) => {
        headSeen.push(head.byteLength);
        return head[0] === 0x3c ? 'it is a web page' : undefined;
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SafeFetchError);
    expect(err).toMatchObject({ code: 'bad_body', message: 'it is a web page' });
    expect(headSeen[0]).toBeGreaterThanOrEqual(4);
    expect(
      await codeOf(safeFetch(`${origin}/model.glb`, { ...allowed, checkBody: () => 'never' })),
    ).toBe('bad_body');
  });
});

describe('fetchGlbSafely: allowed hosts and address checks', () => {
  it('downloads a GLB from an allowed host, byte for byte, with no credentials sent', async () => {
    const bytes = await fetchGlbSafely(`${origin}/model.glb`, { allowedHosts: [host] });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(bytes).equals(Buffer.from(glb))).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.host).toBe(host);
    expect(seen[0]?.headers.authorization).toBeUndefined();
    expect(seen[0]?.headers.cookie).toBeUndefined();
  });

  it('reads a chunked body', async () => {
    const bytes = await fetchGlbSafely(`${origin}/chunked.glb`, { allowedHosts: [host] });
    expect(Buffer.from(bytes).equals(Buffer.from(glb))).toBe(true);
  });

  it('matches allowedHosts case-insensitively, and a bare hostname matches any port', async () => {
    expect(
      await codeOf(fetchGlbSafely(`${origin}/model.glb`, { allowedHosts: ['127.0.0.1'] })),
    ).toBe('ok');
    expect(
      await codeOf(
        fetchGlbSafely(`http://GLB.Test:${port}/model.glb`, {
          allowedHosts: [`glb.TEST:${port}`],
          lookup: fixedLookup({ 'glb.test': [{ address: '127.0.0.1', family: 4 }] }),
        }),
      ),
    ).toBe('ok');
  });

  it('refuses the same URL without allowedHosts, before connecting', async () => {
    expect(await codeOf(fetchGlbSafely(`${origin}/model.glb`, guarded))).toBe('blocked_address');
    expect(
      await codeOf(fetchGlbSafely(`${origin}/model.glb`, { ...guarded, allowedHosts: [] })),
    ).toBe('blocked_address');
    expect(seen).toHaveLength(0);
  });

  it('an allowed host:port does not allow other ports of the same host', async () => {
    const code = await codeOf(
      fetchGlbSafely(`${origin}/model.glb`, {
        ...guarded,
        allowedHosts: [`127.0.0.1:${port + 1}`],
      }),
    );
    expect(code).toBe('blocked_address');
    expect(seen).toHaveLength(0);
  });

  it('refuses localhost resolved through real DNS', async () => {
    expect(await codeOf(fetchGlbSafely(`http://localhost:${port}/model.glb`, guarded))).toBe(
      'blocked_address',
    );
    expect(seen).toHaveLength(0);
  });

  it('refuses loopback written in other forms (IPv6, mapped, decimal, hex)', async () => {
    for (const u of [
      `http://[::1]:${port}/model.glb`,
      `http://[::ffff:127.0.0.1]:${port}/model.glb`,
      `http://2130706433:${port}/model.glb`,
      `http://0x7f.0.0.1:${port}/model.glb`,
      `http://0.0.0.0:${port}/model.glb`,
    ]) {
      expect(await codeOf(fetchGlbSafely(u, guarded)), u).toBe('blocked_address');
    }
    expect(seen).toHaveLength(0);
  });

  it('refuses a public-looking hostname whose DNS answers loopback (DNS-based SSRF)', async () => {
    const lookup = fixedLookup({ 'glb.example': [{ address: '127.0.0.1', family: 4 }] });
    expect(
      await codeOf(fetchGlbSafely(`http://glb.example:${port}/model.glb`, { ...guarded, lookup })),
    ).toBe('blocked_address');
    expect(seen).toHaveLength(0);
  });

  it('refuses when ANY resolved address is private', async () => {
    const lookup = fixedLookup({
      'mixed.example': [
        { address: PUBLIC_V4, family: 4 },
        { address: 'fd00::1', family: 6 },
      ],
    });
    expect(
      await codeOf(fetchGlbSafely('http://mixed.example/model.glb', { ...guarded, lookup })),
    ).toBe('blocked_address');
  });

  it('pins the socket to the validated address (no second resolution)', async () => {
    // glb.test does not exist in real DNS: the fetch can only succeed if the socket uses the
    // address our lookup validated; the lookup is called exactly once.
    let calls = 0;
    const bytes = await fetchGlbSafely(`http://glb.test:${port}/model.glb`, {
      allowedHosts: [`glb.test:${port}`],
      lookup: (h) => {
        calls++;
        return fixedLookup({ 'glb.test': [{ address: '127.0.0.1', family: 4 }] })(h);
      },
    });
    expect(Buffer.from(bytes).equals(Buffer.from(glb))).toBe(true);
    expect(calls).toBe(1);
    expect(seen[0]?.headers.host).toBe(`glb.test:${port}`);
  });

  it('a public host is allowed and connects to exactly the validated public address', async () => {
    // The socket's lookup is the pinned one; we record what it answers, then re-point the
    // connection at the loopback server so nothing is sent to the public address.
    const pinnedAnswers: unknown[] = [];
    const request: RequestFunction = (opts) => {
      const pinned = opts.lookup;
      if (!pinned) throw new Error('no pinned lookup');
      return http.request({
        ...opts,
        port,
        lookup: (hostname, lookupOpts, cb) => {
          pinned(hostname, lookupOpts, (err, address, family) => {
            pinnedAnswers.push(address);
            if (err) return cb(err, address, family);
            if (lookupOpts.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
            else cb(null, '127.0.0.1', 4);
          });
        },
      });
    };
    const lookup = fixedLookup({ 'glb.example': [{ address: PUBLIC_V4, family: 4 }] });
    const bytes = await fetchGlbSafely('http://glb.example/model.glb', { lookup, request });
    expect(Buffer.from(bytes).equals(Buffer.from(glb))).toBe(true);
    expect(pinnedAnswers).toHaveLength(1);
    const answer = pinnedAnswers[0];
    const addresses = Array.isArray(answer)
      ? (answer as { address: string }[]).map((a) => a.address)
      : [answer];
    expect(addresses).toEqual([PUBLIC_V4]);
    expect(seen[0]?.headers.host).toBe('glb.example');
  });

  it('the pinned lookup answers both callback forms with only validated addresses', async () => {
    let captured: Parameters<RequestFunction>[0] | undefined;
    const request: RequestFunction = (opts) => {
      captured = opts;
      // An in-memory socket: the request goes nowhere and the overall timeout ends it.
      return http.request({ ...opts, agent: undefined, createConnection: () => silentSocket() });
    };
    const lookup = fixedLookup({
      'glb.example': [
        { address: PUBLIC_V4, family: 4 },
        { address: '2606:4700::1', family: 6 },
      ],
    });
    const code = await codeOf(
      fetchGlbSafely('https://glb.example/models/a.glb?sig=1', { lookup, request, timeoutMs: 100 }),
    );
    expect(['timeout', 'network']).toContain(code);
    expect(captured).toBeDefined();
    const opts = captured!;
    expect(opts.protocol).toBe('https:');
    expect(opts.hostname).toBe('glb.example');
    expect(opts.servername).toBe('glb.example'); // SNI/certificate checks use the hostname
    expect(opts.port).toBe(443);
    expect(opts.path).toBe('/models/a.glb?sig=1');
    expect(opts.agent).toBe(false);
    expect(opts.signal).toBeInstanceOf(AbortSignal);
    const headers = opts.headers as Record<string, string>;
    expect(headers.host).toBe('glb.example');
    expect(Object.keys(headers).map((k) => k.toLowerCase())).not.toContain('authorization');
    expect(Object.keys(headers).map((k) => k.toLowerCase())).not.toContain('cookie');

    const pinned = opts.lookup!;
    const answer = (lookupOpts: object) =>
      new Promise<unknown[]>((resolve) =>
        pinned('anything.example', lookupOpts, (err, address, family) =>
          resolve([err, address, family]),
        ),
      );
    expect(await answer({ all: true })).toEqual([
      null,
      [
        { address: PUBLIC_V4, family: 4 },
        { address: '2606:4700::1', family: 6 },
      ],
      undefined,
    ]);
    expect(await answer({})).toEqual([null, PUBLIC_V4, 4]);
    expect(await answer({ family: 6 })).toEqual([null, '2606:4700::1', 6]);
    expect(await answer({ family: 6, all: true })).toEqual([
      null,
      [{ address: '2606:4700::1', family: 6 }],
      undefined,
    ]);
  });

  it('maps DNS failures and refused connections to network', async () => {
    expect(
      await codeOf(
        fetchGlbSafely('http://nowhere.example/model.glb', { ...guarded, lookup: fixedLookup({}) }),
      ),
    ).toBe('network');
    // A closed port on loopback: bind, note the port, close, then connect.
    const tmp = http.createServer();
    await new Promise<void>((resolve) => tmp.listen(0, '127.0.0.1', resolve));
    const closedPort = (tmp.address() as AddressInfo).port;
    await new Promise<void>((resolve) => tmp.close(() => resolve()));
    expect(
      await codeOf(
        fetchGlbSafely(`http://127.0.0.1:${closedPort}/x.glb`, {
          allowedHosts: [`127.0.0.1:${closedPort}`],
        }),
      ),
    ).toBe('network');
  });

  it('refuses a resolver answer that is not an IP address', async () => {
    const lookup = fixedLookup({ 'odd.example': [{ address: 'localhost', family: 4 }] });
    expect(await codeOf(fetchGlbSafely('http://odd.example/', { ...guarded, lookup }))).toBe(
      'blocked_address',
    );
  });
});

describe('fetchGlbSafely: URLs', () => {
  it.each([
    'file:///etc/passwd',
    'data:model/gltf-binary;base64,Z2xURgIAAAA=',
    'ftp://127.0.0.1/model.glb',
    'gopher://127.0.0.1/',
    'javascript:alert(1)',
    'http://user:pass@127.0.0.1/model.glb',
    'http://user@127.0.0.1/model.glb',
    'https://:pass@glb.example/model.glb',
    '/relative/model.glb',
    'not a url',
    '',
  ])('refuses %j with bad_url', async (u) => {
    expect(await codeOf(fetchGlbSafely(u, { ...guarded, allowedHosts: [host, '127.0.0.1'] }))).toBe(
      'bad_url',
    );
  });

  it('validates options', async () => {
    await expect(fetchGlbSafely(`${origin}/model.glb`, { maxBytes: 0 })).rejects.toBeInstanceOf(
      RangeError,
    );
    await expect(fetchGlbSafely(`${origin}/model.glb`, { timeoutMs: -1 })).rejects.toBeInstanceOf(
      RangeError,
    );
  });
});

describe('fetchGlbSafely: redirects', () => {
  it.each([301, 302, 303, 307, 308])('follows a %i on an allowed host', async (status) => {
    const bytes = await fetchGlbSafely(`${origin}/redirect/${status}`, allowed);
    expect(Buffer.from(bytes).equals(Buffer.from(glb))).toBe(true);
    expect(seen.map((s) => s.path)).toEqual([`/redirect/${status}`, '/model.glb']);
  });

  it('follows an absolute Location and never forwards cookies', async () => {
    expect(await codeOf(fetchGlbSafely(`${origin}/absolute-redirect`, allowed))).toBe('ok');
    expect(await codeOf(fetchGlbSafely(`${origin}/with-cookie`, allowed))).toBe('ok');
    expect(seen.every((s) => s.headers.cookie === undefined)).toBe(true);
    expect(seen.every((s) => s.headers.authorization === undefined)).toBe(true);
  });

  it('refuses a redirect to the cloud metadata address', async () => {
    expect(await codeOf(fetchGlbSafely(`${origin}/to-metadata`, allowed))).toBe('blocked_address');
    expect(seen.map((s) => s.path)).toEqual(['/to-metadata']);
  });

  it('refuses a redirect to localhost (same port, but a host that is not allowed)', async () => {
    expect(await codeOf(fetchGlbSafely(`${origin}/to-localhost`, allowed))).toBe('blocked_address');
    expect(seen.map((s) => s.path)).toEqual(['/to-localhost']);
  });

  it('re-resolves and re-checks each hop', async () => {
    const lookup = fixedLookup({ 'internal.example': [{ address: '10.1.2.3', family: 4 }] });
    expect(await codeOf(fetchGlbSafely(`${origin}/to-internal-name`, { ...allowed, lookup }))).toBe(
      'blocked_address',
    );
  });

  it('refuses redirects to other schemes or to URLs with credentials', async () => {
    expect(await codeOf(fetchGlbSafely(`${origin}/to-file`, allowed))).toBe('bad_url');
    expect(await codeOf(fetchGlbSafely(`${origin}/to-credentials`, allowed))).toBe('bad_url');
  });

  it('stops a redirect loop after maxRedirects', async () => {
    expect(await codeOf(fetchGlbSafely(`${origin}/loop`, allowed))).toBe('too_many_redirects');
    expect(seen).toHaveLength(6); // the first request + 5 redirects followed
    seen.length = 0;
    expect(await codeOf(fetchGlbSafely(`${origin}/loop`, { ...allowed, maxRedirects: 2 }))).toBe(
      'too_many_redirects',
    );
    expect(seen).toHaveLength(3);
    expect(
      await codeOf(fetchGlbSafely(`${origin}/redirect/302`, { ...allowed, maxRedirects: 0 })),
    ).toBe('too_many_redirects');
  });

  it('treats a redirect without Location as http_status', async () => {
    expect(await codeOf(fetchGlbSafely(`${origin}/no-location`, allowed))).toBe('http_status');
  });
});

describe('fetchGlbSafely: responses', () => {
  it('maps non-2xx to http_status with the status', async () => {
    const err = await fetchGlbSafely(`${origin}/missing`, allowed).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SafeFetchError);
    expect((err as SafeFetchError).code).toBe('http_status');
    expect((err as SafeFetchError).status).toBe(404);
    expect(await codeOf(fetchGlbSafely(`${origin}/error`, allowed))).toBe('http_status');
  });

  it('refuses bodies that are not GLB 2.0', async () => {
    for (const path of ['/html', '/gltf-v1', '/short', '/length-mismatch']) {
      expect(await codeOf(fetchGlbSafely(`${origin}${path}`, allowed)), path).toBe('bad_body');
    }
  });

  it('refuses an oversized Content-Length at once, without waiting for the body', async () => {
    const started = Date.now();
    const code = await codeOf(
      fetchGlbSafely(`${origin}/huge-declared`, { ...allowed, maxBytes: 1_000, timeoutMs: 5_000 }),
    );
    expect(code).toBe('too_large');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a GLB header declaring more than maxBytes', async () => {
    const code = await codeOf(
      fetchGlbSafely(`${origin}/declares-big`, { ...allowed, maxBytes: 1_000, timeoutMs: 5_000 }),
    );
    expect(code).toBe('too_large');
  });

  it('aborts a chunked body that grows past maxBytes', async () => {
    const code = await codeOf(
      fetchGlbSafely(`${origin}/stream-forever`, {
        ...allowed,
        maxBytes: 100_000,
        timeoutMs: 10_000,
      }),
    );
    expect(code).toBe('too_large');
    // The server sees the connection go away (its interval stops).
    await expect.poll(() => openIntervals.size, { timeout: 2_000 }).toBe(0);
  });

  it('accepts a body of exactly maxBytes', async () => {
    const bytes = await fetchGlbSafely(`${origin}/model.glb`, {
      ...allowed,
      maxBytes: glb.byteLength,
    });
    expect(bytes.byteLength).toBe(glb.byteLength);
  });

  it('times out on a server that never answers', async () => {
    const started = Date.now();
    expect(await codeOf(fetchGlbSafely(`${origin}/hang`, { ...allowed, timeoutMs: 200 }))).toBe(
      'timeout',
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('the timeout covers the body too', async () => {
    expect(
      await codeOf(fetchGlbSafely(`${origin}/stall-body`, { ...allowed, timeoutMs: 200 })),
    ).toBe('timeout');
  });

  it('maps a connection reset mid-body to network', async () => {
    expect(await codeOf(fetchGlbSafely(`${origin}/reset`, allowed))).toBe('network');
  });

  it("honours the caller's AbortSignal", async () => {
    const controller = new AbortController();
    const pending = fetchGlbSafely(`${origin}/hang`, { ...allowed, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await codeOf(pending)).toBe('network');
    expect(
      await codeOf(
        fetchGlbSafely(`${origin}/hang`, { ...allowed, signal: AbortSignal.timeout(50) }),
      ),
    ).toBe('timeout');
    const aborted = AbortSignal.abort();
    seen.length = 0;
    expect(
      await codeOf(fetchGlbSafely(`${origin}/model.glb`, { ...allowed, signal: aborted })),
    ).toBe('network');
    expect(seen).toHaveLength(0);
  });
});
