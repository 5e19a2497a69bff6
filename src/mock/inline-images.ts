import { ERROR_CODES } from '../contract/index.ts';
import { ApiError } from '../http/index.ts';
import { decodeDataUri } from './fetch-image.ts';
import { refOf } from './inputs.ts';
import type { StoredRequest } from './store.ts';

/**
 * The request as the engine needs it: each inline image (data: URI) decoded once and referred to
 * by its content (`input:sha256`), so the task row stays small and a poll costs the same
 * whatever was sent. The first that cannot be decoded (malformed, over the size limit) is a 400
 * that names the field, thrown before anything is charged or kept.
 */
export function inlineImages(req: {
  image_url?: string | undefined;
  image_urls?: string[] | undefined;
  prompt?: string | undefined;
}): { request: StoredRequest; blobs: Uint8Array[] } {
  const blobs: Uint8Array[] = [];
  const keep = (url: string, param: string) => {
    if (!url.startsWith('data:')) return url;
    let bytes: Uint8Array;
    try {
      bytes = decodeDataUri(url, param);
    } catch (err) {
      throw new ApiError(400, {
        code: ERROR_CODES.invalidValue,
        message: err instanceof Error ? err.message : `${param} could not be decoded.`,
        param,
      });
    }
    blobs.push(bytes);
    return refOf(bytes);
  };
  const request: StoredRequest = {
    ...(req.image_url !== undefined && { image_url: keep(req.image_url, 'image_url') }),
    ...(req.image_urls !== undefined && {
      image_urls: req.image_urls.map((u, i) => keep(u, `image_urls[${i}]`)),
    }),
    ...(req.prompt !== undefined && { prompt: req.prompt }),
  };
  return { request, blobs };
}
