import { afterEach, describe, expect, it, vi } from 'vitest';
import { modelPathsFromQuery, modelQuery } from './address.ts';
import { download, ModelLoadError, prefetch, take } from './model-bytes.ts';

/** A response whose body arrives in `parts`, with a Content-Length (so progress is known). */
function streamed(parts: Uint8Array[], status = 200): Response {
  const total = parts.reduce((n, p) => n + p.byteLength, 0);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  return new Response(body, { status, headers: { 'content-length': String(total) } });
}

afterEach(() => vi.unstubAllGlobals());

describe('download', () => {
  it('joins the body and reports progress, replaying the latest figure to late listeners', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => streamed([new Uint8Array([1, 2]), new Uint8Array([3, 4])])),
    );
    const started = download('/m.glb');
    const early: number[] = [];
    started.onProgress((p) => early.push(p));
    expect([...(await started.bytes)]).toEqual([1, 2, 3, 4]);
    expect(early).toEqual([50, 100]);
    const late: number[] = [];
    started.onProgress((p) => late.push(p));
    expect(late).toEqual([100]);
  });

  it('stops telling a listener once it unsubscribes', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(new Uint8Array(5));
            await gate;
            controller.enqueue(new Uint8Array(5));
            controller.close();
          },
        });
        return new Response(body, { headers: { 'content-length': '10' } });
      }),
    );
    const started = download('/m.glb');
    const seen: number[] = [];
    const stop = started.onProgress((p) => seen.push(p));
    await vi.waitFor(() => expect(seen).toEqual([50]));
    stop();
    release();
    await started.bytes;
    expect(seen).toEqual([50]);
  });

  it('fails with the status for an HTTP error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('gone', { status: 404, statusText: 'Not Found' })),
    );
    const error = await download('/m.glb').bytes.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as Error).message).toBe('the server answered 404 (Not Found).');
  });
});

describe('prefetch and take', () => {
  it('hands a prefetched download to the first taker only', async () => {
    const fetch = vi.fn(async () => streamed([new Uint8Array([7])]));
    vi.stubGlobal('fetch', fetch);
    prefetch('/a.glb');
    prefetch('/a.glb'); // once per address
    expect(fetch).toHaveBeenCalledTimes(1);
    expect([...(await take('/a.glb').bytes)]).toEqual([7]);
    expect(fetch).toHaveBeenCalledTimes(1);
    await take('/a.glb').bytes; // a retry fetches again
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('keeps a failed prefetch quiet until it is taken', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      prefetch('/b.glb');
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).not.toHaveBeenCalled();
      await expect(take('/b.glb').bytes).rejects.toThrow('Failed to fetch');
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

describe('modelQuery', () => {
  it('reads ?src= (or ?a=) and ?b=, and keeps only same-origin paths to open', () => {
    expect(modelQuery('?src=/api/assets/x.glb')).toEqual({ a: '/api/assets/x.glb', b: null });
    expect(modelQuery('?a=/1.glb&b=/2.glb&src=/3.glb')).toEqual({ a: '/1.glb', b: '/2.glb' });
    expect(modelPathsFromQuery('?src=https://example.com/x.glb&b=/2.glb')).toEqual({
      a: null,
      b: '/2.glb',
    });
    expect(modelPathsFromQuery('')).toEqual({ a: null, b: null });
  });
});

/** A GLB's first bytes: its header and a JSON chunk naming `extensionsUsed`. */
function glbStart(extensionsUsed: string[]): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify({ extensionsUsed }).padEnd(40, ' '));
  const bytes = new Uint8Array(20 + json.byteLength);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, 1_000_000, true);
  view.setUint32(12, json.byteLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  bytes.set(json, 20);
  return bytes;
}

describe("a GLB's extensions, from the start of its download", () => {
  it('are known once the JSON chunk is in, split over pieces, before the last byte', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const start = glbStart(['KHR_draco_mesh_compression']);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(start.subarray(0, 7));
            controller.enqueue(start.subarray(7, 30));
            controller.enqueue(start.subarray(30));
            await gate; // the rest of a large model, still on its way
            controller.enqueue(new Uint8Array(64));
            controller.close();
          },
        });
        return new Response(body);
      }),
    );
    const started = download('/big.glb');
    expect(await started.extensions).toEqual(['KHR_draco_mesh_compression']);
    release();
    expect((await started.bytes).byteLength).toBe(start.byteLength + 64);
  });

  it('are none for bytes that are not a GLB, or a download that fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => streamed([new TextEncoder().encode('<html>not a model</html>')])),
    );
    expect(await download('/page.glb').extensions).toEqual([]);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => streamed([], 404)),
    );
    const gone = download('/gone.glb');
    expect(await gone.extensions).toEqual([]);
    await expect(gone.bytes).rejects.toBeInstanceOf(ModelLoadError);
  });
});
