import { Hono } from 'hono';
import { ERROR_CODES } from '../../contract/index.ts';
import { ApiError } from '../middleware/api-error.ts';
import { serveBlob } from '../serve-blob.ts';
import type { BlobStore } from '../storage/blobs.ts';

/** `/api/assets/{sha256}.glb`: archived models, content-addressed, cached forever, ranged. */
export function assetRoutes(blobs: BlobStore) {
  const app = new Hono();
  app.get('/:name', async (c) => {
    const sha = /^([a-f0-9]{64})\.glb$/.exec(c.req.param('name'))?.[1];
    const served = sha
      ? await serveBlob(c, blobs, {
          kind: 'assets',
          sha256: sha,
          ext: 'glb',
          contentType: 'model/gltf-binary',
        })
      : undefined;
    if (!served)
      throw new ApiError(404, { code: ERROR_CODES.assetNotFound, message: 'No such model.' });
    return served;
  });
  return app;
}
