import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIUserAbortError,
  NotFoundError,
  RateLimitError,
} from '../../client/errors.ts';
import { kilnCalls } from '../../client/kiln/calls.ts';
import {
  decodedSize,
  dispositionName,
  download,
  kilnCall,
  probe,
  request,
  send,
  upload,
  upstreamFetch,
} from './transport.ts';

vi.mock('../lib/key-store.ts', () => ({ currentApiKey: () => 'tr_test' }));
const LIBRARY = `kl_${'L'.repeat(43)}`;
vi.mock('../lib/provider-keys.ts', () => ({
  currentLibraryKey: () => LIBRARY,
  currentProviderKey: (p: string) => (p === 'meshy' ? 'msy_test_key_0001' : null),
}));

afterEach(() => vi.unstubAllGlobals());

/** Stubs fetch with `answer`, recording what was asked. */
function answering(answer: () => Response | Promise<Response>) {
  const asked: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      asked.push({ url, init });
      return answer();
    }),
  );
  return asked;
}

const header = (init: RequestInit, name: string) => new Headers(init.headers).get(name);

describe('request', () => {
  it('sends the key as a bearer token and a JSON body, and parses the answer', async () => {
    const asked = answering(() => Response.json({ ok: 1 }));
    const body = await request('/api/x', { method: 'POST', json: { a: 1 }, parse: (b) => b });
    expect(body).toEqual({ ok: 1 });
    expect(header(asked[0]!.init, 'authorization')).toBe('Bearer tr_test');
    expect(header(asked[0]!.init, 'content-type')).toBe('application/json');
    expect(asked[0]!.init.body).toBe('{"a":1}');
  });

  it('names the library on every request, and sends a vendor key only on that vendor’s calls', async () => {
    const asked = answering(() => Response.json({}));
    await request('/api/library', { parse: (b) => b });
    await request('/api/providers/meshy/balance', { provider: 'meshy', parse: (b) => b });
    await request('/api/providers/fal/balance', { provider: 'fal', parse: (b) => b });
    await upstreamFetch('/api/v1/models', { headers: { authorization: 'Bearer tr_test' } });
    expect(asked.map((a) => header(a.init, 'x-kiln-library'))).toEqual([
      LIBRARY,
      LIBRARY,
      LIBRARY,
      LIBRARY,
    ]);
    expect(asked.map((a) => header(a.init, 'x-provider-key'))).toEqual([
      null,
      'msy_test_key_0001',
      null,
      null,
    ]);
    expect(header(asked[3]!.init, 'authorization')).toBe('Bearer tr_test');
  });

  it('sends no key when told not to', async () => {
    const asked = answering(() => Response.json({}));
    await request('/api/info', { auth: false, parse: (b) => b });
    expect(header(asked[0]!.init, 'authorization')).toBeNull();
  });

  it('fails with the typed error for the status, carrying the server’s sentence', async () => {
    answering(() =>
      Response.json(
        { error: { message: 'No such task.', type: 'invalid_request_error', code: 'not_found' } },
        { status: 404, statusText: 'Not Found' },
      ),
    );
    const error = await request('/api/library/x', { parse: (b) => b }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ message: 'No such task.', code: 'not_found', status: 404 });
  });

  it('says Kiln cannot be reached when nothing answers, and lets an abort be an abort', async () => {
    answering(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await request('/api/credits', { parse: (b) => b }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    const controller = new AbortController();
    controller.abort();
    answering(() => {
      throw new DOMException('aborted', 'AbortError');
    });
    const aborted = await request('/api/credits', {
      signal: controller.signal,
      parse: (b) => b,
    }).catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(DOMException);
  });

  it('parses a 204 as undefined', async () => {
    answering(() => new Response(null, { status: 204 }));
    expect(await request('/api/library/x', { method: 'DELETE', parse: (b) => b })).toBe(undefined);
  });
});

describe('the one client’s calls (kilnCall, send)', () => {
  const collection = {
    object: 'collection',
    id: 'col_0123456789abcdefghij',
    name: 'Chairs',
    count: 0,
    cover_url: null,
    created_ms: 1,
    updated_ms: 1,
    share: null,
  };

  it('sends a call with the key, the library and a JSON body, and parses the answer', async () => {
    const asked = answering(() => Response.json({ ...collection, extra: 'dropped' }));
    const made = await kilnCall((k) => k.collections.create('Chairs'));
    expect(made).toEqual(collection);
    const { url, init } = asked[0]!;
    expect([url, init.method, init.body]).toEqual([
      '/api/collections',
      'POST',
      '{"name":"Chairs"}',
    ]);
    expect(header(init, 'authorization')).toBe('Bearer tr_test');
    expect(header(init, 'x-kiln-library')).toBe(LIBRARY);
    expect(header(init, 'content-type')).toBe('application/json');
    expect(header(init, 'accept')).toBe('application/json');
    expect(header(init, 'x-provider-key')).toBeNull();
  });

  it('sends a vendor’s key only when told the vendor, and no key for a call that needs none', async () => {
    // One answer both read: an optimise job's start, and the vendors Kiln reaches.
    const asked = answering(() => Response.json({ job_id: 'job_1', data: [] }));
    const call = kilnCalls.optimise.start('task_1', { preset: 'web' });
    expect(await send(call, { provider: 'meshy' })).toEqual({ job_id: 'job_1' });
    expect(await kilnCall((k) => k.providers(), { auth: true })).toEqual([]);
    expect(asked.map((a) => [a.url, a.init.method])).toEqual([
      ['/api/library/task_1/optimise', 'POST'],
      ['/api/providers', 'GET'],
    ]);
    expect(asked.map((a) => header(a.init, 'x-provider-key'))).toEqual(['msy_test_key_0001', null]);
    expect(asked.map((a) => header(a.init, 'authorization'))).toEqual(['Bearer tr_test', null]);
    expect(asked.map((a) => header(a.init, 'x-kiln-library'))).toEqual([LIBRARY, LIBRARY]);
  });

  it('builds the library’s query from the filters and the page, and reads a 204 as null', async () => {
    const asked = answering(() => new Response(null, { status: 204 }));
    expect(await kilnCall((k) => k.library.hide('task 1'))).toBeNull();
    expect(asked[0]!.url).toBe('/api/library/task%201');
    expect(asked[0]!.init.method).toBe('DELETE');
    expect(kilnCalls.library.list({ q: ' a  chair ', favourite: true }, { limit: 24 }).path).toBe(
      '/api/library?q=a+chair&favourite=1&limit=24',
    );
  });

  it('refuses an answer of another shape, and fails with the typed error for the status', async () => {
    answering(() => Response.json({ object: 'collection' }));
    await expect(kilnCall((k) => k.collections.get('col_x'))).rejects.toThrow();
    answering(() =>
      Response.json(
        {
          error: {
            message: 'No such share.',
            type: 'invalid_request_error',
            code: 'share_not_found',
          },
        },
        { status: 404 },
      ),
    );
    const error = await kilnCall((k) => k.shares.of('t').get()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'share_not_found' });
  });
});

describe('download', () => {
  it('reports the bytes received against the size, and hands back the headers', async () => {
    answering(() => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array([1, 2, 3]));
          controller.enqueue(new Uint8Array([4]));
          controller.close();
        },
      });
      return new Response(body, {
        headers: { 'content-length': '4', 'content-disposition': 'attachment; filename="m.zip"' },
      });
    });
    const seen: [number, number][] = [];
    const { bytes, headers } = await download('/f', {
      onProgress: (received, total) => seen.push([received, total]),
    });
    expect([...bytes]).toEqual([1, 2, 3, 4]);
    expect(seen).toEqual([
      [3, 4],
      [4, 4],
    ]);
    expect(dispositionName(headers.get('content-disposition'))).toBe('m.zip');
  });

  it('fails with the typed error for the status, keeping the reason phrase', async () => {
    answering(() => new Response('gone', { status: 404, statusText: 'Not Found' }));
    const error = await download('/m.glb', { auth: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, statusText: 'Not Found' });
  });
});

describe('decodedSize', () => {
  it("reads a compressed answer's decoded size, and a plain one's Content-Length", () => {
    expect(decodedSize(new Headers({ 'content-length': '40' }))).toBe(40);
    expect(
      decodedSize(
        new Headers({
          'content-encoding': 'br',
          'content-length': '9',
          'kiln-decoded-length': '40',
        }),
      ),
    ).toBe(40);
    // Compressed by someone who did not say the size: unknown, never the compressed size.
    expect(decodedSize(new Headers({ 'content-encoding': 'gzip', 'content-length': '9' }))).toBe(0);
    expect(
      decodedSize(new Headers({ 'content-encoding': 'identity', 'content-length': '7' })),
    ).toBe(7);
    expect(decodedSize(new Headers())).toBe(0);
  });
});

describe('probe', () => {
  it('answers with the status and body, never an HTTP error', async () => {
    answering(() => Response.json({ message: 'down' }, { status: 503 }));
    expect(await probe('/api/ready', { auth: false })).toEqual({
      status: 503,
      ok: false,
      body: { message: 'down' },
    });
  });
});

describe('dispositionName', () => {
  it('reads the UTF-8 name first, then the plain one', () => {
    expect(dispositionName("attachment; filename*=UTF-8''caf%C3%A9.zip")).toBe('café.zip');
    expect(dispositionName('attachment; filename=models.zip')).toBe('models.zip');
    expect(dispositionName(null)).toBeUndefined();
  });
});

/** Just enough of XMLHttpRequest for `upload`: the test plays the server. */
class FakeXhr {
  static last: FakeXhr | undefined;
  status = 0;
  statusText = '';
  responseText = '';
  responseType = '';
  headers: Record<string, string> = {};
  answerHeaders = '';
  upload: {
    onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void;
  } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  sent: unknown;
  constructor() {
    FakeXhr.last = this;
  }
  open() {}
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getAllResponseHeaders() {
    return this.answerHeaders;
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.onabort?.();
  }
  answer(status: number, body: unknown, headers = '') {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.answerHeaders = headers;
    this.onload?.();
  }
}

describe('upload', () => {
  const form = () => new FormData();

  it('reports progress, then 1 once the answer is in', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const seen: number[] = [];
    const done = upload('/api/uploads', form(), {
      auth: false,
      parse: (b) => b,
      onProgress: (f) => seen.push(f),
    });
    const xhr = FakeXhr.last!;
    // No key (uploads need none), only the library's name.
    expect(xhr.headers).toEqual({ 'x-kiln-library': LIBRARY });
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 4 });
    xhr.answer(201, { url: 'u' });
    expect(await done).toEqual({ url: 'u' });
    expect(seen).toEqual([0.25, 1]);
  });

  it('fails with the typed error for the status, with Retry-After', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const done = upload('/api/uploads', form(), { parse: (b) => b }).catch((e: unknown) => e);
    FakeXhr.last!.answer(
      429,
      { error: { message: 'Slow down.', type: 'rate_limit_error' } },
      'Retry-After: 3\r\n',
    );
    const error = await done;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ message: 'Slow down.', retryAfterMs: 3000 });
  });

  it('is cancelled by its signal', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const controller = new AbortController();
    const done = upload('/api/uploads', form(), {
      signal: controller.signal,
      parse: (b) => b,
    }).catch((e: unknown) => e);
    controller.abort();
    expect(await done).toBeInstanceOf(APIUserAbortError);
  });
});
