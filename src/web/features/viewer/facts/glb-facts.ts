// Facts about a GLB for the viewer's facts panel, read straight from the binary container:
// the 12-byte header, the JSON chunk and the BIN chunk. Pure (no DOM, no loaders, no decoding
// of Draco/Meshopt data): counts come from accessor `count`s and bounds from POSITION `min`/
// `max`, which glTF keeps in the JSON even when the geometry itself is compressed.
import { Box3, Matrix4, Quaternion, Vector3 } from 'three';

export type Vec3 = [number, number, number];

/** World-space axis-aligned box of the default scene, in file units (glTF: metres). */
export interface GlbBounds {
  min: Vec3;
  max: Vec3;
  size: Vec3;
}

export interface GlbTexture {
  /** Index in the file's `textures`. */
  index: number;
  /** The texture's name, else its image's name. */
  name: string | null;
  /** The image's declared MIME type, else the one its bytes show. */
  mimeType: string | null;
  /** From the image bytes' header; null when unknown (external URI, unrecognised format). */
  width: number | null;
  height: number | null;
}

export interface GlbAnimation {
  name: string | null;
  channels: number;
  /** Seconds: the largest keyframe time of its samplers (input accessor `max`). */
  duration: number;
}

export interface GlbFacts {
  fileBytes: number;
  /** `asset.generator`. */
  generator: string | null;
  /** `asset.version` ("2.0"). */
  version: string | null;
  /**
   * Triangles drawn by the default scene: every mesh instance counts (a mesh used by two nodes
   * twice; EXT_mesh_gpu_instancing multiplies by its instance count). Triangle lists give
   * count / 3, strips and fans count − 2; points and lines none.
   */
  triangles: number;
  /** POSITION accessor counts, per primitive per instance, as for `triangles`. */
  vertices: number;
  /** Lengths of the file's arrays (each mesh and primitive once, however often it is used). */
  meshes: number;
  primitives: number;
  nodes: number;
  materials: number;
  textures: GlbTexture[];
  animations: GlbAnimation[];
  extensionsUsed: string[];
  extensionsRequired: string[];
  /** Null when the default scene draws no geometry. */
  bounds: GlbBounds | null;
}

/** The bytes are not a GLB this module can read. The message says what is wrong. */
export class GlbFormatError extends Error {
  override name = 'GlbFormatError';
}

const GLB_MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a; // 'JSON'
const CHUNK_BIN = 0x004e4942; // 'BIN\0'
const HEADER_BYTES = 12;
const CHUNK_HEADER_BYTES = 8;

interface Container {
  json: Json;
  bin: Uint8Array | null;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function objectAt(array: unknown, index: unknown): Json | undefined {
  if (!Array.isArray(array) || !isIndex(index)) return undefined;
  const value: unknown = array[index];
  return isObject(value) ? value : undefined;
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function string(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function numbers(value: unknown, length: number): number[] | undefined {
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
function readContainer(bytes: Uint8Array): Container {
  if (bytes.byteLength === 0) throw new GlbFormatError('not a GLB file: it is empty');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 4 || view.getUint32(0, true) !== GLB_MAGIC)
    throw new GlbFormatError("not a GLB file: it does not start with 'glTF'");
  if (bytes.byteLength < HEADER_BYTES)
    throw new GlbFormatError(
      `truncated GLB: ${describeLength(bytes.byteLength)}, shorter than the 12-byte header`,
    );
  const version = view.getUint32(4, true);
  if (version !== 2) throw new GlbFormatError(`unsupported glTF version ${version}`);
  const declared = view.getUint32(8, true);
  if (declared > bytes.byteLength)
    throw new GlbFormatError(
      `truncated GLB: the header declares ${describeLength(declared)} but the file has ${describeLength(bytes.byteLength)}`,
    );
  // Anything after the declared length is ignored (the validator reports it).
  const end = declared;
  if (end < HEADER_BYTES + CHUNK_HEADER_BYTES)
    throw new GlbFormatError('truncated GLB: there is no JSON chunk after the header');

  const jsonLength = view.getUint32(12, true);
  const jsonType = view.getUint32(16, true);
  if (jsonType !== CHUNK_JSON)
    throw new GlbFormatError('malformed GLB: the first chunk is not the JSON chunk');
  const jsonStart = HEADER_BYTES + CHUNK_HEADER_BYTES;
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

// ---------------------------------------------------------------------------------------------
// Buffers and accessors

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
function dataUriBytes(uri: string): { mimeType: string | null; bytes: Uint8Array } | null {
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

class Reader {
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
    if (!size || !components || components > 4 || count < 0) return null;
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

// ---------------------------------------------------------------------------------------------
// Scene walking

function localMatrix(node: Json): Matrix4 {
  const matrix = numbers(node.matrix, 16);
  if (matrix) return new Matrix4().fromArray(matrix); // column-major, as three stores it
  const t = numbers(node.translation, 3) ?? [0, 0, 0];
  const r = numbers(node.rotation, 4) ?? [0, 0, 0, 1];
  const s = numbers(node.scale, 3) ?? [1, 1, 1];
  return new Matrix4().compose(
    new Vector3(t[0], t[1], t[2]),
    new Quaternion(r[0], r[1], r[2], r[3]).normalize(),
    new Vector3(s[0], s[1], s[2]),
  );
}

/** The root nodes of the default scene: `scene`, else scene 0, else every parentless node. */
function sceneRoots(json: Json): unknown[] {
  const scenes = list(json.scenes);
  if (scenes.length > 0) {
    const scene = objectAt(scenes, json.scene) ?? objectAt(scenes, 0);
    return list(scene?.nodes);
  }
  const nodes = list(json.nodes);
  const children = new Set<unknown>();
  for (const node of nodes)
    if (isObject(node)) for (const c of list(node.children)) children.add(c);
  return nodes.map((_, i) => i).filter((i) => !children.has(i));
}

interface MeshInstance {
  mesh: Json;
  /** World matrix of each drawn copy. */
  matrices: Matrix4[];
  /** How many copies are drawn (EXT_mesh_gpu_instancing count, else 1). */
  copies: number;
}

/**
 * The EXT_mesh_gpu_instancing transforms of a node, relative to it; `copies` always, and
 * `matrices` only when all its TRS accessors could be read (else the node's own is used).
 */
function gpuInstances(reader: Reader, node: Json): { copies: number; matrices: Matrix4[] | null } {
  const extension = isObject(node.extensions) ? node.extensions.EXT_mesh_gpu_instancing : undefined;
  if (!isObject(extension) || !isObject(extension.attributes)) return { copies: 1, matrices: null };
  const attributes = extension.attributes;
  const accessors = Object.values(attributes).filter((a) => reader.accessor(a) !== undefined);
  if (accessors.length === 0) return { copies: 1, matrices: null };
  const copies = reader.count(accessors[0]);
  const read = (name: string, width: number): Float64Array | null | undefined => {
    if (attributes[name] === undefined) return undefined;
    const values = reader.values(attributes[name]);
    return values && values.length >= copies * width ? values : null;
  };
  const t = read('TRANSLATION', 3);
  const r = read('ROTATION', 4);
  const s = read('SCALE', 3);
  if (t === null || r === null || s === null) return { copies, matrices: null };
  const matrices: Matrix4[] = [];
  for (let i = 0; i < copies; i++) {
    matrices.push(
      new Matrix4().compose(
        t ? new Vector3(t[3 * i], t[3 * i + 1], t[3 * i + 2]) : new Vector3(),
        r
          ? new Quaternion(r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]).normalize()
          : new Quaternion(),
        s ? new Vector3(s[3 * i], s[3 * i + 1], s[3 * i + 2]) : new Vector3(1, 1, 1),
      ),
    );
  }
  return { copies, matrices };
}

/** Every mesh the default scene draws, with its world transforms. Each node is visited once. */
function meshInstances(reader: Reader): MeshInstance[] {
  const { json } = reader;
  const nodes = list(json.nodes);
  const visited = new Set<number>();
  const out: MeshInstance[] = [];
  const stack: { index: unknown; parent: Matrix4 }[] = sceneRoots(json)
    .map((index) => ({ index, parent: new Matrix4() }))
    .reverse();
  while (stack.length > 0) {
    const { index, parent } = stack.pop()!;
    // A node belongs to one tree at most; revisits (cycles, shared children) are invalid.
    if (!isIndex(index) || visited.has(index)) continue;
    visited.add(index);
    const node = objectAt(nodes, index);
    if (!node) continue;
    const world = parent.clone().multiply(localMatrix(node));
    const mesh = objectAt(json.meshes, node.mesh);
    if (mesh) {
      const { copies, matrices } = gpuInstances(reader, node);
      out.push({
        mesh,
        copies,
        matrices: matrices ? matrices.map((m) => world.clone().multiply(m)) : [world],
      });
    }
    const children = list(node.children);
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ index: children[i], parent: world });
  }
  return out;
}

function trianglesOf(mode: number, count: number): number {
  if (mode === 4) return Math.floor(count / 3);
  if (mode === 5 || mode === 6) return Math.max(0, count - 2);
  return 0; // points and lines
}

const CORNER = new Vector3();

function expandByBox(target: Box3, min: Vec3, max: Vec3, matrix: Matrix4): void {
  for (let corner = 0; corner < 8; corner++) {
    CORNER.set(
      corner & 1 ? max[0] : min[0],
      corner & 2 ? max[1] : min[1],
      corner & 4 ? max[2] : min[2],
    ).applyMatrix4(matrix);
    target.expandByPoint(CORNER);
  }
}

// ---------------------------------------------------------------------------------------------
// Image headers

export interface ImageSize {
  mimeType: string;
  width: number;
  height: number;
}

const KTX2_IDENTIFIER = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/**
 * The format and size of a PNG, JPEG, WebP or KTX2 image from its header alone; null when the
 * bytes are none of those or too short to tell.
 */
export function imageSize(bytes: Uint8Array): ImageSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.byteLength;
  // PNG: signature, then the IHDR chunk's width and height (big-endian).
  if (
    n >= 24 &&
    bytes[0] === 0x89 &&
    ascii(bytes, 1, 3) === 'PNG' &&
    ascii(bytes, 12, 4) === 'IHDR'
  )
    return { mimeType: 'image/png', width: view.getUint32(16), height: view.getUint32(20) };
  // JPEG: walk the marker segments to the first start-of-frame (SOF0–SOF15 but DHT, JPG, DAC).
  if (n >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let at = 2;
    while (at + 4 <= n) {
      if (bytes[at] !== 0xff) return null;
      const marker = bytes[at + 1]!;
      if (marker === 0xff) {
        at += 1; // fill byte
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        at += 2; // no payload
        continue;
      }
      if (marker === 0xd9 || marker === 0xda) return null; // end of image, start of scan
      const length = view.getUint16(at + 2);
      const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
      if (isFrame) {
        if (at + 9 > n) return null;
        return {
          mimeType: 'image/jpeg',
          width: view.getUint16(at + 7),
          height: view.getUint16(at + 5),
        };
      }
      at += 2 + length;
    }
    return null;
  }
  // WebP: RIFF container; the first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended).
  if (n >= 30 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') {
    const chunk = ascii(bytes, 12, 4);
    if (chunk === 'VP8 ' && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a)
      return {
        mimeType: 'image/webp',
        width: view.getUint16(26, true) & 0x3fff,
        height: view.getUint16(28, true) & 0x3fff,
      };
    if (chunk === 'VP8L' && bytes[20] === 0x2f) {
      const bits = view.getUint32(21, true);
      return {
        mimeType: 'image/webp',
        width: (bits & 0x3fff) + 1,
        height: ((bits >>> 14) & 0x3fff) + 1,
      };
    }
    if (chunk === 'VP8X') {
      const uint24 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
      return { mimeType: 'image/webp', width: uint24(24) + 1, height: uint24(27) + 1 };
    }
    return null;
  }
  // KTX2: identifier, vkFormat, typeSize, pixelWidth, pixelHeight (little-endian).
  if (n >= 28 && KTX2_IDENTIFIER.every((b, i) => bytes[i] === b))
    return {
      mimeType: 'image/ktx2',
      width: view.getUint32(20, true),
      height: Math.max(1, view.getUint32(24, true)), // 0 for 1D textures
    };
  return null;
}

/** Extensions whose `source` replaces the texture's own (the image a capable viewer shows). */
const TEXTURE_SOURCE_EXTENSIONS = [
  'KHR_texture_basisu',
  'EXT_texture_webp',
  'EXT_texture_avif',
  'MSFT_texture_dds',
];

function textureFacts(reader: Reader): GlbTexture[] {
  const { json } = reader;
  return list(json.textures).map((value, index): GlbTexture => {
    const texture = isObject(value) ? value : {};
    const extensions = isObject(texture.extensions) ? texture.extensions : {};
    let source: unknown = texture.source;
    for (const name of TEXTURE_SOURCE_EXTENSIONS) {
      const extension = extensions[name];
      if (isObject(extension) && isIndex(extension.source)) {
        source = extension.source;
        break;
      }
    }
    const image = objectAt(json.images, source);
    let bytes: Uint8Array | null = null;
    let uriMimeType: string | null = null;
    if (image) {
      const uri = string(image.uri);
      if (image.bufferView !== undefined)
        bytes = reader.bufferView(image.bufferView)?.bytes ?? null;
      else if (uri?.startsWith('data:')) {
        const decoded = dataUriBytes(uri);
        bytes = decoded?.bytes ?? null;
        uriMimeType = decoded?.mimeType ?? null;
      }
    }
    const size = bytes ? imageSize(bytes) : null;
    return {
      index,
      name: string(texture.name) ?? string(image?.name) ?? null,
      mimeType: string(image?.mimeType) ?? size?.mimeType ?? uriMimeType,
      width: size?.width ?? null,
      height: size?.height ?? null,
    };
  });
}

function animationFacts(reader: Reader): GlbAnimation[] {
  return list(reader.json.animations).map((value): GlbAnimation => {
    const animation = isObject(value) ? value : {};
    const samplers = list(animation.samplers);
    let duration = 0;
    for (const sampler of samplers) {
      if (!isObject(sampler)) continue;
      const max = reader.max1(sampler.input);
      if (max !== undefined && max > duration) duration = max;
    }
    return {
      name: string(animation.name),
      channels: list(animation.channels).length,
      duration,
    };
  });
}

function strings(value: unknown): string[] {
  return list(value).filter((v): v is string => typeof v === 'string');
}

/**
 * Reads a GLB's facts for the facts panel. Throws GlbFormatError when the bytes are not a GLB
 * 2.0 container with a JSON chunk; past that it is lenient (references that lead nowhere are
 * skipped: the validator is the place to hear about them).
 */
export function glbFacts(bytes: Uint8Array): GlbFacts {
  const { json, bin } = readContainer(bytes);
  const reader = new Reader(json, bin);
  const asset = isObject(json.asset) ? json.asset : {};

  let triangles = 0;
  let vertices = 0;
  const box = new Box3();
  for (const { mesh, copies, matrices } of meshInstances(reader)) {
    for (const value of list(mesh.primitives)) {
      if (!isObject(value)) continue;
      const attributes = isObject(value.attributes) ? value.attributes : {};
      const positions = reader.count(attributes.POSITION);
      const count = value.indices !== undefined ? reader.count(value.indices) : positions;
      const mode = finite(value.mode) ?? 4;
      triangles += trianglesOf(mode, count) * copies;
      vertices += positions * copies;
      const range = reader.range3(attributes.POSITION);
      if (range) for (const matrix of matrices) expandByBox(box, range.min, range.max, matrix);
    }
  }

  const bounds: GlbBounds | null = box.isEmpty()
    ? null
    : {
        min: box.min.toArray(),
        max: box.max.toArray(),
        size: box.getSize(new Vector3()).toArray(),
      };

  return {
    fileBytes: bytes.byteLength,
    generator: string(asset.generator),
    version: string(asset.version),
    triangles,
    vertices,
    meshes: list(json.meshes).length,
    primitives: list(json.meshes).reduce<number>(
      (sum, mesh) => sum + (isObject(mesh) ? list(mesh.primitives).length : 0),
      0,
    ),
    nodes: list(json.nodes).length,
    materials: list(json.materials).length,
    textures: textureFacts(reader),
    animations: animationFacts(reader),
    extensionsUsed: strings(json.extensionsUsed),
    extensionsRequired: strings(json.extensionsRequired),
    bounds,
  };
}

// ---------------------------------------------------------------------------------------------
// Formatting

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/**
 * A byte count in SI units (1 kB = 1000 B, as browsers and most OSes show file sizes): "512 B",
 * "12.3 kB", "1.4 MB", "123 MB". Three significant digits at most; "—" for a negative or
 * non-finite value.
 */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '—';
  if (n < 1000) return `${Math.round(n)} B`;
  let unit = 0;
  let value = n;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  let text = value < 100 ? value.toFixed(1) : value.toFixed(0);
  // 999,960 B is 999.96 kB: it rounds to "1000", which reads better as "1.0 MB".
  if (Number(text) >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
    text = value.toFixed(1);
  }
  return `${text} ${BYTE_UNITS[unit]}`;
}

const COUNT_FORMATS = new Map<string, Intl.NumberFormat>();

/**
 * A count with thousands separators: "262,144". English by default (the UI's language), or
 * in the given locale; "—" for a non-finite value.
 */
export function formatCount(n: number, locale = 'en-US'): string {
  if (!Number.isFinite(n)) return '—';
  let format = COUNT_FORMATS.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    COUNT_FORMATS.set(locale, format);
  }
  return format.format(n);
}
