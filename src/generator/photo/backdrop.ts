import type { SampleGrid } from '../core/raster.ts';

/**
 * The backdrop behind an opaque photo's object, as a smooth colour field over the sample grid,
 * fitted to the photo's border: a studio sweep's gradient, a vignette, a wall meeting a table at
 * a horizon (two fields, one each side of it), light texture and noise (the fit's residual).
 */
export interface Backdrop {
  /** The backdrop's colour at each sample, RGB, row-major. */
  field: Float32Array;
  /** How far (RGB distance) a border sample typically is from the field: the 80th percentile. */
  noise: number;
  /** The row (in samples) where a wall meets a floor or table, when there is one. */
  horizon: number | null;
  /** How much of the border the field explains (the rest is the object reaching the frame). */
  explained: number;
  /**
   * The backdrop's own texture, when it varies mostly along one colour direction (wood grain,
   * paper or cloth under light: lighter and darker of one hue): that unit direction and how much
   * of a difference along it counts (0..1). Distances to the field shrink it by that much, so the
   * texture's swing does not widen the tolerance for colours that differ in other ways (a grey
   * leg on an orange grain). Null when the residual is about as wide every way.
   */
  grain: { axis: [number, number, number]; weight: number } | null;
}

/** A residual this much wider along its main direction than across it is a grain. */
const GRAIN_ANISOTROPY = 3;
/**
 * A grain's direction still counts at least this much: a much lighter or darker object of the
 * grain's own hue (black on wood) is still told from it.
 */
const MIN_GRAIN_WEIGHT = 0.25;

/** The main direction and spread of 3-vectors: the top eigenpair of their covariance, and the next. */
function principal(vectors: readonly (readonly number[])[]) {
  const c = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (const v of vectors)
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) c[i * 3 + j]! += v[i]! * v[j]!;
  const n = Math.max(1, vectors.length);
  for (let i = 0; i < 9; i++) c[i]! /= n;
  const apply = (m: number[], v: number[]) =>
    [0, 1, 2].map((i) => m[i * 3]! * v[0]! + m[i * 3 + 1]! * v[1]! + m[i * 3 + 2]! * v[2]!);
  const top = (m: number[]) => {
    let v = [0.577, 0.577, 0.577];
    for (let it = 0; it < 50; it++) {
      const w = apply(m, v);
      const len = Math.hypot(w[0]!, w[1]!, w[2]!);
      if (len < 1e-12) return { axis: v, value: 0 };
      v = w.map((x) => x / len);
    }
    const w = apply(m, v);
    return { axis: v, value: v[0]! * w[0]! + v[1]! * w[1]! + v[2]! * w[2]! };
  };
  const first = top(c);
  const deflated = c.map(
    (x, k) => x - first.value * first.axis[Math.floor(k / 3)]! * first.axis[k % 3]!,
  );
  const second = top(deflated);
  return {
    axis: first.axis as [number, number, number],
    first: first.value,
    second: Math.max(0, second.value),
  };
}

/** The length of a residual with its grain component weighed down (see Backdrop.grain). */
export function grainDistance(
  dr: number,
  dg: number,
  db: number,
  grain: Backdrop['grain'],
): number {
  if (!grain) return Math.hypot(dr, dg, db);
  const [ax, ay, az] = grain.axis;
  const along = dr * ax + dg * ay + db * az;
  const cut = along * (1 - grain.weight);
  return Math.hypot(dr - cut * ax, dg - cut * ay, db - cut * az);
}

/** The border band's width, in samples. */
const BAND = 2;
/** A step at least this large (RGB distance) down both sides of the frame is a horizon. */
const HORIZON_STEP = 22;

type Poly = Float64Array; // 6 coefficients: 1, x, y, x², xy, y² (x, y in 0..1)

const terms = (x: number, y: number) => [1, x, y, x * x, x * y, y * y];

/** Solves the 6 × 6 system `a · c = b` by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): Poly | undefined {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++)
      if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-9) return undefined;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / m[col]![col]!;
      for (let k = col; k <= n; k++) m[r]![k]! -= f * m[col]![k]!;
    }
  }
  return Float64Array.from({ length: n }, (_, i) => m[i]![n]! / m[i]![i]!);
}

/** A least-squares quadratic colour field (three polynomials) through the given samples. */
function fitField(
  samples: readonly number[],
  grid: SampleGrid,
  weights: Float64Array,
): [Poly, Poly, Poly] | undefined {
  const { width, height, rgb } = grid;
  const ata = Array.from({ length: 6 }, () => new Array<number>(6).fill(0));
  const atb = [0, 1, 2].map(() => new Array<number>(6).fill(0));
  samples.forEach((s, i) => {
    const w = weights[i]!;
    if (w === 0) return;
    const x = (s % width) / Math.max(1, width - 1);
    const y = Math.floor(s / width) / Math.max(1, height - 1);
    const t = terms(x, y);
    for (let r = 0; r < 6; r++) {
      for (let c = 0; c < 6; c++) ata[r]![c]! += w * t[r]! * t[c]!;
      for (let k = 0; k < 3; k++) atb[k]![r]! += w * t[r]! * rgb[s * 3 + k]!;
    }
  });
  // A little ridge keeps the fit sane where the border says little (a thin region).
  for (let r = 1; r < 6; r++) ata[r]![r]! += 1e-6 * (ata[0]![0]! || 1);
  const polys = atb.map((b) => solve(ata, b));
  return polys.every(Boolean) ? (polys as [Poly, Poly, Poly]) : undefined;
}

const evaluate = (p: Poly, x: number, y: number) =>
  p[0]! + p[1]! * x + p[2]! * y + p[3]! * x * x + p[4]! * x * y + p[5]! * y * y;

/** The border band's samples, in rows `from` to `to` (inclusive). */
function borderSamples(grid: SampleGrid, from: number, to: number): number[] {
  const { width, height } = grid;
  const out: number[] = [];
  for (let y = from; y <= to; y++)
    for (let x = 0; x < width; x++)
      if (x < BAND || x >= width - BAND || y < BAND || y >= height - BAND) out.push(y * width + x);
  return out;
}

const distance = (grid: SampleGrid, s: number, c: readonly number[]) =>
  Math.hypot(grid.rgb[s * 3]! - c[0]!, grid.rgb[s * 3 + 1]! - c[1]!, grid.rgb[s * 3 + 2]! - c[2]!);

/**
 * A wall meeting a table: the row where both side bands step from one colour to another by at
 * least HORIZON_STEP, at the same height (± 3 samples), in the middle 80 % of the frame.
 */
function findHorizon(grid: SampleGrid): number | null {
  const { width, height, rgb } = grid;
  const sideMean = (x0: number, y: number) => {
    const c = [0, 0, 0];
    for (let x = x0; x < x0 + BAND; x++)
      for (let k = 0; k < 3; k++) c[k]! += rgb[(y * width + x) * 3 + k]!;
    return c.map((v) => v / BAND);
  };
  const stepAt = (x0: number) => {
    const rows = Array.from({ length: height }, (_, y) => sideMean(x0, y));
    let best = -1;
    let bestStep = 0;
    const span = 3;
    for (let y = Math.round(height * 0.1) + span; y < Math.round(height * 0.9) - span; y++) {
      const above = [0, 0, 0];
      const below = [0, 0, 0];
      for (let d = 1; d <= span; d++)
        for (let k = 0; k < 3; k++) {
          above[k]! += rows[y - d]![k]! / span;
          below[k]! += rows[y + d - 1]![k]! / span;
        }
      const step = Math.hypot(above[0]! - below[0]!, above[1]! - below[1]!, above[2]! - below[2]!);
      if (step > bestStep) [best, bestStep] = [y, step];
    }
    return { row: best, step: bestStep };
  };
  const left = stepAt(0);
  const right = stepAt(width - BAND);
  if (left.step < HORIZON_STEP || right.step < HORIZON_STEP) return null;
  if (Math.abs(left.row - right.row) > 3) return null;
  return Math.round((left.row + right.row) / 2);
}

/**
 * Fits the backdrop to the border band: a quadratic colour field per region (one, or two split at
 * a horizon), refitted three times without the samples it explains worst (the object where it
 * reaches the frame). Undefined when the border is no backdrop at all: a busy scene, whose border
 * no smooth field explains.
 */
export function fitBackdrop(grid: SampleGrid): Backdrop | undefined {
  const { width, height } = grid;
  const horizon = findHorizon(grid);
  const regions: [number, number][] =
    horizon === null
      ? [[0, height - 1]]
      : [
          [0, horizon - 1],
          [horizon, height - 1],
        ];
  const field = new Float32Array(width * height * 3);
  const residuals: number[] = [];
  const vectors: number[][] = [];
  let kept = 0;
  let total = 0;
  for (const [from, to] of regions) {
    const fit = fitRegion(grid, borderSamples(grid, from, to));
    if (!fit) return undefined;
    const p = fit.polys;
    for (let y = from; y <= to; y++)
      for (let x = 0; x < width; x++) {
        const fx = x / Math.max(1, width - 1);
        const fy = y / Math.max(1, height - 1);
        for (let k = 0; k < 3; k++)
          field[(y * width + x) * 3 + k] = evaluate(p[k as 0 | 1 | 2], fx, fy);
      }
    total += fit.samples.length;
    for (const q of fit.kept) {
      kept++;
      residuals.push(fit.residual.get(q)!);
      vectors.push([0, 1, 2].map((k) => grid.rgb[q * 3 + k]! - field[q * 3 + k]!));
    }
  }
  const explained = total ? kept / total : 0;
  const { noise, rawNoise, grain } = residualSpread(residuals, vectors);
  if (rawNoise > 40 || explained < 0.5) return undefined;
  return { field, noise, horizon, explained, grain };
}

/**
 * The noise (80th percentile of the residuals) and grain of a fit's residual vectors (see
 * Backdrop.grain).
 */
function residualSpread(
  residuals: number[],
  vectors: number[][],
): { noise: number; rawNoise: number; grain: Backdrop['grain'] } {
  residuals.sort((a, b) => a - b);
  const rawNoise = residuals[Math.floor(residuals.length * 0.8)] ?? 0;
  let noise = rawNoise;
  let grain: Backdrop['grain'] = null;
  const spread = principal(vectors);
  if (spread.first > GRAIN_ANISOTROPY ** 2 * Math.max(spread.second, 1)) {
    const g = {
      axis: spread.axis,
      weight: Math.max(MIN_GRAIN_WEIGHT, Math.sqrt(Math.max(spread.second, 1) / spread.first)),
    };
    grain = g;
    const across = vectors.map((v) => grainDistance(v[0]!, v[1]!, v[2]!, g)).sort((a, b) => a - b);
    noise = across[Math.floor(across.length * 0.8)] ?? 0;
  }
  return { noise, rawNoise, grain };
}

/**
 * A quadratic colour field through `samples`, refitted three times without the samples it
 * explains worst: the fitted polynomials, the samples it explains (`kept`) and each sample's
 * residual.
 */
function fitRegion(grid: SampleGrid, samples: number[], seed?: Float64Array) {
  const { width, height } = grid;
  const weights = seed ?? new Float64Array(samples.length).fill(1);
  let polys: [Poly, Poly, Poly] | undefined;
  let res: number[] = [];
  for (let pass = 0; pass < 4; pass++) {
    polys = fitField(samples, grid, weights);
    if (!polys) return undefined;
    const p = polys;
    res = samples.map((s) => {
      const x = (s % width) / Math.max(1, width - 1);
      const y = Math.floor(s / width) / Math.max(1, height - 1);
      return distance(grid, s, [evaluate(p[0], x, y), evaluate(p[1], x, y), evaluate(p[2], x, y)]);
    });
    const sorted = res.filter((_, i) => weights[i]! > 0).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const limit = Math.max(12, 3 * median);
    res.forEach((r, i) => (weights[i] = r <= limit ? 1 : 0));
  }
  const residual = new Map<number, number>();
  samples.forEach((s, i) => residual.set(s, res[i]!));
  return { polys: polys!, samples, kept: samples.filter((_, i) => weights[i]! > 0), residual };
}

/** Colours within this RGB distance of the commonest colour seed a surface's fit. */
const MODE_RADIUS = 28;

/**
 * Weights that start a fit on the commonest colour among `samples` (a coarse histogram's fullest
 * cell, and every sample near its mean): a surface that is under half of them, beside an
 * object's own colours, is still found.
 */
function modeWeights(grid: SampleGrid, samples: number[], near?: readonly number[]): Float64Array {
  if (near)
    return Float64Array.from(samples, (s) => (distance(grid, s, near) <= MODE_RADIUS ? 1 : 0));
  const cell = (s: number) =>
    (grid.rgb[s * 3]! >> 5) * 64 + (grid.rgb[s * 3 + 1]! >> 5) * 8 + (grid.rgb[s * 3 + 2]! >> 5);
  const counts = new Map<number, number>();
  for (const s of samples) counts.set(cell(s), (counts.get(cell(s)) ?? 0) + 1);
  let best = -1;
  let most = 0;
  for (const [c, n] of counts) if (n > most) [best, most] = [c, n];
  const mean = [0, 0, 0];
  for (const s of samples)
    if (cell(s) === best) for (let k = 0; k < 3; k++) mean[k]! += grid.rgb[s * 3 + k]! / most;
  return Float64Array.from(samples, (s) => (distance(grid, s, mean) <= MODE_RADIUS ? 1 : 0));
}

/**
 * A plain surface inside the photo (a board, a disc, a wall panel behind the object), fitted to
 * `samples` the way the backdrop is fitted to the border, starting from their commonest colour
 * (or from those `near` a colour): its field over the whole grid, its noise and grain, and the
 * share of `samples` it explains. Undefined when no field fits.
 */
export function fitSurface(
  grid: SampleGrid,
  samples: number[],
  near?: readonly number[],
): (Omit<Backdrop, 'horizon'> & { kept: number[] }) | undefined {
  const fit = fitRegion(grid, samples, modeWeights(grid, samples, near));
  if (!fit) return undefined;
  const { width, height } = grid;
  const field = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const fx = x / Math.max(1, width - 1);
      const fy = y / Math.max(1, height - 1);
      for (let k = 0; k < 3; k++)
        field[(y * width + x) * 3 + k] = evaluate(fit.polys[k as 0 | 1 | 2], fx, fy);
    }
  const vectors = fit.kept.map((q) =>
    [0, 1, 2].map((k) => grid.rgb[q * 3 + k]! - field[q * 3 + k]!),
  );
  const { noise, grain } = residualSpread(
    fit.kept.map((q) => fit.residual.get(q)!),
    vectors,
  );
  return {
    field,
    noise,
    grain,
    explained: samples.length ? fit.kept.length / samples.length : 0,
    kept: fit.kept,
  };
}
