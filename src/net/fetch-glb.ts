import { GLB_HEADER_BYTES, readGlbHeader } from '../formats/index.ts';
import { DEFAULT_MAX_BYTES, safeFetch, type SafeFetchOptions } from './safe-fetch.ts';
import { SafeFetchError } from './safe-fetch-error.ts';

export type FetchGlbOptions = Omit<
  SafeFetchOptions,
  'accept' | 'userAgent' | 'checkHead' | 'headBytes' | 'checkBody'
>;

/**
 * A generation's GLB, SSRF-safely (see `safeFetch`): the body must be a binary glTF 2.0 whose
 * header's length is within the cap (checked on the first 12 bytes, before the rest is read)
 * and matches the body. Rejects with `SafeFetchError` (`bad_body` for anything not a GLB).
 */
export async function fetchGlbSafely(
  url: string,
  options: FetchGlbOptions = {},
): Promise<Uint8Array> {
  const fetched = await safeFetch(url, {
    ...options,
    accept: 'model/gltf-binary, application/octet-stream;q=0.9, */*;q=0.1',
    userAgent: 'kiln-archiver',
    headBytes: GLB_HEADER_BYTES,
    checkHead: (head) => {
      const header = readGlbHeader(head);
      if (!header.ok) return `the body ${header.message}`;
      const max = options.maxBytes ?? DEFAULT_MAX_BYTES;
      if (header.length > max)
        throw new SafeFetchError(
          'too_large',
          `the GLB declares ${header.length} bytes, over ${max}`,
        );
      return undefined;
    },
    checkBody: (body) => {
      const header = readGlbHeader(body);
      if (header.ok && header.length !== body.byteLength)
        return `the GLB header declares ${header.length} bytes, the body has ${body.byteLength}`;
      return undefined;
    },
  });
  return fetched.bytes;
}
