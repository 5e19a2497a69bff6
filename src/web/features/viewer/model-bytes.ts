// A model's bytes, fetched with progress, apart from three.js: /viewer starts downloading its
// models from the entry script (see preload.ts) while the viewer's code is still on its way, and
// the loader (loaders.ts) picks the download up where it is.

import { download as downloadFile } from '../../api/transport.ts';
import { GLB_JSON_START, glbExtensionsUsed, glbJsonLength } from '../../../formats/glb-header.ts';

/** An HTTP answer other than 2xx, or bytes that are not a GLB. */
export class ModelLoadError extends Error {
  override name = 'ModelLoadError';
}

/** A download under way: its bytes, and its progress (0–100) so far. */
export interface Download {
  bytes: Promise<Uint8Array>;
  /**
   * The GLB's `extensionsUsed`, as soon as its JSON chunk has arrived ([] when it has none, or
   * the bytes are not a GLB), so that its decoders start while the rest downloads.
   */
  extensions: Promise<string[]>;
  /** Calls `listener` with each progress figure, starting with the latest; returns an unsubscribe. */
  onProgress(listener: (percent: number) => void): () => void;
}

/**
 * Reads a GLB's `extensionsUsed` from the first pieces of its download, as soon as its JSON
 * chunk is in (the decoders it needs can then start long before the last byte): `add` takes each
 * piece. A download that ends first has none (see `download`).
 */
function extensionsFromStart(found: (extensions: string[]) => void) {
  let head = new Uint8Array(0);
  let told = false;
  const tell = (extensions: string[]) => {
    if (!told) found(extensions);
    told = true;
  };
  return {
    add(chunk: Uint8Array) {
      if (told) return;
      const joined = new Uint8Array(head.byteLength + chunk.byteLength);
      joined.set(head);
      joined.set(chunk, head.byteLength);
      head = joined;
      if (head.byteLength < GLB_JSON_START) return;
      const length = glbJsonLength(head);
      if (length === null) return tell([]);
      if (head.byteLength < GLB_JSON_START + length) return;
      tell(glbExtensionsUsed(head.subarray(GLB_JSON_START, GLB_JSON_START + length)));
      head = new Uint8Array(0);
    },
  };
}

/**
 * `url`'s bytes (no key: a model's address is signed, or public); `report` hears the percentage
 * done when the size is known, `onExtensions` the GLB's extensions once its JSON chunk is in.
 */
async function fetchBytes(
  url: string,
  report: (percent: number) => void,
  onExtensions: (extensions: string[]) => void,
): Promise<Uint8Array> {
  const start = extensionsFromStart(onExtensions);
  try {
    const { bytes } = await downloadFile(url, {
      auth: false,
      onChunk: start.add,
      onProgress: (received, total) => {
        if (total > 0) report(Math.min(100, Math.floor((100 * received) / total)));
      },
    });
    return bytes;
  } catch (err) {
    throw loadError(err);
  }
}

/**
 * What the viewer says of a failed download: an HTTP answer by its status, a failure to connect
 * in the browser's own words. Told by name: the error classes (and zod) stay out of /viewer's
 * early start.
 */
function loadError(err: unknown): unknown {
  const e = (err ?? {}) as {
    name?: string;
    status?: unknown;
    statusText?: unknown;
    cause?: unknown;
  };
  if (e.name === 'APIConnectionError' && e.cause !== undefined) return e.cause;
  if (typeof e.status !== 'number') return err;
  const reason = typeof e.statusText === 'string' && e.statusText ? ` (${e.statusText})` : '';
  return new ModelLoadError(`the server answered ${e.status}${reason}.`);
}

/** Starts fetching `url`'s bytes. */
export function download(url: string): Download {
  const listeners = new Set<(percent: number) => void>();
  let last: number | null = null;
  let found!: (extensions: string[]) => void;
  const extensions = new Promise<string[]>((resolve) => (found = resolve));
  const bytes = fetchBytes(
    url,
    (percent) => {
      last = percent;
      for (const listener of listeners) listener(percent);
    },
    found,
  );
  // Nobody may be waiting yet (a prefetch): a failure is read when the download is taken.
  bytes.then(
    () => found([]),
    () => found([]),
  );
  return {
    bytes,
    extensions,
    onProgress(listener) {
      listeners.add(listener);
      if (last !== null) listener(last);
      return () => listeners.delete(listener);
    },
  };
}

const PREFETCH_KEEP_MS = 60_000;

// Downloads started ahead of the viewer, until the viewer takes them (once each).
const early = new Map<string, Download>();

/** Starts downloading `url` now, for a viewer that will ask for it soon (see `take`). */
export function prefetch(url: string): void {
  if (early.has(url)) return;
  const started = download(url);
  early.set(url, started);
  // Not taken in a minute (the page was left before its viewer came): let it go.
  setTimeout(() => {
    if (early.get(url) === started) early.delete(url);
  }, PREFETCH_KEEP_MS);
}

/** The download of `url` a prefetch started, or a new one. A prefetch is handed out once. */
export function take(url: string): Download {
  const started = early.get(url);
  early.delete(url);
  return started ?? download(url);
}
