// Whether 2–4 photos show one object (issue 32, item 4): compared before anything is charged,
// from each view's cut-out (photo/cutout.ts). Views of one object share their colours, and
// opposite views (front and back, right and left) mirror each other's outline.
import { OUTLINE_SIDE, type UsableCutout } from '../photo/cutout.ts';

/** Two views whose colours overlap less than this (histogram intersection) differ. */
const MIN_COLOUR_OVERLAP = 0.42;
/** Opposite views whose mirrored outlines overlap less than this (IoU) differ. */
const MIN_OUTLINE_OVERLAP = 0.65;
/** Opposite views whose height-to-width ratios differ more than this factor differ. */
const MAX_ASPECT_RATIO = 1.35;

/** One pair of views compared: index into the views, 0-based. */
export interface ViewPair {
  a: number;
  b: number;
  /** Histogram intersection of their colours, 0..1. */
  colours: number;
  /** For opposite views: IoU of one's outline with the other's mirrored, 0..1. */
  outline?: number;
  /** For opposite views: the larger height-to-width ratio over the smaller. */
  aspect?: number;
  /** What differs: nothing, or colours and/or outline. */
  differs: ('colours' | 'outline')[];
}

export interface ViewsAgreement {
  /** True when no view stands out (see {@link viewsAgreement}). */
  agree: boolean;
  pairs: ViewPair[];
  /** Pairs that say the views are not of one object. */
  disagreeing: ViewPair[];
}

function colourOverlap(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.min(a[i]!, b[i] ?? 0);
  return sum;
}

/** IoU of `a` with `b` mirrored left to right. */
function mirroredOverlap(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let y = 0; y < OUTLINE_SIDE; y++)
    for (let x = 0; x < OUTLINE_SIDE; x++) {
      const p = a[y * OUTLINE_SIDE + x]!;
      const q = b[y * OUTLINE_SIDE + (OUTLINE_SIDE - 1 - x)]!;
      if (p && q) both++;
      if (p || q) either++;
    }
  return either === 0 ? 1 : both / either;
}

/**
 * Compares every pair of views (in Kiln's order: front, right, back, left): colours for all,
 * mirrored outlines and proportions for opposite views (front and back, right and left). Views
 * disagree when opposite views do not mirror each other, or when one view's colours differ from
 * every other view's (two sides of one object may differ from each other, as a teapot's spout side
 * from its handle side, but each shares its colours with the front or the back).
 */
export function viewsAgreement(views: readonly UsableCutout[]): ViewsAgreement {
  const pairs: ViewPair[] = [];
  for (let a = 0; a < views.length; a++)
    for (let b = a + 1; b < views.length; b++) {
      const va = views[a]!;
      const vb = views[b]!;
      const pair: ViewPair = { a, b, colours: colourOverlap(va.colours, vb.colours), differs: [] };
      if (pair.colours < MIN_COLOUR_OVERLAP) pair.differs.push('colours');
      if (b - a === 2) {
        pair.outline = mirroredOverlap(va.outline, vb.outline);
        pair.aspect =
          Math.max(va.aspect, vb.aspect) / Math.max(1e-6, Math.min(va.aspect, vb.aspect));
        if (pair.outline < MIN_OUTLINE_OVERLAP || pair.aspect > MAX_ASPECT_RATIO)
          pair.differs.push('outline');
      }
      pairs.push(pair);
    }
  const colourOdd = (v: number) =>
    pairs.filter((p) => p.a === v || p.b === v).every((p) => p.differs.includes('colours'));
  const disagreeing = pairs.filter(
    (p) =>
      p.differs.includes('outline') ||
      (p.differs.includes('colours') && (colourOdd(p.a) || colourOdd(p.b))),
  );
  return { agree: disagreeing.length === 0, pairs, disagreeing };
}
