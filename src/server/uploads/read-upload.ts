// An upload's bytes and the name it came with, read from the request and made safe to show.
import type { Context } from 'hono';
import { tooLarge, UploadError } from './normalise-image.ts';

/**
 * The uploaded file's bytes, a multipart field or the whole body, and the name it came with (a
 * multipart file's name, or `X-File-Name` on a raw body), made safe to show.
 */
export async function readUpload(
  c: Context,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; fileName: string | null }> {
  const type = c.req.header('content-type')?.toLowerCase() ?? '';
  if (!type.startsWith('multipart/form-data'))
    return {
      bytes: new Uint8Array(await c.req.raw.arrayBuffer()),
      fileName: safeFileName(decodeHeader(c.req.header('x-file-name'))),
    };

  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch {
    throw new UploadError(
      400,
      'invalid_multipart',
      'The upload form could not be read; send the image as the form field "file" or as the raw request body.',
    );
  }
  const named = form.get('file');
  let file = typeof named === 'string' ? undefined : named;
  if (!file)
    for (const [, value] of form) {
      if (typeof value !== 'string') {
        file = value;
        break;
      }
    }
  if (!file)
    throw new UploadError(
      400,
      'missing_file',
      'The upload has no file; attach the image as the form field "file".',
    );
  if (file.size > maxBytes) throw tooLarge(file.size, maxBytes);
  return { bytes: new Uint8Array(await file.arrayBuffer()), fileName: safeFileName(file.name) };
}

function decodeHeader(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A file name fit to show and to build download names from: the last path segment, control
 * and bidi-override characters removed, at most 120 characters; null when nothing is left.
 */
export function safeFileName(name: string | undefined | null): string | null {
  if (!name) return null;
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (!clean || clean === 'blob') return null;
  return clean.length > 120 ? `${clean.slice(0, 117)}…` : clean;
}
