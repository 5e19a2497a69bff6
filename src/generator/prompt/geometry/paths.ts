/** Curves through points, for tubes and lofts to follow. */
import type { Vec3 } from './solid.ts';

/** Points of a quadratic Bézier curve from a to c pulled towards b (steps + 1 points). */
export function bezier(a: Vec3, b: Vec3, c: Vec3, steps: number): Vec3[] {
  return Array.from({ length: steps + 1 }, (_, i) => {
    const t = i / steps;
    const [u, v, w] = [(1 - t) * (1 - t), 2 * t * (1 - t), t * t];
    return [
      u * a[0] + v * b[0] + w * c[0],
      u * a[1] + v * b[1] + w * c[1],
      u * a[2] + v * b[2] + w * c[2],
    ] as Vec3;
  });
}

/** A smooth curve through `points` (Catmull-Rom), `steps` samples per span, ends included. */
export function smoothPath(points: readonly Vec3[], steps = 8): Vec3[] {
  const n = points.length;
  const out: Vec3[] = [];
  for (let i = 0; i + 1 < n; i++) {
    const p0 = points[Math.max(0, i - 1)]!;
    const p1 = points[i]!;
    const p2 = points[i + 1]!;
    const p3 = points[Math.min(n - 1, i + 2)]!;
    for (let s = 0; s < steps; s++) {
      const t = s / steps;
      const [t2, t3] = [t * t, t * t * t];
      out.push(
        [0, 1, 2].map(
          (k) =>
            0.5 *
            (2 * p1[k]! +
              (-p0[k]! + p2[k]!) * t +
              (2 * p0[k]! - 5 * p1[k]! + 4 * p2[k]! - p3[k]!) * t2 +
              (-p0[k]! + 3 * p1[k]! - 3 * p2[k]! + p3[k]!) * t3),
        ) as Vec3,
      );
    }
  }
  out.push([...points[n - 1]!] as Vec3);
  return out;
}
