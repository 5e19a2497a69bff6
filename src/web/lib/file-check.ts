import {
  IMAGE_MAX_BYTES,
  formatBytes,
  imageKind,
  unusableImageSentence,
} from '../../formats/index.ts';

/** What the studio and the batch take, as their drop zones say it: "PNG, JPEG or WebP up to 20 MB". */
export const ACCEPTED_IMAGES = `PNG, JPEG or WebP up to ${formatBytes(IMAGE_MAX_BYTES)}`;

/**
 * Why a file cannot be uploaded, as a sentence, or null when it can. Checked
 * before any upload: by content (the first bytes), not by name or type.
 */
export async function checkImageFile(file: Blob & { name?: string }): Promise<string | null> {
  const name = file.name ? `“${file.name}”` : 'This file';
  if (file.size === 0) return `${name} is empty.`;
  if (file.size > IMAGE_MAX_BYTES)
    return `${name} is ${formatBytes(file.size)}; the limit is ${formatBytes(IMAGE_MAX_BYTES)}. Export a smaller JPEG or PNG.`;
  const kind = imageKind(new Uint8Array(await file.slice(0, 4096).arrayBuffer()));
  if (kind === 'png' || kind === 'jpeg' || kind === 'webp') return null;
  return unusableImageSentence(kind, { subject: name, accepted: 'a PNG, JPEG or WebP photo' });
}
