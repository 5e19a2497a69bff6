import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIUserAbortError,
  NotFoundError,
  RateLimitError,
} from '../../client/errors.ts';
import { dispositionName, download, probe, request, upload, upstreamFetch } from './transport.ts';

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
