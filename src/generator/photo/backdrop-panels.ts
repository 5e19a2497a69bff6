/**
 * A plain surface behind the object that the border never sees (a disc, a board, a coloured wall
 * panel): it differs from the backdrop, so the colour test takes it for the object, and it would
 * be built as a slab behind it. Fitted to the mask's own outline as the backdrop is to the border
 * (backdrop.ts), and peeled off when the object stands in front of it.
 */
import type { SampleGrid } from '../core/raster.ts';
import { fitSurface } from './backdrop.ts';
import { maskFromBackground, type Background } from './background-mask.ts';
import { cleanMask, type Mask } from './mask.ts';
import { components } from './mask-regions.ts';
import { distanceToBackground } from './distance-transform.ts';

/** What {@link peelBackdropPanel} found. */
export interface PanelPeel {
  /** The mask without the panel (the input mask when none was peeled). */
  mask: Mask;
  /** A panel was peeled off. */
  peeled: boolean;
  /**
   * The outline is mostly one plain surface around something else, but not clearly a surface
   * behind the object (it does not reach past the object's sides, or the object does not reach
   * past it): it is kept, and the cut-out says it may be a backdrop.
   */
  suspect: boolean;
  /** The peeled surface's mean colour (RGB), for peeling it on another grid. */
  colour?: number[];
  /** Measures, for tests and tuning (absent when nothing was measured). */
  stats?: PanelStats;
}

interface PanelStats {
  /** Share of the outline the plain surface's field explains. */
  outline: number;
  /** Share of the mask left once the surface is taken off. */
  inner: number;
  /** Share of the inner part's outline that borders the surface (rather than the backdrop). */
  surround: number;
  /** Share of the mask's outline that is the inner part's (it stands past the surface). */
  reach: number;
  /** The surface's noise, RGB distance. */
  noise: number;
  /** Share of the surface's convex hull the mask fills (0 when not measured). */
  hullFill: number;
}

/** At least this share of the outline is one plain surface for it to be a panel. */
const MIN_OUTLINE = 0.3;
/** What is left is at least this share of the mask (else the "panel" is the object). */
const MIN_INNER = 0.12;
/** … and at most this (else nothing much was peeled). */
const MAX_INNER = 0.9;
/** The object borders the panel along at least this share of its outline (it is in front). */
const MIN_SURROUND = 0.45;
/** The object reaches past the panel along at least this share of the mask's outline. */
const MIN_REACH = 0.04;
/** A panel is plain: its field explains its outline within this noise (RGB distance). */
const MAX_NOISE = 12;

const NONE: PanelStats = { outline: 0, inner: 0, surround: 0, reach: 0, noise: 0, hullFill: 0 };
/** How deep inside the outline the surface's colours are read, in samples. */
const RING_DEPTH = 2;
/** A surface with the object in front fills at least this share of its convex hull. */
const MIN_HULL_FILL = 0.9;
/**
 * A plain surface, apart from the backdrop, that fills nearly that much of its hull (a disc or a
 * panel the object's own colour, or with the object's limbs over its edge) is kept, but the
 * cut-out says it may be backdrop (issue 32: the horse on a chestnut disc, the flamingo and the
 * horse on a blue panel).
 */
const SUSPECT_HULL_FILL = 0.8;

/** Mask samples with a 4-neighbour outside it (not the frame: where the object reaches it). */
function outline(mask: Mask): number[] {
  const { width, height, inside } = mask;
  const out: number[] = [];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const s = y * width + x;
      if (!inside[s]) continue;
      if (
        (x > 0 && !inside[s - 1]) ||
        (x + 1 < width && !inside[s + 1]) ||
        (y > 0 && !inside[s - width]) ||
        (y + 1 < height && !inside[s + width])
      )
        out.push(s);
    }
  return out;
}

/**
 * The band just inside the outline, RING_DEPTH samples in: its colours are the surface's own,
 * not the blend of surface and backdrop the outline samples are.
 */
function innerRing(mask: Mask): number[] {
  const depth = distanceToBackground(mask);
  const out: number[] = [];
  for (let s = 0; s < depth.length; s++)
    if (mask.inside[s] && depth[s]! >= RING_DEPTH && depth[s]! < RING_DEPTH + 1.5) out.push(s);
  return out;
}

/** The share of the convex hull of `region`'s samples that `filled` covers. */
function hullFill(region: Uint8Array, filled: Uint8Array, width: number, height: number): number {
  const points: [number, number][] = [];
  for (let y = 0; y < height; y++) {
    let first = -1;
    let last = -1;
    for (let x = 0; x < width; x++)
      if (region[y * width + x]) {
        if (first < 0) first = x;
        last = x;
      }
    if (first >= 0) points.push([first, y], [last, y]);
  }
  if (points.length < 6) return 0;
  // Andrew's monotone chain.
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: [number, number], a: [number, number], b: [number, number]) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (pts: [number, number][]) => {
    const h: [number, number][] = [];
    for (const p of pts) {
      while (h.length >= 2 && cross(h[h.length - 2]!, h[h.length - 1]!, p) <= 0) h.pop();
      h.push(p);
    }
    h.pop();
    return h;
  };
  const hull = [...half(points), ...half([...points].reverse())];
  let area = 0;
  let covered = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let inHull = true;
      for (let i = 0; i < hull.length && inHull; i++)
        if (cross(hull[i]!, hull[(i + 1) % hull.length]!, [x, y]) < 0) inHull = false;
      if (!inHull) continue;
      area++;
      if (filled[y * width + x]) covered++;
    }
  return area ? covered / area : 0;
}

/**
 * What differs from the surface in the mask's outline band (the surface's anti-aliased rim
 * against the backdrop, neither its colour nor the backdrop's) is dropped, unless it continues
 * the object inward (a leg reaching the outline): an object sample deeper than the band lies
 * within two samples of it.
 */
function withoutRim(inside: Uint8Array, mask: Mask): Uint8Array {
  const { width, height } = mask;
  const depth = distanceToBackground(mask);
  const out = new Uint8Array(inside);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const s = y * width + x;
      if (!inside[s] || depth[s]! > RIM_DEPTH) continue;
      let anchored = false;
      for (let dy = -2; dy <= 2 && !anchored; dy++)
        for (let dx = -2; dx <= 2 && !anchored; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const n = ny * width + nx;
          if (inside[n] && depth[n]! > RIM_DEPTH) anchored = true;
        }
      if (!anchored) out[s] = 0;
    }
  return out;
}

/** A surface behind the object is at least this many tolerances from the backdrop's colour. */
const APART = 1.5;

/** The outline band, in samples of depth (the surface's rim lies in it). */
const RIM_DEPTH = 2;

/** The largest 8-connected part of a mask. */
function largestPart(mask: Mask): Uint8Array {
  const parts = components(mask, 1);
  const largest = parts.sizes.indexOf(Math.max(...parts.sizes));
  return Uint8Array.from(parts.labels, (l) => (l === largest ? 1 : 0));
}

/**
 * Peels a plain surface behind the object off the mask. The band just inside the mask's outline
 * is fitted with a smooth colour field (backdrop.ts); the surface is backdrop when that field
 * explains most of the band and is plain, the surface with what stands in front of it fills its
 * convex hull (a disc, a board, a panel: not an object's own body, whose hull takes in the space
 * between its limbs), and the largest part that differs from it is an object in front: bordering
 * the surface along most of its own outline, and reaching past it to the real backdrop.
 */
export function peelBackdropPanel(
  mask: Mask,
  grid: SampleGrid,
  background: Background,
  /** The colour of a surface peeled on another grid: peel it here too. */
  force?: readonly number[],
): PanelPeel {
  const keep = (stats: PanelStats, suspect = false): PanelPeel => ({
    mask,
    peeled: false,
    suspect,
    stats,
  });
  const ring = innerRing(mask);
  if (ring.length < 24) return keep(NONE);
  const surface = fitSurface(grid, ring, force);
  if (!surface) return keep(NONE);
  const panel: Background = {
    ...background,
    field: surface.field,
    noise: surface.noise,
    grain: surface.grain,
    horizon: null,
    threshold: Math.min(40, Math.max(20, 3 * surface.noise + 12)),
  };
  // Whatever differs from the surface, within the mask.
  const found = maskFromBackground(grid, panel);
  const inside = new Uint8Array(mask.inside.length);
  let total = 0;
  for (let s = 0; s < inside.length; s++) {
    if (!mask.inside[s]) continue;
    total++;
    if (found.inside[s]) inside[s] = 1;
  }
  const inner = cleanMask({ ...mask, inside: withoutRim(inside, mask) });
  let innerCount = 0;
  for (const v of inner.inside) innerCount += v;
  const { width, height } = mask;
  const front = largestPart(inner);
  // Where the front part's outline borders: the surface (in the mask) or the backdrop.
  let byPanel = 0;
  let byBackdrop = 0;
  for (const s of outline({ width, height, inside: front })) {
    const x = s % width;
    const y = (s - x) / width;
    let panelSide = false;
    let backdropSide = false;
    for (const [dx, dy] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      const nx = x + dx;
      const ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      const n = ny * width + nx;
      if (front[n]) continue;
      if (mask.inside[n]) panelSide = true;
      else backdropSide = true;
    }
    if (panelSide) byPanel++;
    else if (backdropSide) byBackdrop++;
  }
  const edge = outline(mask);
  let reach = 0;
  for (const s of edge) if (front[s]) reach++;
  const surfaceOnly = Uint8Array.from(mask.inside, (v, s) => (v && !inner.inside[s] ? 1 : 0));
  const stats: PanelStats = {
    outline: surface.explained,
    inner: total ? innerCount / total : 0,
    surround: byPanel + byBackdrop ? byPanel / (byPanel + byBackdrop) : 0,
    reach: edge.length ? reach / edge.length : 0,
    noise: surface.noise,
    hullFill: 0,
  };
  const plainOutline = stats.outline >= MIN_OUTLINE && stats.noise <= MAX_NOISE;
  const somethingInside = stats.inner >= MIN_INNER && stats.inner <= MAX_INNER;
  // Peeled on another grid (the standard one decides for every tier): only something must be left.
  if (force) {
    if (stats.inner < MIN_INNER) return keep(stats);
  } else {
    if (!plainOutline || !somethingInside) return keep(stats);
    // A surface barely off the backdrop (a house's light walls on a light sweep) is the object's
    // own, let in by the weak tolerance; a surface behind it stands clearly apart.
    const colour = meanColour(surface.field, surfaceOnly);
    if (
      Math.hypot(...colour.map((c, k) => c - background.colour[k]!)) <
      APART * background.threshold
    )
      return keep(stats);
    stats.hullFill = hullFill(surfaceOnly, mask.inside, width, height);
    if (stats.hullFill < MIN_HULL_FILL) return keep(stats, stats.hullFill >= SUSPECT_HULL_FILL);
    if (stats.surround < MIN_SURROUND || stats.reach < MIN_REACH) return keep(stats, true);
  }
  const coverage = mask.coverage
    ? Float32Array.from(mask.coverage, (c, s) => Math.min(c, found.coverage?.[s] ?? c))
    : found.coverage;
  return {
    mask: { ...inner, ...(coverage ? { coverage } : {}) },
    peeled: true,
    suspect: false,
    colour: meanColour(surface.field, surfaceOnly),
    stats,
  };
}

/** The mean of a field's colours over the samples set in `where`. */
function meanColour(field: Float32Array, where: Uint8Array): number[] {
  const sum = [0, 0, 0];
  let n = 0;
  for (let s = 0; s < where.length; s++) {
    if (!where[s]) continue;
    n++;
    for (let k = 0; k < 3; k++) sum[k]! += field[s * 3 + k]!;
  }
  return sum.map((v) => v / Math.max(1, n));
}
