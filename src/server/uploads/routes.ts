import { Hono, type Context } from 'hono';
import type { BlankEnv } from 'hono/types';
import { bodyLimit } from 'hono/body-limit';
import { ERROR_CODES } from '../../contract/index.ts';
import { IMAGE_MAX_BYTES } from '../../formats/index.ts';
import { ApiError } from '../../http/index.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { serveBlob } from '../serve-blob.ts';
import { clientAddress } from './client-address.ts';
import { fromUrlRoute } from './from-url.ts';
import { tooLarge } from './normalise-image.ts';
import { readUpload } from './read-upload.ts';
import type { UploadRoutesDeps } from './route-deps.ts';
import { MIME_OF, storeUpload } from './store-upload.ts';

export type { UploadRoutesDeps } from './route-deps.ts';

/** Room for the multipart envelope (boundaries, part headers, other small fields) over the image cap. */
const MULTIPART_MARGIN = 64 * 1024;

const NAME_RE = /^([a-f0-9]{64})\.(png|jpg|webp)$/;

/** `POST /`: one image, multipart (the field `file`, or else the first file) or the raw body. */
function uploadRoute(deps: UploadRoutesDeps, maxBytes: number) {
  return async (c: Context) => {
    const { bytes, fileName } = await readUpload(c, maxBytes);
    return storeUpload(deps, maxBytes, c, bytes, fileName);
  };
}

/** `GET /{sha256}.{ext}`: a stored upload, immutable; anything else is the same 404. */
function fileRoute(deps: UploadRoutesDeps) {
  return async (c: Context<BlankEnv, '/:name'>) => {
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
  };
}

/**
 * `/api/uploads`: `POST /` takes one image (multipart/form-data, the field `file` or else the
 * first file, or the raw body with any content type), normalises it and stores it by content
 * (store-upload.ts); `POST /from-url` fetches a pasted address once and stores it likewise
 * (from-url.ts); `GET /{sha256}.{ext}` serves it back, immutable. Mount with
 * `app.route('/api/uploads', …)`.
 */
export function uploadRoutes(deps: UploadRoutesDeps): Hono {
  const maxBytes = deps.maxBytes ?? IMAGE_MAX_BYTES;
  const limit = rateLimit({
    limit: deps.perMinute,
    windowMs: 60_000,
    keyOf: (c) => `upload:${clientAddress(c, deps.trustedProxies ?? 0)}`,
    message: (wait) =>
      `Too many uploads from this address: at most ${deps.perMinute} a minute. Wait ${wait} s and try again.`,
    counters: deps.counters,
    now: deps.now,
  });
  const sizeLimit = bodyLimit({
    maxSize: maxBytes + MULTIPART_MARGIN,
    onError: (c) => {
      const declared = Number(c.req.header('content-length'));
      const size = Number.isFinite(declared) && declared > 0 ? declared : undefined;
      throw tooLarge(size, maxBytes);
    },
  });
  return new Hono()
    .post('/', limit, sizeLimit, uploadRoute(deps, maxBytes))
    .post('/from-url', limit, fromUrlRoute(deps, maxBytes))
    .get('/:name', fileRoute(deps));
}
