import { Hono } from 'hono';
import { ERROR_CODES } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { libraryKeyOf, type OwnerOf } from '../owner-id.ts';
import { serveBlob } from '../serve-blob.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { LibraryStore } from '../storage/library.ts';
import type { AssetSigner } from './asset-access.ts';

const SERVED = {
  glb: { kind: 'assets', contentType: 'model/gltf-binary' },
  webp: { kind: 'thumbnails', contentType: 'image/webp' },
} as const;

export interface AssetRouteDeps {
  blobs: BlobStore;
  store: Pick<LibraryStore, 'ownsAsset'>;
  ownerOf: OwnerOf;
  signer: AssetSigner;
}

/**
 * `/api/assets/{sha256}.glb`: archived models; `/api/assets/{sha256}.webp`: their pictures. The
 * owner's only (decision 0077): with a signed address Kiln gave out (library entries), or with
 * the key of an owner whose library holds the file. A bare hash answers 404, as a file that is
 * not there does. Ranged; cached privately, for as long as the signature lasts.
 */
export function assetRoutes(deps: AssetRouteDeps) {
  const app = new Hono();
  app.get('/:name', async (c) => {
    const name = c.req.param('name');
    const match = /^([a-f0-9]{64})\.(glb|webp)$/.exec(name);
    const ext = match?.[2] as keyof typeof SERVED | undefined;
    const notFound = () =>
      new ApiError(404, {
        code: ERROR_CODES.assetNotFound,
        message:
          'No such model here for you. Open it from your library (its address is signed), or send your key.',
      });
    if (!match || !ext) throw notFound();
    const sha256 = match[1]!;
    const signedFor = deps.signer.validFor(
      `/api/assets/${name}`,
      c.req.query('exp'),
      c.req.query('sig'),
    );
    if (signedFor === 0) {
      const key = libraryKeyOf((name) => c.req.header(name));
      if (!key || !(await deps.store.ownsAsset(deps.ownerOf(key), sha256, ext))) throw notFound();
    }
    const served = await serveBlob(c, deps.blobs, {
      ...SERVED[ext],
      sha256,
      ext,
      cacheControl: signedFor > 0 ? `private, max-age=${signedFor}` : 'private, no-cache',
    });
    if (!served) throw notFound();
    return served;
  });
  return app;
}
