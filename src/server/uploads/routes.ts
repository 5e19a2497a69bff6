import { Hono, type Context } from 'hono';
import sharp from 'sharp';
import { bodyLimit } from 'hono/body-limit';
import { ERROR_CODES, type UploadResult } from '../../contract/index.ts';
import { IMAGE_MAX_BYTES, formatBytes } from '../../formats/index.ts';
import { SafeFetchError } from '../../net/index.ts';
import { ApiError } from '../../http/index.ts';
import { readJson } from '../middleware/boundary.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { sha256Hex, type BlobStore, type StoredBlob } from '../storage/blobs.ts';
import type { Counters } from '../storage/counters.ts';
import type { UploadIndex } from '../storage/uploads.ts';
import { serveBlob } from '../serve-blob.ts';
import { clientAddress } from './client-address.ts';
import { normaliseImage, tooLarge, UploadError } from './normalise-image.ts';
import type { UploadUrlFor } from './url-strategy.ts';

export interface UploadRoutesDeps {
  blobs: BlobStore;
  index: UploadIndex;
  counters: Counters;
  now: () => number;
  /** Uploads per minute per client; 0 = no limit. */
  perMinute: number;
  /** Total bytes of stored uploads before 507 (UPLOAD_QUOTA). */
  quotaBytes: number;
  /** Load balancer hops whose X-Forwarded-For is believed (TRUST_PROXY). */
  trustedProxies?: number;
  /** Names a stored upload for the upstream (see `uploadUrlStrategy`). */
  urlFor: UploadUrlFor;
  /** Largest image accepted, in bytes (default 20 MiB). */
  maxBytes?: number;
  /**
   * Fetches an image someone pasted the address of (`POST /from-url`), under the archive's
   * address policy (public addresses only, size and time capped); throws `SafeFetchError`.
   */
  fetchImage?: (url: string, maxBytes: number) => Promise<Uint8Array>;
  /** This Kiln's other origins (PUBLIC_URL, its listening address): its uploads pasted back. */
  ownOrigins?: () => string[];
  /** Told how each upload ended, and the bytes of a new one (the metrics). */
  onOutcome?: (outcome: 'stored' | 'duplicate' | 'refused' | 'quota_full', bytes?: number) => void;
}

/** The pixel size of an image Kiln stored (already normalised). */
async function sizeOf(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  const meta = await sharp(bytes).metadata();
  return { width: meta.width ?? 0, height: meta.height ?? 0 };
}

/** Room for the multipart envelope (boundaries, part headers, other small fields) over the image cap. */
const MULTIPART_MARGIN = 64 * 1024;

const NAME_RE = /^([a-f0-9]{64})\.(png|jpg|webp)$/;
const MIME_OF: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

/**
 * `/api/uploads`: `POST /` takes one image (multipart/form-data, the field `file` or else the
 * first file, or the raw body with any content type), normalises it and stores it by content;
 * `GET /{sha256}.{ext}` serves it back, immutable. Mount with `app.route('/api/uploads', …)`.
 */
export function uploadRoutes(deps: UploadRoutesDeps): Hono {
  const maxBytes = deps.maxBytes ?? IMAGE_MAX_BYTES;
  const app = new Hono();

  const limit = rateLimit({
    limit: deps.perMinute,
    windowMs: 60_000,
    keyOf: (c) => `upload:${clientAddress(c, deps.trustedProxies ?? 0)}`,
    message: (wait) =>
      `Too many uploads from this address: at most ${deps.perMinute} a minute. Wait ${wait} s and try again.`,
    counters: deps.counters,
    now: deps.now,
  });

  /**
   * Normalises an image, stores it by content and answers 201 with where it is. An upload Kiln
   * stored already (its own address pasted back) is taken as it is: normalising a normalised
   * JPEG again would change its pixels a little each time (issue 23: a photo that works dropped
   * must work pasted).
   */
  async function store(
    c: Context,
    input: Uint8Array,
    fileName: string | null,
    kept?: { ext: string; mime: string },
  ) {
    const image = kept
      ? { ...(await sizeOf(input)), bytes: input, ext: kept.ext, mime: kept.mime }
      : await normaliseImage(input, { maxBytes }).catch((err: unknown) => {
          deps.onOutcome?.('refused');
          throw err;
        });
    // Room is taken before the bytes are stored, atomically across replicas; bytes stored
    // before need none (the same image again is never refused for a full quota).
    const sha256 = sha256Hex(image.bytes);
    const room = await deps.index.reserve(
      sha256,
      image.ext,
      image.bytes.byteLength,
      deps.now(),
      fileName,
      deps.quotaBytes,
    );
    deps.onOutcome?.(
      room === 'full' ? 'quota_full' : room === 'stored' ? 'duplicate' : 'stored',
      room === 'new' ? image.bytes.byteLength : undefined,
    );
    if (room === 'full')
      throw new ApiError(507, {
        code: ERROR_CODES.uploadQuotaExceeded,
        message:
          'Kiln’s storage for uploads is full. Try again later, or ask whoever runs Kiln to raise UPLOAD_QUOTA.',
        param: 'file',
      });
    let stored: StoredBlob;
    try {
      stored = await deps.blobs.put('uploads', image.bytes, image.ext);
    } catch (err) {
      if (room === 'new') await deps.index.forget(sha256).catch(() => {});
      throw err;
    }
    const name = `${stored.sha256}.${image.ext}`;
    const result: UploadResult = {
      url: deps.urlFor({
        sha256: stored.sha256,
        ext: image.ext,
        mime: image.mime,
        bytes: image.bytes,
        origin: new URL(c.req.url).origin,
      }),
      sha256: stored.sha256,
      width: image.width,
      height: image.height,
      bytes: stored.bytes,
    };
    const base = c.req.path.replace(/\/from-url$/, '').replace(/\/+$/, '');
    c.header('Location', `${base}/${name}`);
    return c.json(result, 201);
  }

  app.post(
    '/',
    limit,
    bodyLimit({
      maxSize: maxBytes + MULTIPART_MARGIN,
      onError: (c) => {
        const declared = Number(c.req.header('content-length'));
        const size = Number.isFinite(declared) && declared > 0 ? declared : undefined;
        throw tooLarge(size, maxBytes);
      },
    }),
    async (c) => {
      const { bytes, fileName } = await readUpload(c, maxBytes);
      return store(c, bytes, fileName);
    },
  );

  // An image someone pasted the address of: fetched once, here, under the archive's address
  // policy, checked and stored like an upload. The studio previews it from Kiln (its CSP allows
  // only Kiln's own images) and an address that does not work never costs a create.
  app.post('/from-url', limit, async (c) => {
    const body = await readJson(c, '{ "url": "https://…/photo.jpg" }');
    const url = (body as { url?: unknown } | null)?.url;
    if (typeof url !== 'string' || !/^https?:\/\/\S+$/i.test(url) || !URL.canParse(url))
      throw new ApiError(400, {
        code: ERROR_CODES.invalidValue,
        message: 'The address must be an http or https URL of an image.',
        param: 'url',
      });
    // Kiln's own upload, pasted back: taken from the store as it is, not fetched and
    // re-encoded.
    const own = ownUpload(url, c);
    if (own) {
      const kept = await deps.blobs.get('uploads', own.sha256, own.ext);
      if (kept) return store(c, kept, null, { ext: own.ext, mime: MIME_OF[own.ext]! });
    }
    if (!deps.fetchImage)
      throw new ApiError(503, {
        code: ERROR_CODES.serviceUnavailable,
        message: 'This Kiln does not fetch images by address; upload the file instead.',
      });
    let bytes: Uint8Array;
    try {
      bytes = await deps.fetchImage(url, maxBytes);
    } catch (err) {
      throw new ApiError(400, {
        code: ERROR_CODES.imageDownloadFailed,
        message: fetchProblem(url, err, maxBytes),
        param: 'url',
      });
    }
    // A content-addressed name (an address copied from Kiln itself) names nothing: the name the
    // image was first uploaded with stays.
    const name = safeFileName(lastSegment(url));
    return store(c, bytes, name && !/^[a-f0-9]{64}\.[a-z0-9]+$/i.test(name) ? name : null);
  });

  /** The upload a pasted address names, when it is one of this Kiln's own addresses. */
  function ownUpload(url: string, c: Context): { sha256: string; ext: string } | undefined {
    const parsed = new URL(url);
    const origins = [new URL(c.req.url).origin, deps.ownOrigins?.() ?? []].flat();
    if (!origins.includes(parsed.origin)) return undefined;
    const m = /^\/api\/uploads\/([a-f0-9]{64})\.(png|jpg|webp)$/.exec(parsed.pathname);
    return m ? { sha256: m[1]!, ext: m[2]! } : undefined;
  }

  app.get('/:name', async (c) => {
    const match = NAME_RE.exec(c.req.param('name'));
    const sha = match?.[1];
    const ext = match?.[2];
    const served =
      sha && ext
        ? await serveBlob(c, deps.blobs, {
            kind: 'uploads',
            sha256: sha,
            ext,
            contentType: MIME_OF[ext] ?? 'application/octet-stream',
          })
        : undefined;
    if (!served)
      throw new ApiError(404, {
        code: ERROR_CODES.uploadNotFound,
        message: 'No uploaded image here.',
      });
    return served;
  });

  return app;
}

/**
 * The uploaded file's bytes, a multipart field or the whole body, and the name it came with (a
 * multipart file's name, or `X-File-Name` on a raw body), made safe to show.
 */
async function readUpload(
  c: Context,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; fileName: string | null }> {
  const type = c.req.header('content-type')?.toLowerCase() ?? '';
  if (!type.startsWith('multipart/form-data'))
    return {
      bytes: new Uint8Array(await c.req.raw.arrayBuffer()),
      fileName: safeFileName(decodeHeader(c.req.header('x-file-name'))),
    };

  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch {
    throw new UploadError(
      400,
      'invalid_multipart',
      'The upload form could not be read; send the image as the form field "file" or as the raw request body.',
    );
  }
  const named = form.get('file');
  let file = typeof named === 'string' ? undefined : named;
  if (!file)
    for (const [, value] of form) {
      if (typeof value !== 'string') {
        file = value;
        break;
      }
    }
  if (!file)
    throw new UploadError(
      400,
      'missing_file',
      'The upload has no file; attach the image as the form field "file".',
    );
  if (file.size > maxBytes) throw tooLarge(file.size, maxBytes);
  return { bytes: new Uint8Array(await file.arrayBuffer()), fileName: safeFileName(file.name) };
}

function decodeHeader(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A file name fit to show and to build download names from: the last path segment, control
 * and bidi-override characters removed, at most 120 characters; null when nothing is left.
 */
export function safeFileName(name: string | undefined | null): string | null {
  if (!name) return null;
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (!clean || clean === 'blob') return null;
  return clean.length > 120 ? `${clean.slice(0, 117)}…` : clean;
}

function lastSegment(url: string): string {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Why a pasted address gave no image, in a sentence. An address Kiln will not fetch is refused
 * with the rule, never with what is there (no probing private networks through Kiln).
 */
function fetchProblem(url: string, err: unknown, maxBytes: number): string {
  const code = err instanceof SafeFetchError ? err.code : 'network';
  const at = `The image at ${url.length > 120 ? `${url.slice(0, 117)}…` : url}`;
  switch (code) {
    case 'blocked_address':
    case 'bad_url':
      return `${at} cannot be used: Kiln fetches images only from public http(s) addresses. Download it and upload the file instead.`;
    case 'too_large':
      return `${at} is larger than ${formatBytes(maxBytes)}. Use a smaller image.`;
    case 'timeout':
      return `${at} took too long to arrive. Check the address, or upload the file instead.`;
    case 'http_status':
      return `${at} could not be fetched: the server answered ${(err as SafeFetchError).status ?? 'an error'}. Check the address.`;
    case 'too_many_redirects':
      return `${at} redirects too many times. Use the image's own address.`;
    default:
      return `${at} could not be reached. Check the address, or upload the file instead.`;
  }
}
