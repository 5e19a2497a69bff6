import type { Mask } from './mask.ts';

/** What {@link framedObject} found. */
export type FramedObject =
  /** `dropped`: how many other parts were left out (surroundings, small things apart). */
  | { kind: 'one'; mask: Mask; dropped: number }
  /** Two or more separate objects of about the same weight, apart: no one subject. */
  | { kind: 'several'; count: number };

interface Part {
  size: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  cx: number;
  cy: number;
  /** Frame sides it touches (0–4). */
  sides: number;
}

/** Another part at least this heavy (against the chosen one), apart from it: several objects. */
const EQUAL_WEIGHT = 0.6;
/** Parts within this fraction of the chosen one's long side from its box belong to the same object. */
const SAME_OBJECT_MARGIN = 0.25;

/**
 * The object a photographer framed, when the mask found more than one region: the largest near
 * the centre, leaving out regions that touch three sides of the frame (a table top spanning it),
 * other regions the frame cuts (a neighbouring thing, a piece of the room: issue 32) and small
 * things apart from it (a corner of another object). Nearby parts (an apple beside
 * another, a cup's saucer) stay with it. Separate objects of about the same weight, apart, are
 * reported as several: one photo of a group is no single subject.
 */
export function framedObject(mask: Mask): FramedObject {
  const { width, height, inside } = mask;
  const labels = new Int32Array(width * height).fill(-1);
  const parts: Part[] = [];
  const stack: number[] = [];
  for (let start = 0; start < inside.length; start++) {
    if (!inside[start] || labels[start] !== -1) continue;
    const part: Part = { size: 0, x0: width, y0: height, x1: 0, y1: 0, cx: 0, cy: 0, sides: 0 };
    labels[start] = parts.length;
    stack.push(start);
    while (stack.length > 0) {
      const s = stack.pop()!;
      const x = s % width;
      const y = (s - x) / width;
      part.size++;
      part.cx += x;
      part.cy += y;
      part.x0 = Math.min(part.x0, x);
      part.x1 = Math.max(part.x1, x);
      part.y0 = Math.min(part.y0, y);
      part.y1 = Math.max(part.y1, y);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const n = ny * width + nx;
          if (inside[n] && labels[n] === -1) {
            labels[n] = parts.length;
            stack.push(n);
          }
        }
    }
    part.cx /= part.size;
    part.cy /= part.size;
    part.sides =
      Number(part.x0 === 0) +
      Number(part.y0 === 0) +
      Number(part.x1 === width - 1) +
      Number(part.y1 === height - 1);
    parts.push(part);
  }
  if (parts.length <= 1) return { kind: 'one', mask, dropped: 0 };

  const candidates = parts.map((p, i) => ({ p, i })).filter(({ p }) => p.sides < 3);
  const pool = candidates.length > 0 ? candidates : parts.map((p, i) => ({ p, i }));
  const diagonal = Math.hypot(width / 2, height / 2);
  const score = (p: Part) =>
    p.size * Math.max(0.3, 1 - Math.hypot(p.cx - width / 2, p.cy - height / 2) / diagonal);
  const best = pool.reduce((a, b) => (score(b.p) > score(a.p) ? b : a));
  const b = best.p;
  const margin = SAME_OBJECT_MARGIN * Math.max(b.x1 - b.x0 + 1, b.y1 - b.y0 + 1);
  const [mx, my] = [margin, margin];
  const near = (p: Part) =>
    p.x1 >= b.x0 - mx && p.x0 <= b.x1 + mx && p.y1 >= b.y0 - my && p.y0 <= b.y1 + my;
  const keep = new Set<number>([best.i]);
  const touched = partsTouching(labels, best.i, mask);
  let apart = 0;
  for (const { p, i } of pool) {
    if (i === best.i) continue;
    // A part the frame cuts (another thing beside the subject, a piece of the room) is
    // surroundings, never part of the subject nor a second subject, unless it touches it: its
    // own samples, not its box (a watermelon in a corner overlaps a wide plate's box; issue 32).
    if (p.sides > 0 && !touched.has(i)) continue;
    if (near(p)) keep.add(i);
    else if (p.size >= EQUAL_WEIGHT * b.size) apart++;
  }
  if (apart > 0) return { kind: 'several', count: apart + 1 };
  const out = new Uint8Array(inside.length);
  for (let s = 0; s < out.length; s++) if (labels[s]! >= 0 && keep.has(labels[s]!)) out[s] = 1;
  return { kind: 'one', mask: { ...mask, inside: out }, dropped: parts.length - keep.size };
}

/** A part touches another when one of its samples lies within this many samples of the other's. */
const TOUCH = 2;

/** The labels of parts with a sample within TOUCH samples (square) of a sample of part `of`. */
function partsTouching(labels: Int32Array, of: number, { width, height }: Mask): Set<number> {
  const out = new Set<number>();
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (labels[y * width + x] !== of) continue;
      for (let ny = Math.max(0, y - TOUCH); ny <= Math.min(height - 1, y + TOUCH); ny++)
        for (let nx = Math.max(0, x - TOUCH); nx <= Math.min(width - 1, x + TOUCH); nx++) {
          const l = labels[ny * width + nx]!;
          if (l >= 0 && l !== of) out.add(l);
        }
    }
  return out;
}
