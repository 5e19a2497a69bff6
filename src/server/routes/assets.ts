import { Hono } from 'hono';
import { ERROR_TYPES } from '../../contract/index.ts';
import { SHA256_RE, type BlobStore } from '../storage/blobs.ts';

/** `/api/assets/{sha256}.glb`: archived models, content-addressed, cached forever. */
export function assetRoutes(blobs: BlobStore) {
  const app = new Hono();
  app.get('/:name', async (c) => {
    const m = /^([a-f0-9]{64})\.glb$/.exec(c.req.param('name'));
    const sha = m?.[1];
    const found = sha && SHA256_RE.test(sha) ? await blobs.open('assets', sha, 'glb') : undefined;
    if (!found)
      return c.json(
        {
          error: { message: 'No such model.', type: ERROR_TYPES.notFound, code: 'asset_not_found' },
        },
        404,
      );
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
