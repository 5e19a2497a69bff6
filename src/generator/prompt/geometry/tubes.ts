/** Round tubes: along an arc, and along any path with a varying radius. */
import { orientToNormals, turnOutward, type Solid, type Vec3 } from './solid.ts';
import { distance } from './transform.ts';
import { cross, dot, norm, sub } from './vectors.ts';

/**
 * A round tube of radius `radius` following an arc of radius `arcRadius` around the origin in
 * the XY plane, from angle `from` to `to` (radians, counter-clockwise from +X), with flat caps.
 */
export function arcTube(
  arcRadius: number,
  radius: number,
  from: number,
  to: number,
  steps = 16,
  sides = 12,
): Solid {
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  const frame = (a: number): { c: Vec3; n1: Vec3; t: Vec3 } => ({
    c: [arcRadius * Math.cos(a), arcRadius * Math.sin(a), 0],
    n1: [Math.cos(a), Math.sin(a), 0],
    t: [-Math.sin(a), Math.cos(a), 0],
  });
  const ringPoint = (c: Vec3, n1: Vec3, b: number): { p: Vec3; n: Vec3 } => {
    const n: Vec3 = [Math.cos(b) * n1[0], Math.cos(b) * n1[1], Math.sin(b)];
    return { p: [c[0] + radius * n[0], c[1] + radius * n[1], c[2] + radius * n[2]], n };
  };
  for (let k = 0; k <= steps; k++) {
    const { c, n1 } = frame(k === steps ? to : from + ((to - from) * k) / steps);
    for (let j = 0; j < sides; j++) {
      const { p, n } = ringPoint(c, n1, (2 * Math.PI * j) / sides);
      positions.push(...p);
      normals.push(...n);
    }
  }
  for (let k = 0; k < steps; k++) {
    for (let j = 0; j < sides; j++) {
      const j2 = (j + 1) % sides;
      const a = k * sides + j;
      const b = k * sides + j2;
      const c = (k + 1) * sides + j;
      const d = (k + 1) * sides + j2;
      indices.push(a, c, b, b, c, d);
    }
  }
  // Caps: a fan around a centre vertex, facing backwards along the arc at the start.
  for (const [angle, dir] of [
    [from, to > from ? -1 : 1],
    [to, to > from ? 1 : -1],
  ] as const) {
    const { c, n1, t } = frame(angle);
    const cap: Vec3 = [t[0] * dir, t[1] * dir, t[2] * dir];
    const centre = positions.length / 3;
    positions.push(...c);
    normals.push(...cap);
    for (let j = 0; j < sides; j++) {
      positions.push(...ringPoint(c, n1, (2 * Math.PI * j) / sides).p);
      normals.push(...cap);
    }
    for (let j = 0; j < sides; j++)
      indices.push(centre, centre + 1 + j, centre + 1 + ((j + 1) % sides));
  }
  return orientToNormals({ positions, normals, indices });
}

/** One ring of a tube: where its vertices start (−1 for a point of zero radius), its centre. */
interface Ring {
  index: number;
  centre: Vec3;
  tangent: Vec3;
  r: number;
}

/**
 * A round tube along `path` (two or more points) with radius `radius(t)`, t in [0, 1] along the
 * path's length. An end whose radius is 0 closes in a point; any other end gets a flat cap.
 * Frames are carried along the path without twisting (parallel transport).
 */
export function tube(
  path: readonly Vec3[],
  radius: number | ((t: number) => number),
  sides = 12,
): Solid {
  const radiusAt = typeof radius === 'number' ? () => radius : radius;
  const s: Solid = { positions: [], normals: [], indices: [] };
  const rings = tubeRings(s, path, radiusAt, sides);
  joinRings(s, rings, sides);
  capTubeEnds(s, rings, sides);
  // Winding by construction, not per triangle: a tube bent tighter than its radius folds, and
  // per-triangle flips there would break the shell's consistency.
  turnOutward(s.positions, s.indices);
  return s;
}

/** The tube's rings of vertices, one per path point (none where the radius is 0), into `s`. */
function tubeRings(
  s: Solid,
  path: readonly Vec3[],
  radiusAt: (t: number) => number,
  sides: number,
): Ring[] {
  const { positions, normals } = s;
  const n = path.length;
  const lengths = [0];
  for (let i = 1; i < n; i++) lengths.push(lengths[i - 1]! + distance(path[i - 1]!, path[i]!));
  const total = lengths[n - 1]! || 1;
  const tangents = path.map((_, i) =>
    norm(sub(path[Math.min(n - 1, i + 1)]!, path[Math.max(0, i - 1)]!)),
  );
  const t0 = tangents[0]!;
  // A skew reference, so tubes leaving one point in different directions (the spokes of a
  // wheel, the bones of a wing) start their rings at different places: no shared edges.
  const skew: Vec3 = [0.31, 0.83, 0.47];
  let normal = norm(cross(t0, Math.abs(dot(t0, norm(skew))) < 0.95 ? skew : [1, 0, 0]));
  const rings: Ring[] = [];
  for (let i = 0; i < n; i++) {
    const t = tangents[i]!;
    normal = norm(
      sub(normal, [t[0] * dot(normal, t), t[1] * dot(normal, t), t[2] * dot(normal, t)]),
    );
    const binormal = cross(t, normal);
    const r = radiusAt(lengths[i]! / total);
    // The slope of the radius tilts the normals (a cone's normals lean towards its tip).
    const dr =
      (radiusAt(lengths[Math.min(n - 1, i + 1)]! / total) -
        radiusAt(lengths[Math.max(0, i - 1)]! / total)) /
      (lengths[Math.min(n - 1, i + 1)]! - lengths[Math.max(0, i - 1)]! || 1);
    const tilt = Math.atan(dr);
    if (r <= 0) {
      rings.push({ index: -1, centre: path[i]!, tangent: t, r: 0 });
      continue;
    }
    const index = positions.length / 3;
    for (let j = 0; j < sides; j++) {
      const a = (2 * Math.PI * j) / sides;
      const radial: Vec3 = [
        Math.cos(a) * normal[0] + Math.sin(a) * binormal[0],
        Math.cos(a) * normal[1] + Math.sin(a) * binormal[1],
        Math.cos(a) * normal[2] + Math.sin(a) * binormal[2],
      ];
      positions.push(...path[i]!.map((c, k) => c + r * radial[k]!));
      normals.push(
        ...norm([
          Math.cos(tilt) * radial[0] - Math.sin(tilt) * t[0],
          Math.cos(tilt) * radial[1] - Math.sin(tilt) * t[1],
          Math.cos(tilt) * radial[2] - Math.sin(tilt) * t[2],
        ]),
      );
    }
    rings.push({ index, centre: path[i]!, tangent: t, r });
  }
  return rings;
}

/** Joins consecutive rings with quads, or a ring and a point of zero radius with a fan. */
function joinRings(s: Solid, rings: readonly Ring[], sides: number): void {
  const { positions, normals, indices } = s;
  for (let i = 0; i + 1 < rings.length; i++) {
    const lo = rings[i]!;
    const hi = rings[i + 1]!;
    if (lo.index < 0 && hi.index < 0) throw new Error('tube: two zero-radius points in a row');
    if (lo.index < 0 || hi.index < 0) {
      const ring = lo.index < 0 ? hi : lo;
      const pole = lo.index < 0 ? lo : hi;
      const p = positions.length / 3;
      positions.push(...pole.centre);
      normals.push(...pole.tangent.map((c) => (lo.index < 0 ? -c : c)));
      // Outward by construction (rings run counter-clockwise about the tangent): the pole at
      // the start runs against the ring, the one at the end with it.
      for (let j = 0; j < sides; j++) {
        const [a, b] = [ring.index + j, ring.index + ((j + 1) % sides)];
        if (lo.index < 0) indices.push(p, b, a);
        else indices.push(p, a, b);
      }
      continue;
    }
    for (let j = 0; j < sides; j++) {
      const j2 = (j + 1) % sides;
      indices.push(
        lo.index + j,
        lo.index + j2,
        hi.index + j,
        lo.index + j2,
        hi.index + j2,
        hi.index + j,
      );
    }
  }
}

/** A flat cap (a fan with the tangent's normal) on each end ring that has a radius. */
function capTubeEnds(s: Solid, rings: readonly Ring[], sides: number): void {
  const { positions, normals, indices } = s;
  for (const [ring, sign] of [
    [rings[0]!, -1],
    [rings[rings.length - 1]!, 1],
  ] as const) {
    if (ring.index < 0) continue;
    const cap: Vec3 = [ring.tangent[0] * sign, ring.tangent[1] * sign, ring.tangent[2] * sign];
    const centre = positions.length / 3;
    positions.push(...ring.centre);
    normals.push(...cap);
    for (let j = 0; j < sides; j++) {
      for (let k = 0; k < 3; k++) positions.push(positions[(ring.index + j) * 3 + k]!);
      normals.push(...cap);
    }
    for (let j = 0; j < sides; j++) {
      const [a, b] = [centre + 1 + j, centre + 1 + ((j + 1) % sides)];
      if (sign < 0) indices.push(centre, b, a);
      else indices.push(centre, a, b);
    }
  }
}
