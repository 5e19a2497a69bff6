/** Largest file the server takes (`POST /api/uploads`). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

export type ImageKind = 'png' | 'jpeg' | 'webp';

/** What the first bytes say a file is. */
export function sniff(head: Uint8Array): ImageKind | 'heic' | 'gif' | 'svg' | 'pdf' | 'unknown' {
  const b = (i: number) => head[i] ?? -1;
  const ascii = (from: number, to: number) => String.fromCharCode(...head.slice(from, to));
  if (b(0) === 0x89 && ascii(1, 4) === 'PNG') return 'png';
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'jpeg';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(4, 8) === 'ftyp' && /^(hei|hev|mif|msf|avi)/.test(ascii(8, 12))) return 'heic';
  if (ascii(0, 4) === 'GIF8') return 'gif';
  if (ascii(0, 5) === '%PDF-') return 'pdf';
  if (/<svg|<\?xml/i.test(ascii(0, Math.min(head.length, 256)))) return 'svg';
  return 'unknown';
}

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
  if (file.size > MAX_UPLOAD_BYTES)
    return `${name} is ${sizeText(file.size)}; the limit is ${sizeText(MAX_UPLOAD_BYTES)}. Export a smaller JPEG or PNG.`;
  const kind = sniff(new Uint8Array(await file.slice(0, 512).arrayBuffer()));
  switch (kind) {
    case 'png':
    case 'jpeg':
    case 'webp':
      return null;
    case 'heic':
      return `${name} is a HEIC/HEIF photo, which Kiln can’t read. Export it as JPEG or PNG (on iPhone: Settings → Camera → Formats → Most Compatible).`;
    case 'gif':
      return `${name} is a GIF. Use a PNG, JPEG or WebP photo.`;
    case 'svg':
      return `${name} is an SVG drawing, not a photo. Use a PNG, JPEG or WebP image.`;
    case 'pdf':
      return `${name} is a PDF, not an image. Use a PNG, JPEG or WebP photo.`;
    default:
      return `${name} is not an image Kiln can use. Use a PNG, JPEG or WebP photo.`;
  }
}
