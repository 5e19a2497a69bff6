import { Hono } from 'hono';
import { ERROR_CODES } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import type { ModelFiles } from '../model-files.ts';

/** The GLB behind data.model_url: no Authorization needed (spec 2.1). Unguessable task ids. */
export function fileRoutes(files: ModelFiles) {
  return new Hono().get('/files/:file{[A-Za-z0-9_-]+\\.glb}', async (c) => {
    const id = c.req.param('file').replace(/\.glb$/, '');
    const glb = await files.read(id);
    if (!glb)
      throw new ApiError(404, { code: ERROR_CODES.fileNotFound, message: 'No model file here.' });
    return c.body(glb as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'model/gltf-binary',
      'Content-Length': String(glb.byteLength),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Disposition': `inline; filename="${id}.glb"`,
    });
  });
}
