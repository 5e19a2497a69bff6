// Headers of Kiln's own answers that its clients read (no zod: the SPA's transport reads them).

/**
 * A compressed file's size once decoded (Kiln's server compresses GLBs on the way out, so its
 * `Content-Length` would be the compressed size, or absent): a download's progress reads it.
 */
export const DECODED_LENGTH_HEADER = 'Kiln-Decoded-Length';
