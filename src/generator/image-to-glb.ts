import { GeneratorInputError } from './errors.ts';
import { writeGlb, type MaterialSpec } from './glb.ts';
import {
  cleanMask,
  countMeshableCells,
  fullMask,
  maskBounds,
  estimateBackground,
  maskFromAlpha,
  maskFromBackground,
  matteFromBackground,
  type Background,
  type Bounds,
  type Mask,
} from './mask.ts';
import { extractSubmesh } from './mesh.ts';
import {
  bleedTransparent,
  encodeTexture,
  hasUsefulAlpha,
  loadImage,
  sampleGrid,
  type EncodedTexture,
  type Raster,
} from './raster.ts';
import { buildRelief, type Relief } from './relief.ts';

/** Long side of the embedded texture, in pixels (at most). */
const TEXTURE_MAX_SIDE = 1024;
/** Long side of the geometry grid, in samples (vertices). */
const GRID_LONG_SIDE = 96;
/** Fewer meshable cells than this means no usable object outline was found. */
const MIN_OBJECT_CELLS = 8;
/** Half-thickness of the fallback slab used when no object can be told from its background. */
const FALLBACK_HALF_DEPTH = 0.06;

const MESH_NAME = 'kiln-relief';

/** One decoded photo and what was learnt from it. */
interface Subject {
  raster: Raster;
  mask: Mask;
  /** The alpha channel is the mask. */
  usesAlpha: boolean;
  /** Otherwise: the plain backdrop the mask was told from, if there is one. */
  background: Background | undefined;
  /** False when no object was found and `mask` covers the whole image. */
  found: boolean;
}

function gridSize(width: number, height: number): [number, number] {
  const long = Math.max(width, height);
  const gw = Math.max(2, Math.round((GRID_LONG_SIDE * width) / long));
  const gh = Math.max(2, Math.round((GRID_LONG_SIDE * height) / long));
  return [gw, gh];
}

function analyse(raster: Raster): Subject {
  const [gw, gh] = gridSize(raster.width, raster.height);
  const grid = sampleGrid(raster, gw, gh);
  const usesAlpha = hasUsefulAlpha(raster);
  const background = usesAlpha ? undefined : estimateBackground(grid);
  let mask: Mask | undefined;
  if (usesAlpha) mask = cleanMask(maskFromAlpha(grid));
  else if (background) mask = cleanMask(maskFromBackground(grid, background));
  if (mask && countMeshableCells(mask) >= MIN_OBJECT_CELLS) {
    return { raster, mask, usesAlpha, background, found: true };
  }
  return { raster, mask: fullMask(gw, gh), usesAlpha, background: undefined, found: false };
}

async function loadSubject(bytes: Uint8Array, imageIndex?: number): Promise<Subject> {
  const { raster } = await loadImage(bytes, TEXTURE_MAX_SIDE, imageIndex);
  return analyse(raster);
}

/**
 * PNG for photos with an alpha channel, JPEG for opaque ones. Either way the object's colours
 * are first bled over the background, so the mesh outline shows no backdrop-coloured fringe.
 * The size is kept (no power-of-two resampling: glTF 2.0 allows any size, and validators only
 * note it as information).
 */
function textureOf(subject: Subject): Promise<EncodedTexture> {
  const { raster } = subject;
  if (subject.usesAlpha) return encodeTexture(bleedTransparent(raster), true);
  const matted = subject.background
    ? bleedTransparent(matteFromBackground(raster, subject.mask, subject.background))
    : raster;
  return encodeTexture(matted, false);
}

function photoMaterial(name: string, texture: EncodedTexture): MaterialSpec {
  return { name, baseColorTexture: texture, metallic: 0, roughness: 0.8 };
}

/** Texture coordinates of a mask sample's centre. */
function sampleUv(mask: Mask, sample: number): [number, number] {
  const x = sample % mask.width;
  const y = (sample - x) / mask.width;
  return [(x + 0.5) / mask.width, (y + 0.5) / mask.height];
}

function concat(...parts: Uint32Array[]): Uint32Array {
  const out = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Runs the CPU-bound `build` while sharp encodes the texture on its own threads. */
async function withTexture<T>(
  texture: () => Promise<EncodedTexture>,
  build: () => T,
): Promise<[EncodedTexture, T]> {
  return Promise.all([texture(), Promise.resolve().then(build)]);
}

/** A GLB with one material: the photo textures the front, back (mirrored) and rim alike. */
async function singleTextureGlb(subject: Subject, halfDepth?: number): Promise<Uint8Array> {
  const [texture, relief] = await withTexture(
    () => textureOf(subject),
    () => reliefOf(subject, subject.mask, halfDepth),
  );
  const mesh = extractSubmesh(
    relief.positions,
    relief.normals,
    concat(relief.front, relief.back, relief.walls),
    (v) => sampleUv(subject.mask, relief.sampleOf[v]!),
  );
  return writeGlb(MESH_NAME, [{ mesh, material: photoMaterial('photo', texture) }]);
}

/**
 * Turns one photo into a textured "inflated billboard": the object's outline (from the alpha
 * channel, or from the difference to a plain backdrop) becomes a closed, rounded mesh, 1 unit
 * high (or 2 wide, if wider than that), centred at the origin and facing +Z, with the photo as
 * its texture (seen mirrored from behind). A photo without a recognisable object becomes a
 * thin rounded slab of the whole image.
 *
 * @throws GeneratorInputError when the bytes are not a decodable PNG, JPEG, WebP or GIF image.
 */
export async function imageToGlb(image: Uint8Array): Promise<Uint8Array> {
  return singleTextureGlb(await loadSubject(image));
}

function reliefOf(subject: Subject, mask: Mask, halfDepth?: number): Relief {
  const depth = subject.found ? halfDepth : FALLBACK_HALF_DEPTH;
  return buildRelief(mask, {
    pixelWidth: subject.raster.width,
    pixelHeight: subject.raster.height,
    ...(depth === undefined ? {} : { halfDepth: depth }),
  });
}

/** Mask bounds in normalised image coordinates (0..1, covering whole samples). */
function normalisedBounds(subject: Subject): { x0: number; y0: number; x1: number; y1: number } {
  const { mask } = subject;
  const b: Bounds = maskBounds(mask) ?? { x0: 0, y0: 0, x1: mask.width - 1, y1: mask.height - 1 };
  return {
    x0: b.x0 / mask.width,
    y0: b.y0 / mask.height,
    x1: (b.x1 + 1) / mask.width,
    y1: (b.y1 + 1) / mask.height,
  };
}

/**
 * Maps normalised front-image coordinates to the back photo: the two objects' bounding
 * boxes are aligned and the back is mirrored left-right (it is seen from behind).
 */
function backMapping(front: Subject, back: Subject): (u: number, v: number) => [number, number] {
  const f = normalisedBounds(front);
  const b = normalisedBounds(back);
  const clamp = (t: number): number => Math.min(1, Math.max(0, t));
  return (u, v) => {
    const tx = (u - f.x0) / (f.x1 - f.x0);
    const ty = (v - f.y0) / (f.y1 - f.y0);
    return [clamp(b.x0 + (1 - tx) * (b.x1 - b.x0)), clamp(b.y0 + ty * (b.y1 - b.y0))];
  };
}

/** The front mask plus every sample the (aligned, mirrored) back silhouette covers. */
function unionWithBack(
  front: Subject,
  back: Subject,
  toBack: ReturnType<typeof backMapping>,
): Mask {
  const { mask } = front;
  const inside = new Uint8Array(mask.inside);
  const bm = back.mask;
  for (let s = 0; s < inside.length; s++) {
    if (inside[s]) continue;
    const [u, v] = toBack(...sampleUv(mask, s));
    const bx = Math.min(bm.width - 1, Math.floor(u * bm.width));
    const by = Math.min(bm.height - 1, Math.floor(v * bm.height));
    if (bm.inside[by * bm.width + bx]) inside[s] = 1;
  }
  return { width: mask.width, height: mask.height, inside };
}

/**
 * Half-thickness suggested by side views: a side photo's object is as wide as the object
 * is deep. Returns undefined when no side view shows a usable object.
 */
function halfDepthFromSides(sides: readonly Subject[]): number | undefined {
  const ratios: number[] = [];
  for (const side of sides) {
    if (!side.found) continue;
    const b = normalisedBounds(side);
    const w = (b.x1 - b.x0) * side.raster.width;
    const h = (b.y1 - b.y0) * side.raster.height;
    if (h > 0) ratios.push(w / h);
  }
  if (ratios.length === 0) return undefined;
  ratios.sort((a, b) => a - b);
  const median = (ratios[(ratios.length - 1) >> 1]! + ratios[ratios.length >> 1]!) / 2;
  return Math.min(0.75, Math.max(0.05, median / 2));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}

/**
 * Turns 2–4 photos of one object into a textured relief. Image 1 is the front; image 2, unless
 * it is the same file, is the back: its silhouette (mirrored and aligned by bounding box) is
 * added to the outline and it textures the back surface. Images 3 and 4 are side views: the
 * object's width in them sets the model's thickness.
 *
 * @throws GeneratorInputError naming the first image (by position) that cannot be decoded, or
 *   when there are not 2 to 4 images.
 */
export async function viewsToGlb(images: readonly Uint8Array[]): Promise<Uint8Array> {
  if (!Array.isArray(images) || images.length < 2 || images.length > 4) {
    const count = Array.isArray(images) ? images.length : 0;
    throw new GeneratorInputError(
      `Multi-view generation needs 2 to 4 images of the same object; got ${count}.`,
    );
  }
  // Decode all, then report the first failure by position (not by finishing order).
  const settled = await Promise.allSettled(images.map((bytes, i) => loadSubject(bytes, i)));
  const subjects = settled.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
  const [front, second] = subjects as [Subject, Subject, ...Subject[]];
  const back = sameBytes(images[0]!, images[1]!) ? undefined : second;
  const halfDepth = halfDepthFromSides(subjects.slice(2));

  if (!back) return singleTextureGlb(front, halfDepth);

  const toBack = backMapping(front, back);
  const [[frontTexture, relief], backTexture] = await Promise.all([
    withTexture(
      () => textureOf(front),
      () => {
        const mask = front.found && back.found ? unionWithBack(front, back, toBack) : front.mask;
        return reliefOf(front, mask, halfDepth);
      },
    ),
    textureOf(back),
  ]);
  const uvFront = (v: number): [number, number] => sampleUv(front.mask, relief.sampleOf[v]!);
  const frontMesh = extractSubmesh(
    relief.positions,
    relief.normals,
    concat(relief.front, relief.walls),
    uvFront,
  );
  const backMesh = extractSubmesh(relief.positions, relief.normals, relief.back, (v) =>
    toBack(...uvFront(v)),
  );
  return writeGlb(MESH_NAME, [
    { mesh: frontMesh, material: photoMaterial('front', frontTexture) },
    { mesh: backMesh, material: photoMaterial('back', backTexture) },
  ]);
}
