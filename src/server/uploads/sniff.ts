/**
 * What a file is, judged by its first bytes (never by its name or declared type).
 * `accepted` formats are the ones Kiln takes; everything else carries a phrase that
 * finishes the sentence "This file is …" for the person who picked it.
 */
export type Sniffed =
  | { accepted: true; format: 'png' | 'jpeg' | 'webp' }
  | { accepted: false; kind: string; description: string };

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, end));

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) =>
  bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);

/** ISO base media files (HEIC, AVIF, MP4, MOV): `....ftyp` then brands. */
function sniffIsoBmff(bytes: Uint8Array): Sniffed | undefined {
  if (bytes.length < 12 || ascii(bytes, 4, 8) !== 'ftyp') return undefined;
  const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const end = Math.min(bytes.length, Math.max(12, boxSize), 256);
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, at + 4));
  const major = brands[0]!;
  if (major === 'avif' || major === 'avis')
    return { accepted: false, kind: 'avif', description: 'an AVIF image' };
  if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'heif'].includes(major))
    return {
      accepted: false,
      kind: 'heic',
      description: 'a HEIC/HEIF photo (the iPhone format)',
    };
  if (major === 'mif1' || major === 'msf1')
    return brands.includes('avif') || brands.includes('avis')
      ? { accepted: false, kind: 'avif', description: 'an AVIF image' }
      : {
          accepted: false,
          kind: 'heic',
          description: 'a HEIC/HEIF photo (the iPhone format)',
        };
  if (major === 'qt  ')
    return { accepted: false, kind: 'video', description: 'a QuickTime video, not a photo' };
  if (major === 'crx ') return { accepted: false, kind: 'raw', description: 'a Canon RAW photo' };
  return { accepted: false, kind: 'video', description: 'an MP4 video, not a photo' };
}

/** Mostly printable UTF-8 (or ASCII) in the first kilobytes: text of some kind. */
function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 4096);
  let text: string;
  try {
    // A multi-byte character cut at the window's end is not a reason to call it binary.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, lastWholeChar(head)));
  } catch {
    return false;
  }
  let control = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code === 0) return false;
    if (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) control++;
  }
  return control <= text.length / 100;
}

function lastWholeChar(bytes: Uint8Array): number {
  if (bytes.length < 4096) return bytes.length;
  let end = bytes.length;
  // Step back over continuation bytes and the lead byte of a character that may be cut.
  for (let i = 0; i < 4 && end > 0 && (bytes[end - 1]! & 0xc0) === 0x80; i++) end--;
  if (end > 0 && bytes[end - 1]! >= 0xc0) end--;
  return end;
}

export function sniffImage(bytes: Uint8Array): Sniffed {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { accepted: true, format: 'png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { accepted: true, format: 'jpeg' };
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return { accepted: true, format: 'webp' };

  const head4 = bytes.length >= 4 ? ascii(bytes, 0, 4) : '';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(ascii(bytes, 0, 6)))
    return {
      accepted: false,
      kind: 'gif',
      description: 'a GIF image, and GIF is not supported',
    };
  const iso = sniffIsoBmff(bytes);
  if (iso) return iso;
  if (head4 === '%PDF') return { accepted: false, kind: 'pdf', description: 'a PDF document' };
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return {
      accepted: false,
      kind: 'tiff',
      description: 'a TIFF image (or a camera RAW file)',
    };
  if (
    head4.startsWith('BM') &&
    bytes.length >= 18 &&
    [12, 40, 52, 56, 108, 124].includes(bytes[14]! | (bytes[15]! << 8))
  )
    return { accepted: false, kind: 'bmp', description: 'a BMP image' };
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) && bytes.length >= 6 && bytes[4]! > 0)
    return { accepted: false, kind: 'ico', description: 'an icon file (ICO)' };
  if (
    startsWith(bytes, [0xff, 0x0a]) ||
    startsWith(bytes, [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a])
  )
    return { accepted: false, kind: 'jxl', description: 'a JPEG XL image' };
  if (startsWith(bytes, [0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20]))
    return { accepted: false, kind: 'jp2', description: 'a JPEG 2000 image' };
  if (head4 === '8BPS')
    return { accepted: false, kind: 'psd', description: 'a Photoshop document (PSD)' };
  if (head4 === 'glTF')
    return { accepted: false, kind: 'glb', description: 'a 3D model (GLB), not a photo' };
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]))
    return { accepted: false, kind: 'zip', description: 'a ZIP archive' };
  if (startsWith(bytes, [0x1f, 0x8b]))
    return { accepted: false, kind: 'gzip', description: 'a compressed (gzip) file' };
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3]))
    return { accepted: false, kind: 'video', description: 'a video (WebM/MKV), not a photo' };
  if (head4 === 'RIFF')
    return { accepted: false, kind: 'riff', description: 'an audio or video file (RIFF)' };

  if (looksLikeText(bytes)) {
    const text = new TextDecoder().decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
    const lead = text.trimStart().slice(0, 512).toLowerCase();
    if (lead.startsWith('<') && /<svg[\s>]/i.test(text))
      return { accepted: false, kind: 'svg', description: 'an SVG drawing' };
    if (lead.startsWith('<!doctype html') || lead.startsWith('<html'))
      return { accepted: false, kind: 'html', description: 'a web page (HTML)' };
    if (lead.startsWith('data:image/'))
      return {
        accepted: false,
        kind: 'data_uri',
        description: 'a data: URI written as text, not the image itself',
      };
    if (lead.startsWith('{') || lead.startsWith('['))
      return { accepted: false, kind: 'json', description: 'a text file (JSON)' };
    return { accepted: false, kind: 'text', description: 'plain text' };
  }
  return {
    accepted: false,
    kind: 'unknown',
    description: 'not an image Kiln recognises',
  };
}
