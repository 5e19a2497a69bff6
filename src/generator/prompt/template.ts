/** The shape of a prompt template, and part builders several templates share. */
import { between, type Finish, type Random } from './finish.ts';
import {
  arcTube,
  polarSurface,
  rotateZ,
  scale,
  translate,
  type Solid,
  type Vec3,
} from './geometry/index.ts';

/** One closed solid of a model; parts with the same role share a material. */
export interface Part {
  role: string;
  solid: Solid;
}

/** What a template's builder gets: seeded random numbers and the variant its noun named. */
interface BuildInput {
  /** Deterministic random numbers seeded from the prompt; vary proportions within a template. */
  random: Random;
  /** The variant the matched noun asks for (e.g. 'conifer' for "pine"), else null. */
  variant: string | null;
  /** The template's features that are on: its defaults, less "without …", plus "with …". */
  features: ReadonlySet<string>;
}

/**
 * Default finish of a role: a fixed finish, a palette one of which is picked from the prompt's
 * hash, 'hashed' for a colour whose hue comes from the hash, 'main' for the main part's finish
 * (colour and material words included), or `{ main: f }` for the main part's colour times f.
 */
export type RoleFinish = Finish | readonly Finish[] | 'hashed' | 'main' | { main: number };

/** A recognisable object built from parts, in metres, Y-up, standing on y = 0. */
export interface Template {
  name: string;
  /** Singular lower-case nouns (one or two words) that pick this template. */
  nouns: readonly string[];
  /** Nouns that pick a variant of the template, e.g. { pine: 'conifer' }; also picks the template. */
  variants?: Readonly<Record<string, string>>;
  /** The role a colour word in the prompt recolours ("a red car": the body). */
  main: string;
  /** Default finish of every role the builder uses. */
  finishes: Readonly<Record<string, RoleFinish>>;
  /** Default finishes a variant changes (a fox's orange fur), by variant then role. */
  variantFinishes?: Readonly<Record<string, Readonly<Record<string, RoleFinish>>>>;
  /**
   * Parts a prompt may add ("with wheels") or leave out ("without a handle"), each with whether
   * it is there by default. Features are named as in FEATURE_WORDS (understand.ts).
   */
  features?: Readonly<Record<string, boolean>>;
  /** The role a feature's own colour or material colours ("with black wheels": the tyres). */
  featureRoles?: Readonly<Record<string, string>>;
  build(input: BuildInput): Part[];
}

export function part(role: string, ...solids: Solid[]): Part[] {
  return solids.map((solid) => ({ role, solid }));
}

/** A random choice from a list. */
export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.min(items.length - 1, Math.floor(random() * items.length))]!;
}

export { between };

/**
 * A handle: a half-ring tube in the XY plane bulging towards +X, from `low` to `high`
 * (both points should sit inside the wall it attaches to).
 */
export function handle(low: [number, number], high: [number, number], bulge: number, tube: number) {
  const dx = high[0] - low[0];
  const dy = high[1] - low[1];
  const half = Math.hypot(dx, dy) / 2;
  const arc = scale(arcTube(half, tube, -Math.PI / 2, Math.PI / 2, 18, 12), bulge / half, 1, 1);
  return translate(
    rotateZ(arc, Math.atan2(-dx, dy)),
    (low[0] + high[0]) / 2,
    (low[1] + high[1]) / 2,
    0,
  );
}

/** Moves every edge of a convex polygon outward by `distance` (negative: inward). */
export function offsetPolygon(
  polygon: readonly (readonly [number, number])[],
  distance: number,
): [number, number][] {
  let area = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [x0, y0] = polygon[i]!;
    const [x1, y1] = polygon[(i + 1) % polygon.length]!;
    area += x0 * y1 - x1 * y0;
  }
  const d = area > 0 ? distance : -distance;
  const n = polygon.length;
  // Each edge as a point and an outward normal, moved along the normal.
  const lines = polygon.map(([x0, y0], i) => {
    const [x1, y1] = polygon[(i + 1) % n]!;
    const len = Math.hypot(x1 - x0, y1 - y0);
    const [nx, ny] = [(y1 - y0) / len, -(x1 - x0) / len];
    return { px: x0 + nx * d, py: y0 + ny * d, dx: x1 - x0, dy: y1 - y0 };
  });
  return lines.map((b, i) => {
    const a = lines[(i - 1 + n) % n]!;
    // Intersect line a (previous edge) with line b (this edge).
    const det = a.dx * b.dy - a.dy * b.dx;
    const t = ((b.px - a.px) * b.dy - (b.py - a.py) * b.dx) / det;
    return [a.px + a.dx * t, a.py + a.dy * t];
  });
}

/**
 * A ribbed column (cactus-like): flat bottom at y = 0, straight ribbed sides, round ribbed top,
 * `ribs` ridges of relative depth `depth`.
 */
export function ribbedColumn(radius: number, height: number, ribs: number, depth: number): Solid {
  const side = Math.max(0, height - radius);
  const dome = (Math.PI / 2) * radius;
  const total = radius + side + dome;
  return polarSurface(36, 48, (u, v) => {
    const phi = 2 * Math.PI * v;
    const rib = 1 + depth * Math.cos(ribs * phi);
    const s = u * total;
    let r: number;
    let y: number;
    if (s <= radius) {
      r = s;
      y = 0;
    } else if (s <= radius + side) {
      r = radius;
      y = s - radius;
    } else {
      const a = ((s - radius - side) / dome) * (Math.PI / 2);
      r = radius * Math.cos(a);
      y = side + radius * Math.sin(a);
    }
    if (u === 1) r = 0;
    return [r * rib * Math.cos(phi), y, r * rib * Math.sin(phi)] as Vec3;
  });
}

/** A random angle in [0, 2π). */
export function randomAngle(random: Random): number {
  return between(random, 0, 2 * Math.PI);
}

/** The default finish of a role of a template's variant. */
export function finishOf(template: Template, variant: string | null, role: string): RoleFinish {
  const spec = (variant && template.variantFinishes?.[variant]?.[role]) ?? template.finishes[role];
  if (!spec) throw new Error(`Template ${template.name} has no finish for ${role}`);
  return spec;
}
