/** 'glTF' read as a little-endian uint32. */
const GLB_MAGIC = 0x46546c67;
export const GLB_HEADER_BYTES = 12;

export type GlbHeader =
  | { ok: true; version: 2; length: number }
  | { ok: false; problem: 'too_short' | 'not_glb' | 'bad_length'; message: string }
  | { ok: false; problem: 'bad_version'; version: number; message: string };

/** Whether the bytes start with the glTF magic (they may still be shorter than a header). */
export function hasGlbMagic(bytes: Uint8Array): boolean {
  return (
    bytes.byteLength >= 4 &&
    new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) === GLB_MAGIC
  );
}

/**
 * Reads the 12-byte header of a binary glTF (magic, version, total length): Kiln's one reader
 * of it (the server's archive, the viewer's loader and facts). `ok` only for version 2 with a
 * length of at least the header; whether the length matches the body is the caller's check (it
 * may have only the first bytes).
 */
export function readGlbHeader(bytes: Uint8Array): GlbHeader {
  if (bytes.byteLength < GLB_HEADER_BYTES)
    return { ok: false, problem: 'too_short', message: 'shorter than a GLB header (12 bytes)' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, GLB_HEADER_BYTES);
  if (!hasGlbMagic(bytes))
    return { ok: false, problem: 'not_glb', message: 'does not start with the glTF magic' };
  const version = view.getUint32(4, true);
  if (version !== 2)
    return {
      ok: false,
      problem: 'bad_version',
      version,
      message: `is GLB version ${version}, not 2`,
    };
  const length = view.getUint32(8, true);
  if (length < GLB_HEADER_BYTES)
    return { ok: false, problem: 'bad_length', message: `declares an impossible length ${length}` };
  return { ok: true, version: 2, length };
}

/** Where a GLB's first chunk (its JSON) starts: right after the 12-byte header and its 8-byte chunk header. */
export const GLB_JSON_START = GLB_HEADER_BYTES + 8;
/** 'JSON' read as a little-endian uint32: the first chunk's type. */
const JSON_CHUNK = 0x4e4f534a;

/**
 * The length of a GLB's JSON chunk, from its first 20 bytes (the header and the chunk's own
 * header), or null when they do not start a version 2 GLB whose first chunk is JSON.
 */
export function glbJsonLength(first: Uint8Array): number | null {
  if (first.byteLength < GLB_JSON_START || !readGlbHeader(first).ok) return null;
  const view = new DataView(first.buffer, first.byteOffset, GLB_JSON_START);
  if (view.getUint32(16, true) !== JSON_CHUNK) return null;
  return view.getUint32(12, true);
}

/**
 * The `extensionsUsed` of a GLB's JSON chunk (its bytes alone), or [] when it names none or is
 * not JSON.
 */
export function glbExtensionsUsed(json: Uint8Array): string[] {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(json)) as { extensionsUsed?: unknown };
    const used = parsed.extensionsUsed;
    return Array.isArray(used) ? used.filter((e): e is string => typeof e === 'string') : [];
  } catch {
    return [];
  }
}
