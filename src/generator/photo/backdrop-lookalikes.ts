/** Object parts that look like the backdrop, told apart from real holes that show it. */
import type { SampleGrid } from '../core/raster.ts';
import { backdropDistance, type Background } from './background-mask.ts';
import type { Mask } from './mask.ts';
import { components, step8, touchingBorder } from './mask-regions.ts';

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
  const closed = step8(
    step8(mask.inside, width, height, true, radius),
    width,
    height,
    false,
    radius,
  );
  const closedMask: Mask = { ...mask, inside: closed };
  const bg = components(closedMask, 0);
  const touches = touchingBorder(bg.labels, bg.sizes.length, width, height);
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
    if (closed[s] === 1) {
      // What the closing bridged: object where it is not the backdrop itself.
      out[s] = backdropDistance(grid, background, s) > seeThrough ? 1 : 0;
      continue;
    }
    if (l < 0 || touches[l]) continue;
    // An enclosed region: a hole when it is the backdrop, else object.
    out[s] = sums[l]! / bg.sizes[l]! <= seeThrough ? 0 : 1;
  }
  return { ...mask, inside: out };
}
