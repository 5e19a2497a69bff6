// A photo on disk or at an address, checked before anything is sent (a missing file, a HEIC, a
// file over 20 MB is a UsageError naming it) and handed to Kiln: a file through `POST
// /api/uploads` with its own name (the library and the file names read it), an address through
// `POST /api/uploads/from-url`.
import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { KilnApi } from '../client/kiln/index.ts';
import {
  formatBytes,
  IMAGE_MAX_BYTES,
  imageKind,
  unusableImageSentence,
  type ImageKind,
} from '../formats/index.ts';
import { UsageError } from './exit.ts';

/** The image kinds Kiln takes, with the type an upload says. */
const TYPES: Partial<Record<ImageKind, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/** A file name a batch takes as a photo. */
export const PHOTO_FILE = /\.(png|jpe?g|webp)$/i;

export interface Photo {
  /** The path as given. */
  path: string;
  name: string;
  bytes: Uint8Array;
  type: string;
}

/** The photo at `path` (read against `cwd`), checked; `field` names it in a UsageError. */
export function readPhotoFile(path: string, cwd: string, field: string): Photo {
  const full = resolve(cwd, path);
  let size: number;
  try {
    const stat = statSync(full);
    if (!stat.isFile()) throw new UsageError(field, `"${path}" is not a file.`);
    size = stat.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(field, `"${path}": no such file.`);
  }
  if (size > IMAGE_MAX_BYTES)
    throw new UsageError(
      field,
      `"${path}" is ${formatBytes(size)}; Kiln takes photos up to ${formatBytes(IMAGE_MAX_BYTES)}.`,
    );
  const buffer = readFileSync(full);
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const kind = imageKind(bytes);
  const type = TYPES[kind];
  if (!type) throw new UsageError(field, unusableImageSentence(kind, { subject: `"${path}"` }));
  return { path, name: basename(full), bytes, type };
}

/** An image address as given to --url: http or https, else a UsageError. */
export function checkImageUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError('--url', `"${value}" is not an address (https://…).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError('--url', `"${value}" is not an http or https address.`);
  return url.href;
}

/** The address the upstream fetches a photo from: Kiln's stored copy. */
export async function sendPhoto(api: KilnApi, photo: Photo, signal?: AbortSignal): Promise<string> {
  const uploaded = await api.upload(photo.bytes, photo.name, photo.type, { signal });
  return uploaded.url;
}

/** An image address, fetched and kept by Kiln (public addresses only): its stored copy's URL. */
export async function sendImageUrl(api: KilnApi, url: string): Promise<string> {
  return (await api.uploadFromUrl(url)).url;
}
