import { Hono } from 'hono';
import { ERROR_CODES } from '../../contract/index.ts';
import { ApiError } from '../middleware/api-error.ts';
import { serveBlob } from '../serve-blob.ts';
import type { BlobStore } from '../storage/blobs.ts';

const SERVED = {
  glb: { kind: 'assets', contentType: 'model/gltf-binary' },
  webp: { kind: 'thumbnails', contentType: 'image/webp' },
} as const;

/**
 * `/api/assets/{sha256}.glb`: archived models; `/api/assets/{sha256}.webp`: their pictures.
 * Content-addressed, cached forever, ranged.
 */
export function assetRoutes(blobs: BlobStore) {
  const app = new Hono();
  app.get('/:name', async (c) => {
    const match = /^([a-f0-9]{64})\.(glb|webp)$/.exec(c.req.param('name'));
    const ext = match?.[2] as keyof typeof SERVED | undefined;
    const served =
      match && ext
        ? await serveBlob(c, blobs, { ...SERVED[ext], sha256: match[1]!, ext })
        : undefined;
    if (!served)
      throw new ApiError(404, { code: ERROR_CODES.assetNotFound, message: 'No such model.' });
    return served;
  });
  return app;
}
