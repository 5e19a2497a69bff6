import { IMAGE_MAX_BYTES, imageKind, unusableImageSentence } from '../../formats/index.ts';

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * Why a file cannot be uploaded, as a sentence, or null when it can. Checked
 * before any upload: by content (the first bytes), not by name or type.
 */
export async function checkImageFile(file: Blob & { name?: string }): Promise<string | null> {
  const name = file.name ? `“${file.name}”` : 'This file';
  if (file.size === 0) return `${name} is empty.`;
  if (file.size > IMAGE_MAX_BYTES)
    return `${name} is ${sizeText(file.size)}; the limit is ${sizeText(IMAGE_MAX_BYTES)}. Export a smaller JPEG or PNG.`;
  const kind = imageKind(new Uint8Array(await file.slice(0, 4096).arrayBuffer()));
  if (kind === 'png' || kind === 'jpeg' || kind === 'webp') return null;
  return unusableImageSentence(kind, { subject: name, accepted: 'a PNG, JPEG or WebP photo' });
}
