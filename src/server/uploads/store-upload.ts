// An upload stored: normalised (or taken as it is), room reserved under the quota, stored by
// content, and answered 201 with where it is.
import type { Context } from 'hono';
import sharp from 'sharp';
import { ERROR_CODES, type UploadResult } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { sha256Hex, type StoredBlob } from '../storage/blobs.ts';
import { normaliseImage } from './normalise-image.ts';
import type { UploadRoutesDeps } from './route-deps.ts';

/** The content types of the images Kiln stores, by extension. */
export const MIME_OF: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
};

/** An image ready to store: its bytes, its pixel size, how it is named and served. */
interface ReadyImage {
  bytes: Uint8Array;
  width: number;
  height: number;
  ext: string;
  mime: string;
}

/** The pixel size of an image Kiln stored (already normalised). */
async function sizeOf(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  const meta = await sharp(bytes).metadata();
  return { width: meta.width ?? 0, height: meta.height ?? 0 };
}

/** `input` normalised, or as it is when `kept` says Kiln stored it already; a refusal is counted. */
async function readyImage(
  deps: UploadRoutesDeps,
  maxBytes: number,
  input: Uint8Array,
  kept?: { ext: string; mime: string },
): Promise<ReadyImage> {
  if (kept) return { ...(await sizeOf(input)), bytes: input, ext: kept.ext, mime: kept.mime };
  return normaliseImage(input, { maxBytes }).catch((err: unknown) => {
    deps.onOutcome?.('refused');
    throw err;
  });
}

/**
 * Room for the image, taken before the bytes are stored, atomically across replicas; bytes
 * stored before need none (the same image again is never refused for a full quota). A full
 * quota is the 507 that says so.
 */
async function reserveRoom(
  deps: UploadRoutesDeps,
  image: ReadyImage,
  sha256: string,
  fileName: string | null,
) {
  const size = image.bytes.byteLength;
  const room = await deps.index.reserve(
    sha256,
    image.ext,
    size,
    deps.now(),
    fileName,
    deps.quotaBytes,
  );
  deps.onOutcome?.(
    room === 'full' ? 'quota_full' : room === 'stored' ? 'duplicate' : 'stored',
    room === 'new' ? size : undefined,
  );
  if (room === 'full')
    throw new ApiError(507, {
      code: ERROR_CODES.uploadQuotaExceeded,
      message:
        'Kiln’s storage for uploads is full. Try again later, or ask whoever runs Kiln to raise UPLOAD_QUOTA.',
      param: 'file',
    });
  return room;
}

/** The 201 that says where the stored image is, and the address the upstream is given. */
function created(deps: UploadRoutesDeps, c: Context, image: ReadyImage, stored: StoredBlob) {
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
  c.header('Location', `${base}/${stored.sha256}.${image.ext}`);
  return c.json(result, 201);
}

/**
 * Normalises an image, stores it by content and answers 201 with where it is. An upload Kiln
 * stored already (its own address pasted back) is taken as it is: normalising a normalised
 * JPEG again would change its pixels a little each time (issue 23: a photo that works dropped
 * must work pasted).
 */
export async function storeUpload(
  deps: UploadRoutesDeps,
  maxBytes: number,
  c: Context,
  input: Uint8Array,
  fileName: string | null,
  kept?: { ext: string; mime: string },
) {
  const image = await readyImage(deps, maxBytes, input, kept);
  const sha256 = sha256Hex(image.bytes);
  const room = await reserveRoom(deps, image, sha256, fileName);
  let stored: StoredBlob;
  try {
    stored = await deps.blobs.put('uploads', image.bytes, image.ext);
  } catch (err) {
    if (room === 'new') await deps.index.forget(sha256).catch(() => {});
    throw err;
  }
  return created(deps, c, image, stored);
}
