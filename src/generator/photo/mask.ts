import type { Raster, SampleGrid } from '../core/raster.ts';
import { fitBackdrop, grainDistance, type Backdrop } from './backdrop.ts';

/** A binary object mask over a sample grid: 1 = object, 0 = background. Row-major. */
export interface Mask {
  width: number;
  height: number;
  inside: Uint8Array;
  /**
   * How much of each sample's cell the object covers (0..1), where known: it places the
   * outline between sample centres.
   */
  coverage?: Float32Array;
}

export interface Bounds {
  /** Inclusive sample indices. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Object = samples whose (area-averaged) alpha is at least `threshold`, widened where the
 * object is thinner than the grid can mesh (see {@link widenThinParts}).
 */
export function maskFromAlpha(grid: SampleGrid, threshold = 0.3): Mask {
  const inside = new Uint8Array(grid.width * grid.height);
  for (let i = 0; i < inside.length; i++) inside[i] = grid.alpha[i]! >= threshold ? 1 : 0;
  return widenThinParts(
    { width: grid.width, height: grid.height, inside, coverage: grid.alpha },
    grid.alpha,
  );
}

/**
 * The mesh is made of grid cells with at least three object corners, so a line of object
 * samples one sample wide (a flamingo's leg) would produce no triangles at all. Samples that
 * belong to no 2×2 block of object samples get their partly covered neighbours added.
 */
function widenThinParts(mask: Mask, coverage: Float32Array, minCoverage = 0.04): Mask {
  const { width, height, inside } = mask;
  const inBlock = new Uint8Array(width * height);
  for (let y = 0; y + 1 < height; y++) {
    for (let x = 0; x + 1 < width; x++) {
      const a = y * width + x;
      if (inside[a] && inside[a + 1] && inside[a + width] && inside[a + width + 1]) {
        inBlock[a] = inBlock[a + 1] = inBlock[a + width] = inBlock[a + width + 1] = 1;
      }
    }
  }
  const out = new Uint8Array(inside);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = y * width + x;
      if (!inside[s] || inBlock[s]) continue;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const n = ny * width + nx;
          if (coverage[n]! >= minCoverage) out[n] = 1;
        }
      }
    }
  }
  return { width, height, inside: out, coverage };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * The backdrop an opaque photo's object stands on: its colour at each grid sample (a smooth
 * field, see backdrop.ts), its median colour, and how far (RGB distance) a pixel may be from it.
 */
export interface Background {
  colour: [number, number, number];
  threshold: number;
  /** RGB per grid sample, row-major. */
  field: Float32Array;
  /** How far border samples typically are from the field (its fit's 80th percentile). */
  noise: number;
  /** The row where a wall meets a table (the field steps there), when there is one. */
  horizon: number | null;
  /** The backdrop's grain, if any (backdrop.ts): distances weigh it down. */
  grain: Backdrop['grain'];
  /** The grid the field is over. */
  width: number;
  height: number;
}

/**
 * For opaque images: fits the backdrop to the border (a gradient, a vignette, a wall and a table
 * meeting at a horizon, light texture). Returns undefined when the border is no backdrop (a busy
 * photo), as no mask can then be guessed this way.
 */
export function estimateBackground(grid: SampleGrid): Background | undefined {
  const backdrop = fitBackdrop(grid);
  if (!backdrop) return undefined;
  const { field } = backdrop;
  const n = grid.width * grid.height;
  const colour = [0, 1, 2].map((k) =>
    median(Array.from({ length: n }, (_, s) => field[s * 3 + k]!)),
  ) as [number, number, number];
  return {
    colour,
    threshold: Math.min(70, Math.max(24, 3 * backdrop.noise + 12)),
    field,
    noise: backdrop.noise,
    horizon: backdrop.horizon,
    grain: backdrop.grain,
    width: grid.width,
    height: grid.height,
  };
}

/**
 * How far sample `s` is from the backdrop (its grain weighed down). Samples on the horizon
 * straddle the wall and the table (their colour is a mix, in any proportion): they are measured
 * against the colours between the row above it and the row below.
 */
function backdropDistance(grid: SampleGrid, background: Background, s: number): number {
  const [r, g, b] = [grid.rgb[s * 3]!, grid.rgb[s * 3 + 1]!, grid.rgb[s * 3 + 2]!];
  const here = distanceTo(background, r, g, b, backdropAt(background, s));
  const { horizon, width, height } = background;
  const y = Math.floor(s / width);
  if (horizon === null || Math.abs(y - horizon) > 1) return here;
  const x = s - y * width;
  const above = backdropAt(background, Math.max(0, horizon - 2) * width + x);
  const below = backdropAt(background, Math.min(height - 1, horizon + 1) * width + x);
  // The nearest point of the segment from `above` to `below`.
  const d = [0, 1, 2].map((k) => below[k]! - above[k]!);
  const len2 = d[0]! ** 2 + d[1]! ** 2 + d[2]! ** 2;
  const t =
    len2 > 0
      ? Math.min(
          1,
          Math.max(
            0,
            ((r - above[0]) * d[0]! + (g - above[1]) * d[1]! + (b - above[2]) * d[2]!) / len2,
          ),
        )
      : 0;
  const mixed = above.map((v, k) => v + t * d[k]!);
  return Math.min(here, distanceTo(background, r, g, b, mixed));
}

/** The distance from a colour to a backdrop colour, the backdrop's grain weighed down. */
function distanceTo(
  background: Background,
  r: number,
  g: number,
  b: number,
  colour: readonly number[],
): number {
  return grainDistance(r - colour[0]!, g - colour[1]!, b - colour[2]!, background.grain);
}

/** The backdrop's colour at sample `s`. */
function backdropAt(background: Background, s: number): [number, number, number] {
  const f = background.field;
  return [f[s * 3]!, f[s * 3 + 1]!, f[s * 3 + 2]!];
}

/**
 * Object = samples whose colour is far enough from the background's, and (hysteresis) samples
 * joined to those through samples still clearly off the backdrop for its noise: the tolerance's
 * floor (kept for gradients and compression the field does not model) would otherwise punch holes
 * in parts a little off the backdrop's colour, such as a house's light walls on a light sweep.
 */
export function maskFromBackground(grid: SampleGrid, background: Background): Mask {
  const { width, height } = grid;
  const inside = new Uint8Array(width * height);
  const coverage = new Float32Array(width * height);
  const distance = new Float32Array(width * height);
  const queue: number[] = [];
  for (let s = 0; s < inside.length; s++) {
    const d = backdropDistance(grid, background, s);
    distance[s] = d;
    inside[s] = d > background.threshold ? 1 : 0;
    if (inside[s]) queue.push(s);
    // Half covered at the threshold, fully from twice it.
    coverage[s] = Math.min(1, Math.max(0, d / background.threshold - 0.5));
  }
  const low = Math.min(background.threshold, Math.max(WEAK_FLOOR, 3 * background.noise + 6));
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head]!;
    const x = s % width;
    for (const t of [s - width, s + width, x > 0 ? s - 1 : -1, x + 1 < width ? s + 1 : -1]) {
      if (t < 0 || t >= inside.length || inside[t] || distance[t]! <= low) continue;
      inside[t] = 1;
      coverage[t] = Math.min(1, Math.max(0, distance[t]! / low - 0.5));
      queue.push(t);
    }
  }
  return widenThinParts({ width, height, inside, coverage }, coverage);
}

/**
 * How much of each outline sample the object covers, from its colour: a sample on the edge is a
 * mix of the object's colour and the backdrop's, in the proportion of the cell the object covers
 * (c = αf + (1 − α)b). The object's colour f is the mean of interior samples within two samples
 * (for a part all outline, a leg a sample or two wide: its purest sample near), and α the length
 * of c − b against f − b (not its projection, which a pale rim on a saturated interior read as
 * barely covered). The distance-based coverage of {@link maskFromBackground} saturates on a
 * contrasting edge and so put every outline half a sample out: a thin leg came out too wide.
 * With `chromaBlurred` (JPEG, lossy WebP: colour stored at half resolution, so a saturated
 * part's hue bleeds a pixel or two onto the backdrop) α is read from brightness alone where
 * object and backdrop differ in it.
 *
 * Outline samples whose colour says they hold almost no object (α under {@link MIN_RIM_COVERAGE},
 * or {@link MIN_RIM_COVERAGE_LOSSY} in a lossy photo: compression ringing beside a feather's tip,
 * let in by the weak tolerance) are backdrop; the outline is peeled so, up to {@link MAX_PEELS}
 * samples deep.
 */
export function edgeCoverage(
  mask: Mask,
  grid: SampleGrid,
  background: Background,
  chromaBlurred = false,
): Mask {
  let current = mask;
  const floor = chromaBlurred ? MIN_RIM_COVERAGE_LOSSY : MIN_RIM_COVERAGE;
  for (let peel = 0; ; peel++) {
    const { coverage, edge } = outlineCoverage(current, grid, background, chromaBlurred);
    const inside = new Uint8Array(current.inside);
    let dropped = 0;
    if (peel < MAX_PEELS)
      for (let s = 0; s < inside.length; s++)
        if (edge[s] && coverage[s]! < floor) {
          inside[s] = 0;
          dropped++;
        }
    current = { ...current, inside, coverage };
    if (dropped === 0) return current;
  }
}

/** Outline samples covered less than this (by their colour) are backdrop. */
const MIN_RIM_COVERAGE = 0.1;
/**
 * The same in a lossy photo, whose compression puts colour beside every edge (ringing, bled
 * hue) that reads as a fifth of the object or so (decision 0073).
 */
const MIN_RIM_COVERAGE_LOSSY = 0.2;
/** At most this many samples deep. */
const MAX_PEELS = 3;

/** Coverage of the outline samples by their colour (see {@link edgeCoverage}), and which they are. */
function outlineCoverage(
  mask: Mask,
  grid: SampleGrid,
  background: Background,
  chromaBlurred: boolean,
): { coverage: Float32Array; edge: Uint8Array } {
  const { width, height, inside } = mask;
  const coverage = mask.coverage ? Float32Array.from(mask.coverage) : Float32Array.from(inside);
  const edge = new Uint8Array(inside.length);
  for (let s = 0; s < inside.length; s++) {
    if (!inside[s]) continue;
    const x = s % width;
    const y = (s - x) / width;
    edge[s] =
      (x > 0 && !inside[s - 1]) ||
      (x + 1 < width && !inside[s + 1]) ||
      (y > 0 && !inside[s - width]) ||
      (y + 1 < height && !inside[s + width])
        ? 1
        : 0;
  }
  const rgb = (t: number): [number, number, number] => [
    grid.rgb[t * 3]!,
    grid.rgb[t * 3 + 1]!,
    grid.rgb[t * 3 + 2]!,
  ];
  for (let s = 0; s < inside.length; s++) {
    if (!edge[s]) continue;
    const x = s % width;
    const y = (s - x) / width;
    const b = backdropAt(background, s);
    const f = [0, 0, 0];
    let n = 0;
    let purest = -1;
    let far = -1;
    for (let dy = -2; dy <= 2; dy++)
      for (let dx = -2; dx <= 2; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const t = ny * width + nx;
        if (!inside[t]) continue;
        const c = rgb(t);
        if (!edge[t]) {
          for (let k = 0; k < 3; k++) f[k]! += c[k]!;
          n++;
        }
        const d = Math.hypot(c[0] - b[0], c[1] - b[1], c[2] - b[2]);
        if (d > far) [far, purest] = [d, t];
      }
    const object = n > 0 ? f.map((v) => v / n) : rgb(purest);
    const c = rgb(s);
    const fb = [0, 1, 2].map((k) => object[k]! - b[k]!);
    const cb = [0, 1, 2].map((k) => c[k]! - b[k]!);
    const lumaFb = luma(fb);
    let alpha: number;
    if (chromaBlurred && Math.abs(lumaFb) >= background.threshold / 2) {
      alpha = luma(cb) / lumaFb;
    } else {
      const len2 = fb[0]! ** 2 + fb[1]! ** 2 + fb[2]! ** 2;
      // Object and backdrop too alike to tell a mix by: keep the distance-based coverage.
      if (len2 < background.threshold ** 2) continue;
      alpha = Math.sqrt((cb[0]! ** 2 + cb[1]! ** 2 + cb[2]! ** 2) / len2);
    }
    coverage[s] = Math.min(1, Math.max(0, alpha));
  }
  return { coverage, edge };
}

/** Rec. 601 luma of an RGB difference. */
const luma = (c: readonly number[]): number => 0.299 * c[0]! + 0.587 * c[1]! + 0.114 * c[2]!;

/**
 * The weak (hysteresis) tolerance is at least this (RGB distance). 8, not 0064's 12: the ringing
 * 12 kept out is now peeled off the outline by its colour (edgeCoverage), and a pale wing tip 8
 * to 12 off a flat backdrop of its hue is kept (decision 0073).
 */
const WEAK_FLOOR = 8;

/**
 * Soft shadows: the backdrop's own colour, darker (same chromaticity, lower brightness), lying on
 * the ground under the object. Told apart from object parts of the same colours (a white seat's
 * shaded front on a grey sweep, a skate's grey sole) by where they are and their shape, not by
 * colour alone: a shadow is a patch of those colours in the band at the object's base (from a
 * tenth of its height above the lowest sample that is certainly object, down) that spreads wider
 * than the object just above it.
 * Very dark samples (below 35 % of the backdrop's brightness) are kept: more likely a dark part of
 * the object than a soft shadow.
 */
export function removeSoftShadows(mask: Mask, grid: SampleGrid, background: Background): Mask {
  const bounds = maskBounds(mask);
  if (!bounds) return mask;
  const { width, inside } = mask;
  const shadowLike = new Uint8Array(inside.length);
  const fromRow = bounds.y0 + Math.floor(0.6 * (bounds.y1 - bounds.y0));
  for (let y = fromRow; y <= bounds.y1; y++) {
    for (let x = bounds.x0; x <= bounds.x1; x++) {
      const s = y * width + x;
      if (!inside[s]) continue;
      const [br, bg, bb] = backdropAt(background, s);
      const bSum = br + bg + bb;
      if (bSum < 60) continue;
      const r = grid.rgb[s * 3]!;
      const g = grid.rgb[s * 3 + 1]!;
      const b = grid.rgb[s * 3 + 2]!;
      const sum = r + g + b;
      const ratio = sum / bSum;
      if (ratio < 0.35 || ratio > 1 || sum <= 0) continue;
      const chroma = Math.hypot(r / sum - br / bSum, g / sum - bg / bSum, b / sum - bb / bSum);
      if (chroma < 0.02) shadowLike[s] = 1;
    }
  }
  // The lowest row with a sample that is certainly object (not shadow-like).
  let base = bounds.y0;
  for (let y = bounds.y1; y >= bounds.y0 && base === bounds.y0; y--)
    for (let x = bounds.x0; x <= bounds.x1; x++) {
      const s = y * width + x;
      if (inside[s] && !shadowLike[s]) {
        base = y;
        break;
      }
    }
  const groundFrom = base - Math.ceil(0.1 * (bounds.y1 - bounds.y0));
  for (let s = 0; s < shadowLike.length; s++)
    if (shadowLike[s] && Math.floor(s / width) < groundFrom) shadowLike[s] = 0;
  // Each patch of shadow colours at the base: a shadow spreads wider than what casts it (past
  // the object's own columns just above); a patch within them (a skate's grey sole, a white
  // plinth) is part of the object.
  const patches = components({ ...mask, inside: shadowLike }, 1);
  const spans = patches.sizes.map(() => ({ x0: Infinity, x1: -Infinity, y0: Infinity }));
  for (let s = 0; s < shadowLike.length; s++) {
    const l = patches.labels[s]!;
    if (l < 0) continue;
    const x = s % width;
    const span = spans[l]!;
    span.x0 = Math.min(span.x0, x);
    span.x1 = Math.max(span.x1, x);
    span.y0 = Math.min(span.y0, Math.floor(s / width));
  }
  const isShadow = spans.map((span) => {
    // The object's columns in the rows just above the patch (or at its top).
    let ox0 = Infinity;
    let ox1 = -Infinity;
    for (let y = Math.max(bounds.y0, span.y0 - 3); y <= Math.min(bounds.y1, span.y0 + 1); y++)
      for (let x = bounds.x0; x <= bounds.x1; x++) {
        const s = y * width + x;
        if (inside[s] && !shadowLike[s]) {
          ox0 = Math.min(ox0, x);
          ox1 = Math.max(ox1, x);
        }
      }
    if (ox0 > ox1) return true; // nothing above it: a shadow by itself
    return span.x0 < ox0 - 2 || span.x1 > ox1 + 2;
  });
  const out = new Uint8Array(inside);
  for (let s = 0; s < out.length; s++) {
    const l = patches.labels[s]!;
    if (l >= 0 && isShadow[l]) out[s] = 0;
  }
  return { ...mask, inside: out };
}

/** `inside` grown (`grow`) or shrunk by one sample in all eight directions; the frame is outside. */
function step8(inside: Uint8Array, width: number, height: number, grow: boolean): Uint8Array {
  const out = new Uint8Array(inside.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let any = false;
      let all = true;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          const v =
            nx >= 0 && ny >= 0 && nx < width && ny < height && inside[ny * width + nx] === 1;
          any ||= v;
          all &&= v;
        }
      out[y * width + x] = (grow ? any : all) ? 1 : 0;
    }
  return out;
}

/**
 * Parts of the object that look like the backdrop (a white seat's shaded front on a grey sweep,
 * a robot's pale face): the colour test leaves them out, often as a hole that reaches the outline
 * through a gap a sample or two wide. The mask is closed (grown, then shrunk, by `radius`), and
 * each region the closing encloses is judged: a real hole (a mug's handle) shows the backdrop
 * itself, within its noise; a region that differs from the backdrop by more than that, even
 * below the threshold, is object.
 */
export function fillBackdropLookalikes(
  mask: Mask,
  grid: SampleGrid,
  background: Background,
  radius = 5,
): Mask {
  const { width, height } = mask;
  let closed = mask.inside;
  for (let i = 0; i < radius; i++) closed = step8(closed, width, height, true);
  for (let i = 0; i < radius; i++) closed = step8(closed, width, height, false);
  const closedMask: Mask = { ...mask, inside: closed };
  const bg = components(closedMask, 0);
  const touches = new Uint8Array(bg.sizes.length);
  for (let x = 0; x < width; x++)
    for (const y of [0, height - 1]) {
      const l = bg.labels[y * width + x]!;
      if (l >= 0) touches[l] = 1;
    }
  for (let y = 0; y < height; y++)
    for (const x of [0, width - 1]) {
      const l = bg.labels[y * width + x]!;
      if (l >= 0) touches[l] = 1;
    }
  // Mean distance to the backdrop of each enclosed region.
  const sums = new Float64Array(bg.sizes.length);
  for (let s = 0; s < closed.length; s++) {
    const l = bg.labels[s]!;
    if (l < 0 || touches[l]) continue;
    sums[l]! += backdropDistance(grid, background, s);
  }
  const seeThrough = Math.max(6, 1.5 * background.noise + 4);
  const out = new Uint8Array(mask.inside);
  for (let s = 0; s < closed.length; s++) {
    const l = bg.labels[s]!;
    if (mask.inside[s]) continue;
    const d = backdropDistance(grid, background, s);
    if (closed[s] === 1) {
      // What the closing bridged: object where it is not the backdrop itself.
      out[s] = d > seeThrough ? 1 : 0;
      continue;
    }
    if (l < 0 || touches[l]) continue;
    // An enclosed region: a hole when it is the backdrop, else object.
    out[s] = sums[l]! / bg.sizes[l]! <= seeThrough ? 0 : 1;
  }
  return { ...mask, inside: out };
}

/**
 * Gives an opaque raster an alpha channel: 0 for pixels outside the (sample-level) mask and
 * for backdrop-like pixels near the outline, 255 elsewhere. Background-coloured details
 * well inside the object are kept. Used to bleed object colour over the backdrop so the
 * texture has no backdrop fringe along the mesh outline.
 */
export function matteFromBackground(raster: Raster, mask: Mask, background: Background): Raster {
  const { width, height } = raster;
  const data = new Uint8Array(raster.data);
  // Samples that are outside, or touch an outside sample.
  const nearOutside = new Uint8Array(mask.width * mask.height);
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) {
      if (mask.inside[y * mask.width + x]) continue;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx >= 0 && ny >= 0 && nx < mask.width && ny < mask.height) {
            nearOutside[ny * mask.width + nx] = 1;
          }
        }
      }
    }
  }
  // Twice the mask's tolerance: anti-aliased edge pixels, half backdrop, go too.
  const limit2 = (2 * background.threshold) ** 2;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(mask.height - 1, Math.floor((y * mask.height) / height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(mask.width - 1, Math.floor((x * mask.width) / width));
      const p = (y * width + x) * 4;
      const isBackdrop =
        distanceTo(
          background,
          data[p]!,
          data[p + 1]!,
          data[p + 2]!,
          backdropAt(background, sy * mask.width + sx),
        ) **
          2 <=
        limit2;
      data[p + 3] =
        !mask.inside[sy * mask.width + sx] || (isBackdrop && nearOutside[sy * mask.width + sx])
          ? 0
          : 255;
    }
  }
  return { width, height, data };
}

/**
 * Labels connected components of samples equal to `value`. Foreground uses 8-connectivity,
 * background 4-connectivity (the usual pairing that keeps outlines consistent).
 * Returns per-sample labels (-1 for other samples) and each component's size.
 */
function components(mask: Mask, value: 0 | 1): { labels: Int32Array; sizes: number[] } {
  const { width, height, inside } = mask;
  const labels = new Int32Array(width * height).fill(-1);
  const sizes: number[] = [];
  const stack: number[] = [];
  // Neighbour offsets as separate x and y lists (no per-step tuple destructuring).
  const ox = value === 1 ? [-1, 0, 1, -1, 1, -1, 0, 1] : [0, -1, 1, 0];
  const oy = value === 1 ? [-1, -1, -1, 0, 0, 1, 1, 1] : [-1, 0, 0, 1];
  const k = ox.length;
  for (let start = 0; start < inside.length; start++) {
    if (inside[start] !== value || labels[start] !== -1) continue;
    const label = sizes.length;
    let size = 0;
    labels[start] = label;
    stack.push(start);
    while (stack.length > 0) {
      const s = stack.pop()!;
      size++;
      const x = s % width;
      const y = (s - x) / width;
      for (let o = 0; o < k; o++) {
        const nx = x + ox[o]!;
        const ny = y + oy[o]!;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const n = ny * width + nx;
        if (inside[n] === value && labels[n] === -1) {
          labels[n] = label;
          stack.push(n);
        }
      }
    }
    sizes.push(size);
  }
  return { labels, sizes };
}

/** Enclosed background regions up to this share of the grid are pinholes in the matte, filled. */
const MAX_HOLE_SHARE = 0.001;
/** Islands within this many samples of the object are parts of it (if not specks). */
const NEAR_PART = 4;
/** The smallest such part, in samples. */
const MIN_NEAR_PART = 8;

/**
 * Removes specks: object islands much smaller than the largest one, and small enclosed
 * background holes (noise in a matte). Large enclosed holes, such as a teapot's handle
 * opening, are kept.
 */
export function cleanMask(mask: Mask): Mask {
  const { width, height } = mask;
  const inside = new Uint8Array(mask.inside);
  const area = width * height;

  const fg = components(mask, 1);
  const largest = Math.max(0, ...fg.sizes);
  const minIsland = Math.max(4, largest * 0.02);
  // A part cut off from the object by a stem thinner than a sample (a burger's sprig): close to
  // it, and more than a speck, it stays.
  const main = fg.sizes.indexOf(largest);
  let near: Uint8Array = new Uint8Array(area);
  for (let s = 0; s < area; s++) near[s] = fg.labels[s] === main ? 1 : 0;
  for (let i = 0; i < NEAR_PART; i++) near = step8(near, width, height, true);
  const nearLabels = new Set<number>();
  for (let s = 0; s < area; s++) if (near[s] && fg.labels[s]! >= 0) nearLabels.add(fg.labels[s]!);
  const minNearPart = Math.max(MIN_NEAR_PART, largest * 0.002);
  for (let s = 0; s < area; s++) {
    const label = fg.labels[s]!;
    if (label < 0 || fg.sizes[label]! >= minIsland) continue;
    if (!(nearLabels.has(label) && fg.sizes[label]! >= minNearPart)) inside[s] = 0;
  }

  const cleaned: Mask = { ...mask, inside };
  const bg = components(cleaned, 0);
  const touchesBorder = new Uint8Array(bg.sizes.length);
  for (let x = 0; x < width; x++) {
    for (const y of [0, height - 1]) {
      const label = bg.labels[y * width + x]!;
      if (label >= 0) touchesBorder[label] = 1;
    }
  }
  for (let y = 0; y < height; y++) {
    for (const x of [0, width - 1]) {
      const label = bg.labels[y * width + x]!;
      if (label >= 0) touchesBorder[label] = 1;
    }
  }
  const maxHole = Math.max(2, area * MAX_HOLE_SHARE);
  for (let s = 0; s < area; s++) {
    const label = bg.labels[s]!;
    if (label >= 0 && !touchesBorder[label] && bg.sizes[label]! <= maxHole) inside[s] = 1;
  }
  return cleaned;
}

/**
 * Number of grid cells with at least three object corners: the cells the relief mesh is made
 * of. An outline of isolated samples or one-sample lines has none.
 */
export function countMeshableCells(mask: Mask): number {
  const { width, height, inside } = mask;
  let cells = 0;
  for (let y = 0; y + 1 < height; y++) {
    for (let x = 0; x + 1 < width; x++) {
      const a = y * width + x;
      if (inside[a]! + inside[a + 1]! + inside[a + width]! + inside[a + width + 1]! >= 3) cells++;
    }
  }
  return cells;
}

export function maskBounds(mask: Mask): Bounds | undefined {
  const { width, height, inside } = mask;
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!inside[y * width + x]) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? undefined : { x0, y0, x1, y1 };
}

/** Stands in for "infinitely far" in the distance transform (finite keeps the maths simple). */
const FAR = 1e20;

/**
 * One-dimensional squared Euclidean distance transform (Felzenszwalb & Huttenlocher), in place
 * over the `n` values of `f` starting at `offset`, `stride` apart. `v`, `z`, `d` are scratch.
 */
function edt1d(
  f: Float64Array,
  offset: number,
  stride: number,
  n: number,
  v: Int32Array,
  z: Float64Array,
  d: Float64Array,
): void {
  const at = (q: number): number => f[offset + q * stride]!;
  let k = 0;
  v[0] = 0;
  z[0] = -Infinity;
  z[1] = Infinity;
  for (let q = 1; q < n; q++) {
    // z[0] = -Infinity and all values are finite, so k never drops below 0.
    let s = (at(q) + q * q - (at(v[k]!) + v[k]! * v[k]!)) / (2 * q - 2 * v[k]!);
    while (s <= z[k]!) {
      k--;
      s = (at(q) + q * q - (at(v[k]!) + v[k]! * v[k]!)) / (2 * q - 2 * v[k]!);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1]! < q) k++;
    const p = v[k]!;
    d[q] = (q - p) * (q - p) + at(p);
  }
  for (let q = 0; q < n; q++) f[offset + q * stride] = d[q]!;
}

/**
 * Euclidean distance (in samples) from each object sample to the nearest background sample,
 * counting everything beyond the grid's edge as background. Background samples get 0.
 */
export function distanceToBackground(mask: Mask): Float32Array {
  const { width, height, inside } = mask;
  // Pad by one sample of background on every side.
  const pw = width + 2;
  const ph = height + 2;
  const f = new Float64Array(pw * ph);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (inside[y * width + x]) f[(y + 1) * pw + x + 1] = FAR;
    }
  }
  const n = Math.max(pw, ph);
  const v = new Int32Array(n);
  const z = new Float64Array(n + 1);
  const d = new Float64Array(n);
  for (let x = 0; x < pw; x++) edt1d(f, x, pw, ph, v, z, d);
  for (let y = 0; y < ph; y++) edt1d(f, y * pw, 1, pw, v, z, d);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) out[y * width + x] = Math.sqrt(f[(y + 1) * pw + x + 1]!);
  }
  return out;
}
