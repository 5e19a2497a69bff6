import { writeGlb, type MaterialSpec } from '../core/glb.ts';
import type { GenerateHooks } from '../core/hooks.ts';
import type { Mask } from './mask.ts';
import { extractSubmesh, faceNormal, type MeshData } from '../core/mesh.ts';
import { buildRelief } from './relief.ts';
import { simplifyIndices } from '../core/simplify.ts';
import {
  loadSubject,
  objectMatte,
  textureRaster,
  SUBJECT_DEFAULTS,
  type Subject,
} from './subject.ts';
import { backFill } from './back-texture.ts';
import { depthProfile, type DepthCueOptions } from './depth-cues.ts';
import { bleedTransparent, encodeAtlas, sampleGrid } from '../core/raster.ts';

/** Options of {@link imageToGlb}; every field has a default. */
export interface ImageToGlbOptions extends GenerateHooks {
  /** Long side of the silhouette grid, in samples: the outline's resolution. Default 160. */
  gridLongSide?: number;
  /** Long side of the embedded texture, in pixels (a power of two). Default 1024. */
  textureMaxSide?: number;
  /** Triangle budget after simplification. Default 12 000. */
  maxTriangles?: number;
  /** Height of the model, in metres. Default 1. */
  height?: number;
  /** Which depth cues to apply (depth-cues.ts); all by default. For measuring them. */
  depthCues?: DepthCueOptions;
}

export const IMAGE_TO_GLB_DEFAULTS = {
  gridLongSide: SUBJECT_DEFAULTS.gridLongSide,
  textureMaxSide: SUBJECT_DEFAULTS.textureMaxSide,
  maxTriangles: 12_000,
  height: 1,
  depthCues: {},
} as const;

type Resolved = Required<Omit<ImageToGlbOptions, 'onPhase'>> & GenerateHooks;

/** A thin object's outline is looked for again on a grid this much finer (subject.ts). */
const THIN_GRID_FACTOR = 2;
/** Simplification may move the surface by at most this fraction of the model's size. */
const SIMPLIFY_MAX_ERROR = 0.002;
/** The model is at least this deep, as a fraction of its width. */
const MIN_DEPTH_OVER_WIDTH = 0.3;

const MESH_NAME = 'kiln-relief';
/**
 * Front triangles turned further than this from the camera (the cosine of their normal with the
 * view axis: about 72°) are textured like the rim, not from the photo.
 */
const STEEP_FACING = 0.3;

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

function scaled(positions: Float32Array, factor: number): Float32Array {
  if (factor === 1) return positions;
  return positions.map((v) => v * factor);
}

/**
 * The inflated, simplified, textured mesh of one subject; null when it cannot be kept within
 * the triangle budget and whole at this grid (the caller tries a coarser one).
 */
async function reliefGlb(subject: Subject, options: Resolved): Promise<Uint8Array | null> {
  const { mask, raster } = subject;
  const matte = objectMatte(subject);
  const colours = sampleGrid(matte, mask.width, mask.height);
  // One texture: the photo above, the back's colours (back-texture.ts) below.
  const atlas = encodeAtlas(
    textureRaster(subject, matte),
    bleedTransparent(backFill(mask, colours)),
    options.textureMaxSide,
    subject.usesAlpha,
  );
  const relief = buildRelief(mask, {
    pixelWidth: raster.width,
    pixelHeight: raster.height,
    minDepthOverWidth: MIN_DEPTH_OVER_WIDTH,
    profile: (input) => depthProfile(input, colours, options.depthCues),
  });
  options.onPhase?.('processing');
  const indices = await simplifyIndices(
    relief.positions,
    concat(relief.front, relief.back, relief.walls, relief.extra),
    { targetTriangles: options.maxTriangles, maxError: SIMPLIFY_MAX_ERROR },
  );
  if (!indices) return null;
  // The photo textures the front where it faces the camera. The back, the rim wall (every
  // triangle with a back vertex) and the front's steep slopes near the outline (seen from the
  // side, the photo's outermost pixels would streak over them) take the back's colours, which
  // have the mask grid's layout too and blend into the front's colours at the rim.
  const { frontCount } = relief;
  const p = relief.positions;
  const front: number[] = [];
  const back: number[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]!;
    const b = indices[t + 1]!;
    const c = indices[t + 2]!;
    const [nx, ny, nz] = faceNormal(p, a * 3, b * 3, c * 3);
    const facing = nz / (Math.hypot(nx, ny, nz) || 1);
    const onBack = a >= frontCount || b >= frontCount || c >= frontCount;
    (onBack || facing < STEEP_FACING ? back : front).push(a, b, c);
  }
  const texture = await atlas;
  const uvIn =
    ([v0, v1]: [number, number]) =>
    (v: number) => {
      const [u, w] = sampleUv(mask, relief.sampleOf[v]!);
      return [u, v0 + w * (v1 - v0)] as const;
    };
  // Front and back are two parts of one primitive: the back's copies of shared vertices (along
  // the steep band's edge) get their own texture coordinates.
  const frontMesh = extractSubmesh(p, relief.normals, front, uvIn(texture.top));
  const backMesh = extractSubmesh(p, relief.normals, back, uvIn(texture.bottom));
  const mesh = mergeMeshes(frontMesh, backMesh);
  mesh.positions = scaled(mesh.positions, options.height);
  const material: MaterialSpec = {
    name: 'photo',
    baseColorTexture: texture,
    metallic: 0,
    roughness: 0.8,
  };
  return writeGlb(MESH_NAME, [{ mesh, material }]);
}

/** Two meshes as one (vertices of `b` after those of `a`). */
function mergeMeshes(a: MeshData, b: MeshData): MeshData {
  const count = a.positions.length / 3;
  const join = (x: Float32Array, y: Float32Array) => {
    const out = new Float32Array(x.length + y.length);
    out.set(x, 0);
    out.set(y, x.length);
    return out;
  };
  const indices = new Uint32Array(a.indices.length + b.indices.length);
  indices.set(a.indices, 0);
  for (let i = 0; i < b.indices.length; i++) indices[a.indices.length + i] = b.indices[i]! + count;
  return {
    positions: join(a.positions, b.positions),
    normals: join(a.normals, b.normals),
    uvs: join(
      a.uvs ?? new Float32Array(count * 2),
      b.uvs ?? new Float32Array((b.positions.length / 3) * 2),
    ),
    indices,
  };
}

/**
 * Turns one photo into a textured, closed "inflated silhouette": the object's outline (from
 * the alpha channel, or from the difference to a plain backdrop, soft shadows excluded) is
 * inflated into a rounded volume whose front and back surfaces meet at a shared rim, so thin
 * parts become tubes and broad parts domes. Holes through the object stay holes. Depth cues
 * (depth-cues.ts) go beyond that symmetric inflation: flat-coloured faces are flat, and
 * furniture-like objects (legs under a seat or table top) get a deep plate, legs front and
 * back, and a backrest at the rear. The photo
 * textures the front; the back and the rim take a second texture that continues the object's
 * dominant colours without the front's features (back-texture.ts); backdrop pixels are bled away
 * so none show on the surface. Y-up, metres, standing on the ground plane, `height` tall (or 2 ×
 * `height` wide for wide objects), at least 30 % as deep as it is wide.
 *
 * @throws GeneratorInputError when the bytes are not a decodable PNG, JPEG, WebP or GIF image,
 *   or the image shows no object (too small, fully transparent, blank, no plain backdrop).
 */
export async function imageToGlb(
  image: Uint8Array,
  options: ImageToGlbOptions = {},
): Promise<Uint8Array> {
  const resolved: Resolved = { ...IMAGE_TO_GLB_DEFAULTS, ...options };
  // The triangle budget is a promise (each tier's): a surface that cannot be simplified into it
  // and stay whole is made again on a coarser grid, whose surface has fewer triangles to begin
  // with; the coarsest grid's surface fits any budget the tiers set.
  for (let grid = resolved.gridLongSide; ; grid = Math.round(grid * 0.75)) {
    const subject = await loadSubject(image, {
      gridLongSide: grid,
      textureMaxSide: resolved.textureMaxSide,
      thinGridFactor: THIN_GRID_FACTOR,
    });
    const glb = await reliefGlb(subject, resolved);
    if (glb) return glb;
    if (grid <= MIN_GRID_LONG_SIDE)
      throw new Error(
        `the model cannot be made within ${resolved.maxTriangles} triangles (grid ${grid})`,
      );
  }
}

/** The coarsest grid a surface is made on while looking for one within the budget. */
const MIN_GRID_LONG_SIDE = 24;
