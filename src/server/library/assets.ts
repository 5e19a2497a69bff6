import { Hono } from 'hono';
import { ERROR_CODES } from '../../contract/index.ts';
import { ApiError } from '../middleware/api-error.ts';
import { SHA256_RE, type BlobStore } from '../storage/blobs.ts';

/** `/api/assets/{sha256}.glb`: archived models, content-addressed, cached forever. */
export function assetRoutes(blobs: BlobStore) {
  const app = new Hono();
  app.get('/:name', async (c) => {
    const m = /^([a-f0-9]{64})\.glb$/.exec(c.req.param('name'));
    const sha = m?.[1];
    const found = sha && SHA256_RE.test(sha) ? await blobs.open('assets', sha, 'glb') : undefined;
    if (!found)
      throw new ApiError(404, { code: ERROR_CODES.assetNotFound, message: 'No such model.' });
    return new Response(found.stream, {
      headers: {
        'content-type': 'model/gltf-binary',
        'content-length': String(found.bytes),
        'cache-control': 'public, max-age=31536000, immutable',
        etag: `"${sha}"`,
      },
    });
  });
  return app;
}
