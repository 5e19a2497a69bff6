import { ascii, startsWith } from './bytes.ts';

/** What a file's first bytes say it is. */
export type ImageKind =
  | 'png'
  | 'jpeg'
  | 'webp'
  | 'gif'
  | 'ktx2'
  | 'avif'
  | 'heic'
  | 'tiff'
  | 'bmp'
  | 'ico'
  | 'jxl'
  | 'jp2'
  | 'psd'
  | 'raw'
  | 'svg'
  | 'pdf'
  | 'html'
  | 'data_uri'
  | 'json'
  | 'text'
  | 'glb'
  | 'zip'
  | 'gzip'
  | 'video'
  | 'riff'
  | 'unknown';

/**
 * A noun phrase for each kind that finishes the sentence "This file is …", the same words
 * wherever Kiln describes a file: the studio before an upload, the server's upload answer, the
 * generator's refusal, the viewer's facts.
 */
export const KIND_DESCRIPTIONS: Readonly<Record<ImageKind, string>> = {
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  webp: 'a WebP image',
  gif: 'a GIF image',
  ktx2: 'a KTX2 texture',
  avif: 'an AVIF image',
  heic: 'a HEIC/HEIF photo (the iPhone format)',
  tiff: 'a TIFF image (or a camera RAW file)',
  bmp: 'a BMP image',
  ico: 'an icon file (ICO)',
  jxl: 'a JPEG XL image',
  jp2: 'a JPEG 2000 image',
  psd: 'a Photoshop document (PSD)',
  raw: 'a camera RAW photo',
  svg: 'an SVG drawing',
  pdf: 'a PDF document',
  html: 'a web page (HTML)',
  data_uri: 'a data: URI written as text, not the image itself',
  json: 'a text file (JSON)',
  text: 'plain text',
  glb: 'a 3D model (GLB), not a photo',
  zip: 'a ZIP archive',
  gzip: 'a compressed (gzip) file',
  video: 'a video, not a photo',
  riff: 'an audio or video file (RIFF)',
  unknown: 'not an image Kiln recognises',
};

/** How to get from a kind Kiln cannot use to one it can, where there is more to say than "convert it". */
const ADVICE: Partial<Record<ImageKind, string>> = {
  heic: 'Export it as JPEG or PNG (on iPhone: Settings → Camera → Formats → Most Compatible).',
  gif: 'Save the frame you want as a PNG.',
  svg: 'Export the drawing as a PNG.',
  pdf: 'Export the page as a PNG or JPEG.',
  raw: 'Export it from your photo editor as a JPEG.',
  data_uri: 'Paste it as an image URL, or save the image itself.',
};

const KTX2_IDENTIFIER = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];

/** Identifies a file by its first bytes (never by its name or declared type); 4 KB are enough. */
export function imageKind(bytes: Uint8Array): ImageKind {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP')
    return 'webp';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(ascii(bytes, 0, 6))) return 'gif';
  if (startsWith(bytes, KTX2_IDENTIFIER)) return 'ktx2';
  const iso = isoMediaKind(bytes);
  if (iso) return iso;
  const head4 = ascii(bytes, 0, 4);
  if (head4 === '%PDF') return 'pdf';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'tiff';
  if (
    head4.startsWith('BM') &&
    bytes.length >= 18 &&
    [12, 40, 52, 56, 108, 124].includes(bytes[14]! | (bytes[15]! << 8))
  )
    return 'bmp';
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) && bytes.length >= 6 && bytes[4]! > 0)
    return 'ico';
  if (
    startsWith(bytes, [0xff, 0x0a]) ||
    startsWith(bytes, [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a])
  )
    return 'jxl';
  if (startsWith(bytes, [0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20])) return 'jp2';
  if (head4 === '8BPS') return 'psd';
  if (head4 === 'glTF') return 'glb';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (startsWith(bytes, [0x1f, 0x8b])) return 'gzip';
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'video'; // WebM, MKV
  if (head4 === 'RIFF') return 'riff';
  return textKind(bytes) ?? 'unknown';
}

/** ISO base media files (HEIC, AVIF, MP4, MOV, CR3): `....ftyp` then brands. */
function isoMediaKind(bytes: Uint8Array): ImageKind | undefined {
  if (bytes.length < 12 || ascii(bytes, 4, 4) !== 'ftyp') return undefined;
  const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const end = Math.min(bytes.length, Math.max(12, boxSize), 256);
  const brands = [ascii(bytes, 8, 4)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, 4));
  const major = brands[0]!;
  if (major === 'avif' || major === 'avis') return 'avif';
  if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'heif'].includes(major))
    return 'heic';
  if (major === 'mif1' || major === 'msf1')
    return brands.includes('avif') || brands.includes('avis') ? 'avif' : 'heic';
  if (major === 'crx ') return 'raw';
  return 'video';
}

/** Mostly printable UTF-8 in the first 4 KB: which kind of text, or undefined for binary. */
function textKind(bytes: Uint8Array): ImageKind | undefined {
  const head = bytes.subarray(0, 4096);
  let text: string;
  try {
    // A multi-byte character cut at the window's end is not a reason to call it binary.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, lastWholeChar(head)));
  } catch {
    return undefined;
  }
  if (text.length === 0) return undefined;
  let control = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code === 0) return undefined;
    if (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) control++;
  }
  if (control > text.length / 100) return undefined;
  const lead = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 512)
    .toLowerCase();
  if (lead.startsWith('<') && /<svg[\s>]/i.test(text)) return 'svg';
  if (lead.startsWith('<!doctype html') || lead.startsWith('<html')) return 'html';
  if (lead.startsWith('data:image/')) return 'data_uri';
  if (lead.startsWith('{') || lead.startsWith('[')) return 'json';
  return 'text';
}

function lastWholeChar(bytes: Uint8Array): number {
  if (bytes.length < 4096) return bytes.length;
  let end = bytes.length;
  // Step back over continuation bytes and the lead byte of a character that may be cut.
  for (let i = 0; i < 4 && end > 0 && (bytes[end - 1]! & 0xc0) === 0x80; i++) end--;
  if (end > 0 && bytes[end - 1]! >= 0xc0) end--;
  return end;
}

/**
 * The one sentence for a file of a kind the reader cannot use, e.g. "This file is a HEIC/HEIF
 * photo (the iPhone format); use a PNG, JPEG or WebP image. Export it as JPEG or PNG (…)."
 * `subject` replaces "This file" (a file name in quotes, say); `accepted` names what works.
 */
export function unusableImageSentence(
  kind: ImageKind,
  options: { subject?: string; accepted?: string } = {},
): string {
  const subject = options.subject ?? 'This file';
  const accepted = options.accepted ?? 'a PNG, JPEG or WebP image';
  const advice = ADVICE[kind];
  return `${subject} is ${KIND_DESCRIPTIONS[kind]}; use ${accepted}.${advice ? ` ${advice}` : ''}`;
}
