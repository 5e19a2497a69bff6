import type { ImageToGlbOptions } from '../photo/image-to-glb.ts';
import type { ViewsToGlbOptions } from '../views/views-to-glb.ts';

/**
 * How much time a generation may trade for detail: `draft` is fastest (a coarser outline or
 * voxel grid, fewer triangles, a 512 px texture), `standard` the generator's defaults, `high` the
 * finest (a finer grid, more triangles, textures up to 2048 px). For several views the
 * simplifier's allowed error falls with the tier too (flat parts of a voxel surface otherwise
 * collapse to the same few hundred triangles at every grid size). Measured per tier in
 * bench/generator.ts; each stays within 3 s on 2 cores.
 */
export const QUALITIES = ['draft', 'standard', 'high'] as const;
export type Quality = (typeof QUALITIES)[number];

type Tuning<T> = Omit<T, 'onPhase'>;

export const IMAGE_QUALITY: Readonly<Record<Quality, Tuning<ImageToGlbOptions>>> = {
  draft: { gridLongSide: 112, textureMaxSide: 512, maxTriangles: 5_000 },
  standard: {},
  high: { gridLongSide: 224, textureMaxSide: 2048, maxTriangles: 30_000 },
};

export const VIEWS_QUALITY: Readonly<Record<Quality, Tuning<ViewsToGlbOptions>>> = {
  draft: { resolution: 96, maxTriangles: 15_000, textureSize: 512, simplifyError: 2e-3 },
  standard: {},
  high: {
    resolution: 160,
    maxTriangles: 60_000,
    textureSize: 2048,
    smoothing: 3,
    simplifyError: 1e-4,
  },
};
