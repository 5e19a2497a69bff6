/** How much of each outline sample the object covers, read from its colour. */
import type { SampleGrid } from '../core/raster.ts';
import { backdropAt, type Background } from './background-mask.ts';
import type { Mask } from './mask.ts';

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
    // The object's colour near here: the mean of its inner samples within two, else its sample
    // farthest from the backdrop. Read in place: this runs 25 times for every outline sample.
    const px = grid.rgb;
    let [f0, f1, f2] = [0, 0, 0];
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
        const [c0, c1, c2] = [px[t * 3]!, px[t * 3 + 1]!, px[t * 3 + 2]!];
        if (!edge[t]) {
          f0 += c0;
          f1 += c1;
          f2 += c2;
          n++;
        }
        // Squared: only which is farthest matters.
        const d = (c0 - b[0]) ** 2 + (c1 - b[1]) ** 2 + (c2 - b[2]) ** 2;
        if (d > far) {
          far = d;
          purest = t;
        }
      }
    const object = n > 0 ? [f0 / n, f1 / n, f2 / n] : rgb(purest);
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
