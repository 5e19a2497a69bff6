// Buffers and accessors: the bytes behind a bufferView or accessor, dequantised. Pure.
import {
  type Json,
  finite,
  isIndex,
  isObject,
  numbers,
  objectAt,
  string,
} from './glb-container.ts';

export type Vec3 = [number, number, number];

const COMPONENT_BYTES: Record<number, number> = {
  5120: 1,
  5121: 1,
  5122: 2,
  5123: 2,
  5125: 4,
  5126: 4,
};
const TYPE_COMPONENTS: Record<string, number> = {
  SCALAR: 1,
  VEC2: 2,
  VEC3: 3,
  VEC4: 4,
  MAT2: 4,
  MAT3: 9,
  MAT4: 16,
};

/** A normalized integer component as the float it stands for (glTF 2.0 §3.11). */
function dequantize(value: number, componentType: number): number {
  switch (componentType) {
    case 5120:
      return Math.max(value / 127, -1);
    case 5121:
      return value / 255;
    case 5122:
      return Math.max(value / 32767, -1);
    case 5123:
      return value / 65535;
    default:
      return value;
  }
}

/** Decodes a data: URI's payload (base64 or percent-encoded). */
export function dataUriBytes(uri: string): { mimeType: string | null; bytes: Uint8Array } | null {
  const match = /^data:([^,]*?)(;base64)?,(.*)$/s.exec(uri);
  if (!match) return null;
  const mimeType = match[1]?.split(';')[0] || null;
  const payload = match[3] ?? '';
  try {
    if (match[2]) {
      const text = atob(payload.replace(/\s/g, ''));
      const bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      return { mimeType, bytes };
    }
    const out: number[] = [];
    for (let i = 0; i < payload.length; i++) {
      if (payload[i] === '%' && /^[0-9a-f]{2}$/i.test(payload.slice(i + 1, i + 3))) {
        out.push(parseInt(payload.slice(i + 1, i + 3), 16));
        i += 2;
      } else out.push(payload.charCodeAt(i) & 0xff);
    }
    return { mimeType, bytes: Uint8Array.from(out) };
  } catch {
    return null;
  }
}

export class Reader {
  private readonly buffers = new Map<number, Uint8Array | null>();

  constructor(
    readonly json: Json,
    private readonly bin: Uint8Array | null,
  ) {}

  /** The bytes of buffer `index`: the BIN chunk, a data: URI, or null (external, missing). */
  buffer(index: number): Uint8Array | null {
    if (this.buffers.has(index)) return this.buffers.get(index) ?? null;
    const buffer = objectAt(this.json.buffers, index);
    let bytes: Uint8Array | null = null;
    if (buffer) {
      const uri = string(buffer.uri);
      if (uri === null) bytes = index === 0 ? this.bin : null;
      else if (uri.startsWith('data:')) bytes = dataUriBytes(uri)?.bytes ?? null;
    }
    this.buffers.set(index, bytes);
    return bytes;
  }

  /**
   * The bytes of buffer view `index`, or null when they are not in the file, out of range,
   * or compressed (EXT_meshopt_compression: the view's own buffer is only a fallback).
   */
  bufferView(index: unknown): { bytes: Uint8Array; stride: number | undefined } | null {
    const view = objectAt(this.json.bufferViews, index);
    if (!view || !isIndex(view.buffer)) return null;
    const extensions = isObject(view.extensions) ? view.extensions : {};
    if ('EXT_meshopt_compression' in extensions || 'KHR_meshopt_compression' in extensions)
      return null;
    const buffer = this.buffer(view.buffer);
    const offset = isIndex(view.byteOffset) ? view.byteOffset : 0;
    const length = isIndex(view.byteLength) ? view.byteLength : -1;
    if (!buffer || length < 0 || offset + length > buffer.byteLength) return null;
    const stride = isIndex(view.byteStride) ? view.byteStride : undefined;
    return { bytes: buffer.subarray(offset, offset + length), stride };
  }

  accessor(index: unknown): Json | undefined {
    return objectAt(this.json.accessors, index);
  }

  count(index: unknown): number {
    const count = this.accessor(index)?.count;
    return isIndex(count) ? count : 0;
  }

  /**
   * The accessor's values as floats (normalized integers mapped to [-1, 1] / [0, 1]), flat,
   * `count × components`; null when the data cannot be read here (sparse, compressed,
   * external, out of range, matrix types).
   */
  values(index: unknown): Float64Array | null {
    const accessor = this.accessor(index);
    if (!accessor || accessor.sparse !== undefined) return null;
    const componentType = finite(accessor.componentType) ?? -1;
    const size = COMPONENT_BYTES[componentType];
    const components = TYPE_COMPONENTS[string(accessor.type) ?? ''];
    const count = isIndex(accessor.count) ? accessor.count : -1;
    // Matrices only as float MAT4 (no column padding then: inverse bind matrices, for skins).
    const floatMat4 = accessor.type === 'MAT4' && componentType === 5126;
    if (!size || !components || (components > 4 && !floatMat4) || count < 0) return null;
    const out = new Float64Array(count * components);
    if (accessor.bufferView === undefined) return out; // all zeros (glTF 2.0 §3.6.2.1)
    const view = this.bufferView(accessor.bufferView);
    if (!view) return null;
    const elementBytes = size * components;
    const stride = view.stride ?? elementBytes;
    const start = isIndex(accessor.byteOffset) ? accessor.byteOffset : 0;
    if (count > 0 && start + stride * (count - 1) + elementBytes > view.bytes.byteLength)
      return null;
    const data = new DataView(view.bytes.buffer, view.bytes.byteOffset, view.bytes.byteLength);
    const normalized = accessor.normalized === true;
    for (let i = 0; i < count; i++) {
      for (let c = 0; c < components; c++) {
        const at = start + i * stride + c * size;
        let value: number;
        switch (componentType) {
          case 5120:
            value = data.getInt8(at);
            break;
          case 5121:
            value = data.getUint8(at);
            break;
          case 5122:
            value = data.getInt16(at, true);
            break;
          case 5123:
            value = data.getUint16(at, true);
            break;
          case 5125:
            value = data.getUint32(at, true);
            break;
          default:
            value = data.getFloat32(at, true);
        }
        out[i * components + c] = normalized ? dequantize(value, componentType) : value;
      }
    }
    return out;
  }

  /** Per-component min and max of a VEC3 accessor: its JSON `min`/`max`, else its data. */
  range3(index: unknown): { min: Vec3; max: Vec3 } | null {
    const accessor = this.accessor(index);
    if (!accessor) return null;
    const lo = numbers(accessor.min, 3);
    const hi = numbers(accessor.max, 3);
    if (lo && hi) {
      // min/max hold the stored (not normalized) values.
      const type = finite(accessor.componentType) ?? 5126;
      const map = (v: number) => (accessor.normalized === true ? dequantize(v, type) : v);
      return { min: lo.map(map) as Vec3, max: hi.map(map) as Vec3 };
    }
    if (accessor.type !== 'VEC3') return null;
    const values = this.values(index);
    if (!values || values.length < 3) return null;
    const min: Vec3 = [Infinity, Infinity, Infinity];
    const max: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < values.length; i += 3)
      for (let k = 0; k < 3; k++) {
        const v = values[i + k]!;
        if (v < min[k]!) min[k] = v;
        if (v > max[k]!) max[k] = v;
      }
    return { min, max };
  }

  /** Largest value of a SCALAR accessor: its JSON `max`, else its data. */
  max1(index: unknown): number | undefined {
    const declared = numbers(this.accessor(index)?.max, 1)?.[0];
    if (declared !== undefined) return declared;
    const values = this.values(index);
    if (!values || values.length === 0) return undefined;
    let max = -Infinity;
    for (const v of values) if (v > max) max = v;
    return max;
  }
}
