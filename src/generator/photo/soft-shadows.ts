/** Soft shadows under the object, told apart from object parts of the backdrop's colours. */
import type { SampleGrid } from '../core/raster.ts';
import { backdropAt, type Background } from './background-mask.ts';
import { maskBounds, type Mask } from './mask.ts';
import { components } from './mask-regions.ts';

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
