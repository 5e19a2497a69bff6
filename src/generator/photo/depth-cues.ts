import type { SampleGrid } from '../core/raster.ts';
import { maskBounds } from './mask.ts';
import type { DepthProfile, ProfileInput } from './relief-types.ts';

/**
 * Depth cues a single photo gives beyond its outline, for the relief (relief.ts): by default the
 * object is inflated symmetrically, front and back alike. What the outline and colours can tell:
 *
 * - **Support.** An object standing on separate thin legs, with a thin flat part across them
 *   (a seat, a table top), is furniture-like: a thing on legs stands only if it has legs behind
 *   the ones seen, so the plate is given real depth (a share of its width), the legs seen stand
 *   at its front edge and copies of them at its back edge, and a part rising above the plate (a
 *   chair's back) is a panel along its rear edge.
 *
 * What one photo cannot know (and the cues guess): how deep the plate really is, whether the
 * hidden legs are where the seen ones are, whether the part above the plate is a backrest at the
 * rear or a thing standing in the middle. Measured on the synthetic views (decision 0066).
 */

export interface DepthCueOptions {
  /** Apply the support cue (legs under a plate). Default true. */
  support?: boolean;
  /** Apply the planarity cue (flat-shaded regions are flat faces). Default true. */
  planar?: boolean;
}

/** A flat-shaded region covers at least this share of the object. */
const MIN_FLAT_SHARE = 0.05;
/** …and its samples' luminance varies by at most this (standard deviation, 0..255). */
const FLAT_STD = 4;
/** Neighbouring samples of one flat region differ by at most this (RGB distance). */
const FLAT_STEP = 6;

/**
 * Regions of one flat colour (a painted panel, a box's face under even light), each a set of
 * samples at least {@link MIN_FLAT_SHARE} of the object: a curved surface shows shading across
 * it, a flat face facing the camera does not.
 */
function flatRegions(inside: Uint8Array, width: number, grid: SampleGrid): Int32Array {
  const n = inside.length;
  const region = new Int32Array(n).fill(-1);
  let area = 0;
  for (const v of inside) area += v;
  const colourAt = (s: number) => [grid.rgb[s * 3]!, grid.rgb[s * 3 + 1]!, grid.rgb[s * 3 + 2]!];
  const lum = (s: number) =>
    0.3 * grid.rgb[s * 3]! + 0.59 * grid.rgb[s * 3 + 1]! + 0.11 * grid.rgb[s * 3 + 2]!;
  const seen = new Uint8Array(n);
  let next = 0;
  for (let start = 0; start < n; start++) {
    if (!inside[start] || seen[start] || grid.alpha[start]! < 0.99) continue;
    const members: number[] = [start];
    seen[start] = 1;
    for (let head = 0; head < members.length; head++) {
      const s = members[head]!;
      const x = s % width;
      const c = colourAt(s);
      for (const t of [s - width, s + width, x > 0 ? s - 1 : -1, x + 1 < width ? s + 1 : -1]) {
        if (t < 0 || t >= n || seen[t] || !inside[t] || grid.alpha[t]! < 0.99) continue;
        const d = colourAt(t);
        if (Math.hypot(c[0]! - d[0]!, c[1]! - d[1]!, c[2]! - d[2]!) > FLAT_STEP) continue;
        seen[t] = 1;
        members.push(t);
      }
    }
    if (members.length < MIN_FLAT_SHARE * area) continue;
    let sum = 0;
    let sum2 = 0;
    for (const s of members) {
      sum += lum(s);
      sum2 += lum(s) ** 2;
    }
    const mean = sum / members.length;
    if (Math.sqrt(Math.max(0, sum2 / members.length - mean * mean)) > FLAT_STD) continue;
    for (const s of members) region[s] = next;
    next++;
  }
  return region;
}

/** A plate is as deep as this share of its width. */
const PLATE_DEPTH = 0.8;
/** A panel above a plate is this share of the plate's depth thick, at most. */
const PANEL_THICKNESS = 0.12;
/** Legs: each run of a leg row is at most this share of the object's width. */
const LEG_WIDTH = 0.25;
/** The legs reach at least this share of the object's height up from the ground. */
const MIN_LEG_HEIGHT = 0.2;
/** A plate's layer (its frame, a cushion on it) is at most this high for its width… */
const PLATE_THINNESS = 0.35;
/** …and the whole plate at most this. */
const SEAT_THINNESS = 0.5;
/**
 * A plate spans at least this share of the legs' span, and the legs at least `LEG_SPAN` of the
 * plate's width (legs stand near its ends, as under a seat or a table top).
 */
const PLATE_SPAN = 0.8;
const LEG_SPAN = 0.6;
/** Rows differing by more than this mean colour (RGB distance) are different parts. */
const COLOUR_EDGE = 40;

type Run = [number, number];

function rowRuns(inside: Uint8Array, width: number, y: number): Run[] {
  const runs: Run[] = [];
  for (let x = 0; x < width; x++) {
    if (!inside[y * width + x]) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === x - 1) last[1] = x;
    else runs.push([x, x]);
  }
  return runs;
}

/** The furniture-like structure, when the mask has one: rows of legs, of the plate, above it. */
export interface Support {
  /** First row of the legs (down to the object's lowest row). */
  legsTop: number;
  /** First row of the plate (down to legsTop − 1). */
  plateTop: number;
  /** The plate's width, in samples. */
  plateWidth: number;
}

/** Finds legs standing on the ground under a thin plate that spans them. */
export function findSupport(
  inside: Uint8Array,
  width: number,
  height: number,
  grid?: SampleGrid,
): Support | undefined {
  const b = maskBounds({ width, height, inside });
  if (!b) return undefined;
  const objectWidth = b.x1 - b.x0 + 1;
  const objectHeight = b.y1 - b.y0 + 1;
  const runs = Array.from({ length: height }, (_, y) => rowRuns(inside, width, y));
  const isLegRow = (y: number) =>
    runs[y]!.length >= 2 && runs[y]!.every(([a, c]) => c - a + 1 <= LEG_WIDTH * objectWidth);
  // Ground contacts: two or more separate runs in the lowest rows.
  if (!isLegRow(b.y1) && !(b.y1 > b.y0 && isLegRow(b.y1 - 1))) return undefined;
  let legsTop = isLegRow(b.y1) ? b.y1 : b.y1 - 1;
  while (legsTop - 1 >= b.y0 && isLegRow(legsTop - 1)) legsTop--;
  if (b.y1 - legsTop + 1 < MIN_LEG_HEIGHT * objectHeight || legsTop - 1 < b.y0) return undefined;
  let lx0 = width;
  let lx1 = -1;
  for (let y = legsTop; y <= b.y1; y++)
    for (const [a, c] of runs[y]!) {
      lx0 = Math.min(lx0, a);
      lx1 = Math.max(lx1, c);
    }
  const legSpan = lx1 - lx0 + 1;

  // Rows above the legs, upward: each row's extent, solidity and mean colour.
  const extent = (y: number): Run => [runs[y]![0]![0], runs[y]![runs[y]!.length - 1]![1]];
  const solid = (y: number) => {
    if (runs[y]!.length === 0) return false;
    const [a, c] = extent(y);
    const filled = runs[y]!.reduce((sum, [ra, rc]) => sum + rc - ra + 1, 0);
    return filled >= 0.9 * (c - a + 1);
  };
  const colour = (y: number) => {
    const sum = [0, 0, 0];
    let n = 0;
    if (grid)
      for (let x = 0; x < width; x++) {
        const s = y * width + x;
        if (!inside[s]) continue;
        for (let k = 0; k < 3; k++) sum[k]! += grid.rgb[s * 3 + k]!;
        n++;
      }
    return sum.map((v) => (n ? v / n : 0));
  };
  // Above a row: the x-extent of everything higher up (a chair's back or nothing, for
  // furniture; a horse's head and tail reach beyond its belly).
  const aboveLo = new Int32Array(height + 1).fill(width);
  const aboveHi = new Int32Array(height + 1).fill(-1);
  for (let y = b.y0; y <= b.y1; y++) {
    aboveLo[y + 1] = aboveLo[y]!;
    aboveHi[y + 1] = aboveHi[y]!;
    if (runs[y]!.length === 0) continue;
    const [a, c] = extent(y);
    aboveLo[y + 1] = Math.min(aboveLo[y + 1]!, a);
    aboveHi[y + 1] = Math.max(aboveHi[y + 1]!, c);
  }
  const slack = Math.max(1, Math.round(0.05 * objectWidth));
  // The rows above the legs in layers, split where the next row up is another part: another
  // colour, another width, or not solid.
  const isBoundary = (y: number) => {
    const next = y - 1;
    if (next < b.y0 || !solid(next)) return true;
    const [a, c] = extent(y);
    const [na, nc] = extent(next);
    if (Math.abs(nc - na - (c - a)) > 0.1 * objectWidth) return true;
    if (!grid || next - 1 < b.y0) return false;
    const here = colour(y);
    const above = colour(next - 1);
    return (
      Math.hypot(here[0]! - above[0]!, here[1]! - above[1]!, here[2]! - above[2]!) > COLOUR_EDGE
    );
  };
  // The plate: the layers from the legs up that are each thin and as wide as the first (a seat's
  // frame and its cushion), while the whole stays thin.
  let best: Support | undefined;
  let lo = width;
  let hi = -1;
  let firstWidth = 0;
  let layerBottom = legsTop - 1;
  for (let top = legsTop - 1; top >= b.y0; top--) {
    if (!solid(top)) break;
    const [a, c] = extent(top);
    lo = Math.min(lo, a);
    hi = Math.max(hi, c);
    if (!isBoundary(top)) continue;
    const layerWidth = hi - lo + 1;
    const layerHeight = layerBottom - top + 1;
    if (firstWidth === 0) firstWidth = layerWidth;
    if (layerWidth < 0.9 * firstWidth || layerHeight > PLATE_THINNESS * layerWidth) break;
    const plateWidth = layerWidth;
    const plateHeight = legsTop - top;
    if (plateHeight > SEAT_THINNESS * plateWidth) break;
    layerBottom = top - 1;
    const within =
      aboveHi[top]! < 0 || (aboveLo[top]! >= lo - slack && aboveHi[top]! <= hi + slack);
    if (
      within &&
      plateHeight >= 2 &&
      plateWidth >= PLATE_SPAN * legSpan &&
      legSpan >= LEG_SPAN * plateWidth
    )
      best = { legsTop, plateTop: top, plateWidth };
  }
  return best;
}

/** The depth profile with the cues applied (see the module comment). */
export function depthProfile(
  input: ProfileInput,
  grid?: SampleGrid,
  options: DepthCueOptions = {},
): DepthProfile {
  const { mask, halfDepth, sampleSize } = input;
  const { width, height } = mask;
  const front = new Float32Array(halfDepth);
  const back = halfDepth.map((h) => -h);
  if (grid && options.planar !== false) {
    // Flat faces: each flat region's surface at its deepest inflation, front and back.
    const region = flatRegions(mask.inside, width, grid);
    const deepest = new Map<number, number>();
    for (let s = 0; s < region.length; s++)
      if (region[s]! >= 0)
        deepest.set(region[s]!, Math.max(deepest.get(region[s]!) ?? 0, halfDepth[s]!));
    for (let s = 0; s < region.length; s++) {
      const r = region[s]!;
      if (r < 0) continue;
      front[s] = deepest.get(r)!;
      back[s] = -deepest.get(r)!;
    }
  }
  const support =
    options.support === false ? undefined : findSupport(mask.inside, width, height, grid);
  if (!support) return { front, back };
  const inside = mask.inside;
  const { legsTop, plateTop, plateWidth } = support;
  const depth = PLATE_DEPTH * plateWidth * sampleSize;
  // The plate: a slab as deep as `depth`.
  for (let y = plateTop; y < legsTop; y++)
    for (let x = 0; x < width; x++) {
      const s = y * width + x;
      if (!inside[s]) continue;
      front[s] = depth / 2;
      back[s] = -depth / 2;
    }
  // Above it: a panel along its rear edge.
  const panel = Math.max(PANEL_THICKNESS * depth, 0);
  for (let s = 0; s < plateTop * width; s++) {
    if (!inside[s]) continue;
    const thickness = Math.min(2 * halfDepth[s]!, panel);
    back[s] = -depth / 2;
    front[s] = -depth / 2 + thickness;
  }
  // The legs seen stand at its front edge; copies of them at its back edge.
  // A leg is as deep as it is wide (the inflation may have been stretched to give the whole
  // object its minimum depth).
  let widest = 1;
  for (let y = legsTop; y < height; y++)
    for (const [a, c] of rowRuns(inside, width, y)) widest = Math.max(widest, c - a + 1);
  const radius = Math.min((widest / 2) * sampleSize, depth / 4);
  const legs = new Uint8Array(width * height);
  const copyFront = new Float32Array(width * height);
  const copyBack = new Float32Array(width * height);
  for (let s = legsTop * width; s < width * height; s++) {
    if (!inside[s]) continue;
    const h = Math.min(halfDepth[s]!, radius);
    front[s] = depth / 2 - radius + h;
    back[s] = depth / 2 - radius - h;
    legs[s] = 1;
    copyFront[s] = -depth / 2 + radius + h;
    copyBack[s] = -depth / 2 + radius - h;
  }
  // The copies reach a row into the plate, so they meet its underside (a little thinner there:
  // no vertex of theirs may sit on the plate's own surface).
  const centre = -depth / 2 + radius;
  for (let x = 0; x < width; x++) {
    const below = legsTop * width + x;
    const s = below - width;
    if (!legs[below] || !inside[s]) continue;
    legs[s] = 1;
    copyFront[s] = centre + 0.9 * (copyFront[below]! - centre);
    copyBack[s] = centre + 0.9 * (copyBack[below]! - centre);
  }
  return { front, back, copies: [{ inside: legs, front: copyFront, back: copyBack }] };
}
