import type { GenerateHooks } from '../core/hooks.ts';
import { MeshoptSimplifier } from 'meshoptimizer';
import { GeneratorInputError } from '../core/errors.ts';
import { writeGlb, type MaterialSpec, type PrimitiveSpec } from '../core/glb.ts';
import { maskBounds } from '../photo/mask.ts';
import { computeVertexNormals, extractSubmesh, faceNormal } from '../core/mesh.ts';
import { badEdgeCount } from '../core/topology.ts';
import type { EncodedTexture } from '../core/raster.ts';
import { loadSubject, textureOf, type Subject } from '../photo/subject.ts';
import { surfaceNets, taubinSmooth, type TriangleMesh } from '../core/surface-nets.ts';
import {
  VIEW_DIRECTIONS,
  projectToMask,
  type Extents,
  type Silhouette,
  type ViewSide,
} from './view-frame.ts';
import { carveHull, type Hull } from './visual-hull.ts';

/** Options of {@link viewsToGlb}. */
export interface ViewsToGlbOptions extends GenerateHooks {
  /**
   * Voxels along the object's largest extent (16–256). Higher keeps finer detail and costs
   * time roughly with its square (surface) to cube (carving). Default 128: a chair's legs
   * (5 % of its width) are about 3 voxels thick, and carving plus meshing take a few hundred
   * milliseconds (decoding the photos and encoding their textures take most of a run).
   */
  resolution?: number;
  /** Most triangles in the model (16–1 000 000). Default 40 000. */
  maxTriangles?: number;
  /** Taubin smoothing iterations over the voxel surface (0–20). Default 2. */
  smoothing?: number;
  /**
   * Longest side of each view's texture, in pixels (64–2048; the photo is never enlarged,
   * and the texture is resized to power-of-two sides). Default 1024.
   */
  textureSize?: number;
  /**
   * How far simplification may move the surface, relative to the model's size (0–0.01): flat
   * parts collapse to a few large triangles within it. Default 0.0005.
   */
  simplifyError?: number;
}

export const VIEWS_TO_GLB_DEFAULTS = {
  resolution: 128,
  maxTriangles: 40_000,
  smoothing: 2,
  textureSize: 1024,
  simplifyError: 5e-4,
} as const;

/** Names of the views (and their materials) in input order. */
const VIEW_NAMES = ['front', 'right', 'back', 'left'] as const;
/** Mask samples per voxel along the grid's long side: finer masks keep thin parts exact. */
const MASK_SAMPLES_PER_VOXEL = 3;
/** How far inside the surface (in voxels) each vertex's colour is taken from the photos. */
const UV_INSET_VOXELS = 1.5;
/**
 * When the hull, seen from some view, covers less than this share of that view's silhouette,
 * the views do not show one object (consistent views give about 1; unrelated photos 0.3–0.7).
 */
const MIN_COVERAGE = 0.2;
/** Fewer inside voxels or triangles than these: nothing survived. */
const MIN_INSIDE_VOXELS = 8;
const MIN_TRIANGLES = 12;
const MESH_NAME = 'kiln-visual-hull';

const NOTHING_SURVIVES =
  'Nothing survives carving: the views do not show one object from the front, right, back and left (in that order).';

function option(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** Width ÷ height of the object's bounding box in the photo, in pixels. */
function aspect(subject: Subject, silhouette: Silhouette): number {
  const { mask, raster } = subject;
  const b = silhouette.bounds;
  const width = ((b.x1 + 1 - b.x0) / mask.width) * raster.width;
  const height = ((b.y1 + 1 - b.y0) / mask.height) * raster.height;
  return width / height;
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * The object's size, 1 m tall: its width from the front and back views, its depth from the
 * right and left (each the mean of the views that show it; a view's bounding-box aspect ratio
 * times the height).
 */
function extentsOf(subjects: readonly Subject[], views: readonly Silhouette[]): Extents {
  const widths: number[] = [];
  const depths: number[] = [];
  views.forEach((view, i) => {
    (view.side % 2 === 0 ? widths : depths).push(aspect(subjects[i]!, view));
  });
  return { x: mean(widths), y: 1, z: mean(depths) };
}

/** The voxel surface in metres (object frame), smoothed and simplified. */
async function hullMesh(
  hull: Hull,
  smoothing: number,
  maxTriangles: number,
  simplifyError: number,
): Promise<TriangleMesh | null> {
  const { grid } = hull;
  const nets = surfaceNets(grid.field, grid.nx, grid.ny, grid.nz);
  if (nets.indices.length / 3 < MIN_TRIANGLES)
    throw new GeneratorInputError(NOTHING_SURVIVES, { reason: 'views_disagree' });
  const positions = nets.positions;
  for (let v = 0; v < positions.length; v += 3) {
    for (let k = 0; k < 3; k++) {
      positions[v + k] = grid.origin[k]! + positions[v + k]! * grid.step[k]!;
    }
  }
  const smoothed =
    smoothing > 0 ? taubinSmooth({ positions, indices: nets.indices }, smoothing) : positions;
  await MeshoptSimplifier.ready;
  // First collapse what hardly changes the shape (flat parts), then, if still over budget,
  // go down to the budget whatever the error. The budget is a promise (each tier's): it is
  // never raised. A collapse that flattens a thin part can leave an edge shared by four faces:
  // then the simplification is redone with less error, and when even that fails the answer is
  // null and the hull is carved again on a coarser grid (surface nets over a well-composed hull
  // are edge-manifold, and a coarser one has fewer triangles to begin with).
  let error = simplifyError;
  for (let attempt = 0; attempt < 4; attempt++) {
    let [indices] = MeshoptSimplifier.simplify(nets.indices, smoothed, 3, 0, error, ['Prune']);
    if (indices.length / 3 > maxTriangles) {
      [indices] = MeshoptSimplifier.simplify(indices, smoothed, 3, maxTriangles * 3, 1, ['Prune']);
    }
    indices = withoutDegenerate(smoothed, indices);
    if (indices.length / 3 <= maxTriangles && badEdgeCount(indices) === 0)
      return { positions: smoothed, indices };
    error /= 2;
  }
  const whole = withoutDegenerate(smoothed, nets.indices);
  return whole.length / 3 <= maxTriangles && badEdgeCount(whole) === 0
    ? { positions: smoothed, indices: whole }
    : null;
}

/** The coarsest grid a hull is carved on while looking for a surface within the budget. */
const MIN_RESOLUTION = 16;

/** Drops triangles with a repeated vertex or (next to) no area. */
function withoutDegenerate(positions: Float32Array, indices: Uint32Array): Uint32Array {
  const kept: number[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]!;
    const b = indices[t + 1]!;
    const c = indices[t + 2]!;
    if (a === b || b === c || a === c) continue;
    const [nx, ny, nz] = faceNormal(positions, a * 3, b * 3, c * 3);
    if (Math.hypot(nx, ny, nz) < 1e-12) continue;
    kept.push(a, b, c);
  }
  return Uint32Array.from(kept);
}

/**
 * Per triangle, the view that textures it: among the views whose camera sees the triangle
 * (it is not hidden behind another part of the hull) and that it faces, the one it faces
 * most directly; when none does (the back, given only a front and a right view), the view
 * whose axis is closest to its normal, projected through the object.
 */
function assignViews(
  positions: Float32Array,
  indices: Uint32Array,
  views: readonly Silhouette[],
  hull: Hull,
): Uint32Array[] {
  const { step } = hull.grid;
  const tolerance = 1.5 * Math.max(...step);
  const groups: number[][] = views.map(() => []);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3;
    const b = indices[t + 1]! * 3;
    const c = indices[t + 2]! * 3;
    const [nx, ny, nz] = faceNormal(positions, a, b, c);
    const length = Math.hypot(nx, ny, nz);
    const x = (positions[a]! + positions[b]! + positions[c]!) / 3;
    const y = (positions[a + 1]! + positions[b + 1]! + positions[c + 1]!) / 3;
    const z = (positions[a + 2]! + positions[b + 2]! + positions[c + 2]!) / 3;
    let best = -1;
    let bestDot = 0;
    let fallback = 0;
    let fallbackDot = -1;
    views.forEach((view, v) => {
      const [dx, dy, dz] = VIEW_DIRECTIONS[view.side]!;
      const dot = (nx * dx + ny * dy + nz * dz) / length;
      if (dot > bestDot && hull.visible(view.side, x, y, z, tolerance)) {
        best = v;
        bestDot = dot;
      }
      if (Math.abs(dot) > fallbackDot) {
        fallback = v;
        fallbackDot = Math.abs(dot);
      }
    });
    groups[best >= 0 ? best : fallback]!.push(indices[t]!, indices[t + 1]!, indices[t + 2]!);
  }
  return groups.map((g) => Uint32Array.from(g));
}

/**
 * Turns 2–4 photos of one object into a textured visual hull. The photos are taken as the
 * front, right, back and left views, in that order (2 photos: front and right; 3: front,
 * right and back), upright and treated as orthographic. Each photo's object is found (alpha
 * channel or plain backdrop) and its bounding box stretched over the object's extent: the
 * model is 1 m tall, as wide as the front (and back) views' aspect ratios say, as deep as the
 * side views' (averaged where two views show the same extent). Voxels survive when they lie
 * inside every silhouette; thin parts narrower than a voxel are kept about a voxel thick. The
 * surface (surface nets over a signed-distance field, lightly smoothed and simplified) is
 * closed, grounded (lowest point at y = 0, centred on x and z) and textured per triangle from
 * the view that sees it most directly: one primitive and material per view, its photo as the
 * base colour texture (power-of-two sides), UVs from the orthographic projection.
 *
 * @throws GeneratorInputError when there are not 2 to 4 images, naming the first image (by
 *   position, with `imageIndex`) that is not a usable photo of an object, or when (almost)
 *   nothing survives carving because the views do not show one object.
 */
export async function viewsToGlb(
  images: readonly Uint8Array[],
  options: ViewsToGlbOptions = {},
): Promise<Uint8Array> {
  if (!Array.isArray(images) || images.length < 2 || images.length > 4) {
    const count = Array.isArray(images) ? images.length : 0;
    throw new GeneratorInputError(
      `Multi-view generation needs 2 to 4 images of the same object; got ${count}.`,
    );
  }
  const resolution = option(options.resolution, VIEWS_TO_GLB_DEFAULTS.resolution, 16, 256);
  const maxTriangles = option(
    options.maxTriangles,
    VIEWS_TO_GLB_DEFAULTS.maxTriangles,
    16,
    1_000_000,
  );
  const smoothing = option(options.smoothing, VIEWS_TO_GLB_DEFAULTS.smoothing, 0, 20);
  const textureMaxSide = option(options.textureSize, VIEWS_TO_GLB_DEFAULTS.textureSize, 64, 2048);
  const simplifyError =
    options.simplifyError !== undefined && Number.isFinite(options.simplifyError)
      ? Math.min(0.01, Math.max(0, options.simplifyError))
      : VIEWS_TO_GLB_DEFAULTS.simplifyError;
  const gridLongSide = Math.min(textureMaxSide, MASK_SAMPLES_PER_VOXEL * resolution);

  // Decode all, then report the first failure by position (not by finishing order).
  const settled = await Promise.allSettled(
    images.map((bytes, i) => loadSubject(bytes, { imageIndex: i, gridLongSide, textureMaxSide })),
  );
  const subjects = settled.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
  // sharp encodes the textures on its own threads while the hull is built here.
  const textures = Promise.all(subjects.map(textureOf));
  textures.catch(() => undefined);

  const views: Silhouette[] = subjects.map((subject, i) => ({
    side: i as ViewSide,
    mask: subject.mask,
    // loadSubject refuses images without an object, so every mask has bounds.
    bounds: maskBounds(subject.mask)!,
  }));
  const extents = extentsOf(subjects, views);
  let hull: Hull | undefined;
  let mesh: TriangleMesh | null = null;
  for (let grid = resolution; !mesh; grid = Math.round(grid * 0.75)) {
    if (grid < MIN_RESOLUTION)
      throw new Error(`the model cannot be made within ${maxTriangles} triangles`);
    hull = carveHull(views, extents, grid);
    if (hull.insideCount < MIN_INSIDE_VOXELS || Math.min(...hull.coverage) < MIN_COVERAGE) {
      throw new GeneratorInputError(NOTHING_SURVIVES, { reason: 'views_disagree' });
    }
    mesh = await hullMesh(hull, smoothing, maxTriangles, simplifyError);
  }
  const { positions, indices } = mesh;
  const carved = hull!;
  if (indices.length / 3 < MIN_TRIANGLES)
    throw new GeneratorInputError(NOTHING_SURVIVES, { reason: 'views_disagree' });
  options.onPhase?.('processing');
  const groups = assignViews(positions, indices, views, carved);

  // Scale to exactly 1 m tall and ground it; UVs come from the unscaled object frame.
  let minY = Infinity;
  let maxY = -Infinity;
  for (const v of indices) {
    minY = Math.min(minY, positions[v * 3 + 1]!);
    maxY = Math.max(maxY, positions[v * 3 + 1]!);
  }
  const scale = 1 / (maxY - minY);
  const placed = new Float32Array(positions.length);
  for (let v = 0; v < positions.length; v += 3) {
    placed[v] = positions[v]! * scale;
    placed[v + 1] = (positions[v + 1]! - minY) * scale;
    placed[v + 2] = positions[v + 2]! * scale;
  }
  const normals = computeVertexNormals(placed, indices);

  const encoded: EncodedTexture[] = await textures;
  const primitives: PrimitiveSpec[] = [];
  const inset = UV_INSET_VOXELS * Math.max(...carved.grid.step);
  views.forEach((view, i) => {
    const triangles = groups[i]!;
    if (triangles.length === 0) return;
    const { mask } = view;
    const clamp = (t: number): number => Math.min(1, Math.max(0, t));
    // Each vertex takes the colour a little inside the surface (along its normal): top and
    // bottom faces, which no view sees, get the colour just below (above) the photo's edge
    // rather than the blend of object and background along the outline.
    const mesh = extractSubmesh(placed, normals, triangles, (v) => {
      const [mx, my] = projectToMask(
        view,
        extents,
        positions[v * 3]! - inset * normals[v * 3]!,
        positions[v * 3 + 1]! - inset * normals[v * 3 + 1]!,
        positions[v * 3 + 2]! - inset * normals[v * 3 + 2]!,
      );
      return [clamp(mx / mask.width), clamp(my / mask.height)];
    });
    const material: MaterialSpec = {
      name: VIEW_NAMES[view.side],
      baseColorTexture: encoded[i]!,
      metallic: 0,
      roughness: 0.8,
    };
    primitives.push({ mesh, material });
  });
  return writeGlb(MESH_NAME, primitives);
}
