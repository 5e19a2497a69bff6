// A model's bytes, fetched with progress, apart from three.js: /viewer starts downloading its
// models from the entry script (see preload.ts) while the viewer's code is still on its way, and
// the loader (loaders.ts) picks the download up where it is.

import { download as downloadFile } from '../../api/transport.ts';

/** An HTTP answer other than 2xx, or bytes that are not a GLB. */
export class ModelLoadError extends Error {
  override name = 'ModelLoadError';
}

/** A download under way: its bytes, and its progress (0–100) so far. */
export interface Download {
  bytes: Promise<Uint8Array>;
  /** Calls `listener` with each progress figure, starting with the latest; returns an unsubscribe. */
  onProgress(listener: (percent: number) => void): () => void;
}

/** `url`'s bytes (no key: a model's address is signed, or public); `report` hears the percentage done when the size is known. */
async function fetchBytes(url: string, report: (percent: number) => void): Promise<Uint8Array> {
  try {
    const { bytes } = await downloadFile(url, {
      auth: false,
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
  const bytes = fetchBytes(url, (percent) => {
    last = percent;
    for (const listener of listeners) listener(percent);
  });
  // Nobody may be waiting yet (a prefetch): a failure is read when the download is taken.
  bytes.catch(() => undefined);
  return {
    bytes,
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
