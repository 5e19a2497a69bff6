import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { Context } from 'hono';
import { DECODED_LENGTH_HEADER } from '../contract/headers.ts';
import type { BlobKind, BlobStore, ByteRange } from './storage/blobs.ts';

type RangeRequest = ByteRange | { suffix: number };

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` (one range; anything else is served whole). */
function parseRange(header: string | undefined): RangeRequest | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') return { suffix: Number(m[2]) };
  const start = Number(m[1]);
  const end = m[2] === '' ? Number.MAX_SAFE_INTEGER : Number(m[2]);
  return end < start ? undefined : { start, end };
}

/**
 * Content types worth compressing on the way out: a GLB's buffers are mostly raw numbers
 * (a 6.3 MB mesh is 1.2 MB as brotli), which on a phone's network is most of the wait.
 */
const COMPRESSIBLE = new Set(['model/gltf-binary']);
/** A blob smaller than this goes out as it is. */
const COMPRESS_FROM = 1024;

/** The encoding to send a client with this `Accept-Encoding`: brotli, else gzip, else none. */
export function pickEncoding(accept: string | undefined): 'br' | 'gzip' | undefined {
  const offered = new Map<string, number>();
  for (const part of (accept ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (name) offered.set(name, q === undefined ? 1 : Number(q));
  }
  const accepts = (name: string) => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  return accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : undefined;
}

/** A stream compressed as `encoding` (brotli at quality 4: about 37 ms a megabyte here). */
function compressed(
  stream: ReadableStream<Uint8Array>,
  encoding: 'br' | 'gzip',
  bytes: number,
): ReadableStream<Uint8Array> {
  const coder =
    encoding === 'br'
      ? createBrotliCompress({
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 4,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
          },
        })
      : createGzip({ level: 5 });
  const source = Readable.fromWeb(stream as NodeReadableStream<Uint8Array>);
  return Readable.toWeb(source.pipe(coder)) as ReadableStream<Uint8Array>;
}

/**
 * A content-addressed blob as an immutable HTTP resource, from whichever store holds it: ETag the
 * SHA-256 (If-None-Match → 304 without reading it), Range → 206 with Content-Range (416 past
 * the end), cached for good. Undefined when there is no such blob.
 */
export async function serveBlob(
  c: Context,
  blobs: BlobStore,
  blob: {
    kind: BlobKind;
    sha256: string;
    ext: string;
    contentType: string;
    /** Default: public and immutable (a content-addressed file anybody may have). */
    cacheControl?: string;
    /** Default: the SHA-256. A share's files use one that does not tell the hash. */
    etag?: string;
  },
): Promise<Response | undefined> {
  const etag = `"${blob.etag ?? blob.sha256}"`;
  const headers: Record<string, string> = {
    'Content-Type': blob.contentType,
    'Cache-Control': blob.cacheControl ?? 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
    'Accept-Ranges': 'bytes',
    ETag: etag,
  };
  const cached = c.req
    .header('if-none-match')
    ?.split(/\s*,\s*/)
    .some((t) => t === etag || t === `W/${etag}`);
  // Content-addressed: a client holding this ETag holds these very bytes.
  if (cached) return c.body(null, 304, headers);
  const ifRange = c.req.header('if-range');
  const wanted =
    ifRange === undefined || ifRange === etag ? parseRange(c.req.header('range')) : undefined;
  let range: ByteRange | undefined;
  if (wanted && 'suffix' in wanted) {
    // The last n bytes: the size comes with a first open.
    const whole = await blobs.open(blob.kind, blob.sha256, blob.ext);
    if (!whole) return undefined;
    await whole.stream.cancel();
    range = { start: Math.max(0, whole.bytes - wanted.suffix), end: whole.bytes - 1 };
    if (wanted.suffix === 0) range = { start: whole.bytes, end: whole.bytes }; // unsatisfiable
  } else range = wanted;
  const opened = await blobs.open(blob.kind, blob.sha256, blob.ext, range);
  if (!opened) return undefined;
  if (range && !opened.range) {
    await opened.stream.cancel();
    return c.body(null, 416, { ...headers, 'Content-Range': `bytes */${opened.bytes}` });
  }
  if (opened.range) {
    const { start, end } = opened.range;
    headers['Content-Range'] = `bytes ${start}-${end}/${opened.bytes}`;
    headers['Content-Length'] = String(end - start + 1);
    return c.body(opened.stream, 206, headers);
  }
  const encoding =
    COMPRESSIBLE.has(blob.contentType) && opened.bytes >= COMPRESS_FROM
      ? pickEncoding(c.req.header('accept-encoding'))
      : undefined;
  if (!encoding) {
    headers['Content-Length'] = String(opened.bytes);
    if (COMPRESSIBLE.has(blob.contentType)) headers.Vary = 'Accept-Encoding';
    return c.body(opened.stream, 200, headers);
  }
  // Compressed on the way out: the same bytes, so a weak tag (which If-None-Match matches), and
  // the decoded size for a download's progress. Ranges are served as they are stored.
  headers['Content-Encoding'] = encoding;
  headers.Vary = 'Accept-Encoding';
  headers.ETag = `W/${etag}`;
  headers[DECODED_LENGTH_HEADER] = String(opened.bytes);
  return c.body(compressed(opened.stream, encoding, opened.bytes), 200, headers);
}
