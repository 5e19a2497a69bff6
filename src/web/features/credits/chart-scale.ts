/**
 * The balance chart's geometry: pure functions from balance points to SVG path data in a
 * fixed viewBox. The component draws; this file does the arithmetic (and is unit-tested).
 */
import type { BalancePoint } from '../../../contract/index.ts';

export interface BalanceSample {
  balance: number;
  /** Epoch ms when Kiln learned the balance. */
  learned_ms: number;
  /** What moved it (a charge, a refund, a correction…), when known. */
  kind?: BalancePoint['kind'];
}

export interface ChartBox {
  /** viewBox width and height. */
  width: number;
  height: number;
  /** Inner padding (viewBox units) above the highest and below the lowest balance. */
  padY: number;
}

interface ChartDot {
  x: number;
  y: number;
  balance: number;
  learned_ms: number;
}

export interface ChartModel {
  /** A step line: each balance holds until the next change. */
  line: string;
  /** The line closed down to the bottom edge, for a soft fill. */
  area: string;
  dots: ChartDot[];
  /** y of the max and min balance (equal when the balance never changed). */
  maxY: number;
  minY: number;
  minBalance: number;
  maxBalance: number;
  firstMs: number;
  lastMs: number;
  first: number;
  last: number;
  count: number;
}

/**
 * A linear map from `[d0, d1]` to `[r0, r1]`. A zero-width domain maps everything to `fallback`
 * (the middle of the range unless given), so a constant series draws as one flat line.
 */
export function scaleLinear(
  d0: number,
  d1: number,
  r0: number,
  r1: number,
  fallback: number = (r0 + r1) / 2,
): (value: number) => number {
  const span = d1 - d0;
  if (!Number.isFinite(span) || span === 0) return () => fallback;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** Rounds to 2 decimals so path data stays short and stable. */
function r(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Keeps the usable points, oldest first (stable for equal times). */
export function cleanSamples(points: readonly BalanceSample[]): BalanceSample[] {
  return points
    .filter((p) => Number.isFinite(p.balance) && Number.isFinite(p.learned_ms))
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.learned_ms - b.p.learned_ms || a.i - b.i)
    .map(({ p }) => ({ balance: p.balance, learned_ms: p.learned_ms, kind: p.kind }));
}

/**
 * The chart of a balance history, or null when there is nothing to draw.
 * x is time (first change at the left edge, last at the right); when every change has the
 * same time, the changes are spread evenly instead. One point draws a flat line across.
 */
export function balanceChart(points: readonly BalanceSample[], box: ChartBox): ChartModel | null {
  const samples = cleanSamples(points);
  const firstSample = samples[0];
  const lastSample = samples[samples.length - 1];
  if (!firstSample || !lastSample) return null;

  const balances = samples.map((s) => s.balance);
  const minBalance = Math.min(...balances);
  const maxBalance = Math.max(...balances);
  const firstMs = firstSample.learned_ms;
  const lastMs = lastSample.learned_ms;
  const bottom = box.height - box.padY;
  const top = box.padY;

  const y = scaleLinear(minBalance, maxBalance, bottom, top);
  const byTime = scaleLinear(firstMs, lastMs, 0, box.width, Number.NaN);
  const byIndex = scaleLinear(0, samples.length - 1, 0, box.width, box.width);
  const timeWorks = samples.length > 1 && lastMs > firstMs;
  const x = (s: BalanceSample, i: number) => (timeWorks ? byTime(s.learned_ms) : byIndex(i));

  const dots: ChartDot[] = samples.map((s, i) => ({
    x: r(x(s, i)),
    y: r(y(s.balance)),
    balance: s.balance,
    learned_ms: s.learned_ms,
  }));

  const head = dots[0]!;
  // One point: the balance is known from its moment on; draw it flat across the chart.
  const parts = [`M${dots.length === 1 ? 0 : head.x} ${head.y}`];
  for (const dot of dots.slice(1)) parts.push(`H${dot.x}`, `V${dot.y}`);
  parts.push(`H${box.width}`);
  const line = parts.join(' ');
  const startX = dots.length === 1 ? 0 : head.x;
  const area = `${line} V${box.height} H${startX} Z`;

  return {
    line,
    area,
    dots,
    maxY: r(y(maxBalance)),
    minY: r(y(minBalance)),
    minBalance,
    maxBalance,
    firstMs,
    lastMs,
    first: firstSample.balance,
    last: lastSample.balance,
    count: samples.length,
  };
}

/**
 * The chart's accessible summary, e.g. "Balance from 990 to 960 over 2 changes, 5 Jan to 6 Jan".
 * `num` and `date` format numbers and epoch ms (the user's locale in the app).
 */
export function chartSummary(
  points: readonly BalanceSample[],
  num: (n: number) => string = String,
  date: (ms: number) => string = (ms) => new Date(ms).toISOString(),
): string {
  const samples = cleanSamples(points);
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last) return 'No balance changes yet';
  if (samples.length === 1)
    return `Balance ${num(first.balance)}, one change, on ${date(first.learned_ms)}`;
  const low = Math.min(...samples.map((s) => s.balance));
  const high = Math.max(...samples.map((s) => s.balance));
  return (
    `Balance from ${num(first.balance)} to ${num(last.balance)} over ${samples.length} changes, ` +
    `${date(first.learned_ms)} to ${date(last.learned_ms)}; lowest ${num(low)}, highest ${num(high)}`
  );
}
