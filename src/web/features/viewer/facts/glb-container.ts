// The GLB container: its 12-byte header, the JSON and BIN chunks, and the JSON helpers the
// other readers share. Pure.
import { GLB_HEADER_BYTES, hasGlbMagic, readGlbHeader } from '../../../../formats/index.ts';

/** The bytes are not a GLB this module can read. The message says what is wrong. */
export class GlbFormatError extends Error {
  override name = 'GlbFormatError';
}

const CHUNK_JSON = 0x4e4f534a; // 'JSON'
const CHUNK_BIN = 0x004e4942; // 'BIN\0'
const CHUNK_HEADER_BYTES = 8;

interface Container {
  json: Json;
  bin: Uint8Array | null;
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function objectAt(array: unknown, index: unknown): Json | undefined {
  if (!Array.isArray(array) || !isIndex(index)) return undefined;
  const value: unknown = array[index];
  return isObject(value) ? value : undefined;
}

export function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

export function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function string(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function numbers(value: unknown, length: number): number[] | undefined {
  if (!Array.isArray(value) || value.length < length) return undefined;
  const out = value.slice(0, length);
  return out.every((v) => typeof v === 'number' && Number.isFinite(v))
    ? (out as number[])
    : undefined;
}

function describeLength(n: number): string {
  return `${n} byte${n === 1 ? '' : 's'}`;
}

/** Splits the container into its parsed JSON and its BIN chunk, or throws GlbFormatError. */
export function readContainer(bytes: Uint8Array): Container {
  if (bytes.byteLength === 0) throw new GlbFormatError('not a GLB file: it is empty');
  if (!hasGlbMagic(bytes))
    throw new GlbFormatError("not a GLB file: it does not start with 'glTF'");
  const header = readGlbHeader(bytes);
  if (!header.ok && header.problem === 'too_short')
    throw new GlbFormatError(
      `truncated GLB: ${describeLength(bytes.byteLength)}, shorter than the 12-byte header`,
    );
  if (!header.ok && header.problem === 'bad_version')
    throw new GlbFormatError(`unsupported glTF version ${header.version}`);
  // A declared length shorter than the header leaves no room for the JSON chunk (checked below).
  const declared = header.ok ? header.length : 0;
  if (declared > bytes.byteLength)
    throw new GlbFormatError(
      `truncated GLB: the header declares ${describeLength(declared)} but the file has ${describeLength(bytes.byteLength)}`,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Anything after the declared length is ignored (the validator reports it).
  const end = declared;
  if (end < GLB_HEADER_BYTES + CHUNK_HEADER_BYTES)
    throw new GlbFormatError('truncated GLB: there is no JSON chunk after the header');

  const jsonLength = view.getUint32(12, true);
  const jsonType = view.getUint32(16, true);
  if (jsonType !== CHUNK_JSON)
    throw new GlbFormatError('malformed GLB: the first chunk is not the JSON chunk');
  const jsonStart = GLB_HEADER_BYTES + CHUNK_HEADER_BYTES;
  if (jsonStart + jsonLength > end)
    throw new GlbFormatError(
      `truncated GLB: the JSON chunk declares ${describeLength(jsonLength)} but only ${describeLength(end - jsonStart)} follow`,
    );
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes.subarray(jsonStart, jsonStart + jsonLength)));
  } catch (error) {
    const reason = error instanceof Error ? `: ${error.message}` : '';
    throw new GlbFormatError(`the JSON chunk is not valid JSON${reason}`, { cause: error });
  }
  if (!isObject(json)) throw new GlbFormatError('the JSON chunk is not a glTF object');

  // Chunks are 4-byte aligned; the lengths include their padding. Unknown chunks are skipped.
  let bin: Uint8Array | null = null;
  let offset = jsonStart + jsonLength;
  while (bin === null && offset + CHUNK_HEADER_BYTES <= end) {
    const length = view.getUint32(offset, true);
    const type = view.getUint32(offset + 4, true);
    const start = offset + CHUNK_HEADER_BYTES;
    if (start + length > end)
      throw new GlbFormatError(
        `truncated GLB: a chunk declares ${describeLength(length)} but only ${describeLength(end - start)} follow`,
      );
    if (type === CHUNK_BIN) bin = bytes.subarray(start, start + length);
    offset = start + length;
  }
  return { json, bin };
}
