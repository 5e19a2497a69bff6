import sharp from 'sharp';
import type { Mask } from '../photo/mask.ts';

/**
 * Synthetic multi-view input for tests and benches: orthographic pictures of simple objects
 * made of axis-aligned boxes, from the front, right, back and left, as `viewsToGlb` expects
 * them (object frame: Y up, front facing +Z; see `views-to-glb.ts`).
 */

export type SyntheticShape = 'chair' | 'l-block' | 'table';
export type SyntheticView = 'front' | 'right' | 'back' | 'left';

/** The order of {@link syntheticViews}' images. */
export const SYNTHETIC_VIEWS: readonly SyntheticView[] = ['front', 'right', 'back', 'left'];

/** An axis-aligned box in metres (object frame) with its own sRGB colour. */
export interface SyntheticBox {
  name: string;
  min: readonly [number, number, number];
  max: readonly [number, number, number];
  colour: readonly [number, number, number];
}

type Vec3 = [number, number, number];

function box(name: string, min: Vec3, max: Vec3, colour: Vec3): SyntheticBox {
  return { name, min, max, colour };
}

/** Legs of a chair or table: four square posts of side `side` inset into the corners. */
function legs(
  halfX: number,
  halfZ: number,
  side: number,
  top: number,
  colours: readonly Vec3[],
): SyntheticBox[] {
  const corners: [string, number, number][] = [
    ['leg-front-left', -1, 1],
    ['leg-front-right', 1, 1],
    ['leg-back-right', 1, -1],
    ['leg-back-left', -1, -1],
  ];
  return corners.map(([name, sx, sz], i) => {
    const x0 = sx < 0 ? -halfX : halfX - side;
    const z0 = sz < 0 ? -halfZ : halfZ - side;
    return box(name, [x0, 0, z0], [x0 + side, top, z0 + side], colours[i % colours.length]!);
  });
}

/**
 * The boxes of a synthetic object, 1 m tall (the table 0.75 m), standing on y = 0 and centred
 * on x and z. Boxes overlap slightly where they meet so no seams show.
 * - chair: 0.5 × 0.5 m seat at 0.45–0.52 m, four 0.025 m legs (5 % of the width), a back
 *   panel along the rear edge up to 1 m.
 * - l-block: 0.6 m wide (X); its profile in the Z–Y plane is an L: the lower half is 0.6 m
 *   deep, the upper half only the rear 0.3 m. The notch (front, top) shows from the right and
 *   left, not from the front.
 * - table: 1.2 × 0.7 m top, 0.04 m thick, at 0.75 m, on four 0.05 m legs.
 */
export function syntheticBoxes(shape: SyntheticShape): SyntheticBox[] {
  switch (shape) {
    case 'chair':
      return [
        ...legs(0.25, 0.25, 0.025, 0.46, [
          [92, 58, 30],
          [120, 72, 36],
          [70, 46, 28],
          [140, 90, 50],
        ]),
        box('seat', [-0.25, 0.45, -0.25], [0.25, 0.52, 0.25], [200, 40, 40]),
        box('back', [-0.25, 0.51, -0.25], [0.25, 1, -0.21], [40, 80, 200]),
      ];
    case 'l-block':
      return [
        box('base', [-0.3, 0, -0.3], [0.3, 0.5, 0.3], [220, 160, 40]),
        box('tower', [-0.3, 0.49, -0.3], [0.3, 1, 0], [40, 160, 90]),
      ];
    case 'table':
      return [
        ...legs(0.6, 0.35, 0.05, 0.72, [[90, 60, 40]]),
        box('top', [-0.6, 0.71, -0.35], [0.6, 0.75, 0.35], [170, 120, 70]),
      ];
  }
}

/** Screen coordinates (x right, y up) and depth (larger is nearer the camera) of a point. */
function toScreen(view: SyntheticView, p: readonly number[]): [number, number, number] {
  const [x, y, z] = [p[0]!, p[1]!, p[2]!];
  switch (view) {
    case 'front':
      return [x, y, z];
    case 'right':
      return [-z, y, x];
    case 'back':
      return [-x, y, -z];
    case 'left':
      return [z, y, -x];
  }
}

interface ScreenRect {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Depth of the face turned to the camera. */
  near: number;
  colour: readonly [number, number, number];
}

function screenRects(shape: SyntheticShape, view: SyntheticView): ScreenRect[] {
  return syntheticBoxes(shape).map((b) => {
    const a = toScreen(view, b.min);
    const c = toScreen(view, b.max);
    return {
      x0: Math.min(a[0], c[0]),
      x1: Math.max(a[0], c[0]),
      y0: Math.min(a[1], c[1]),
      y1: Math.max(a[1], c[1]),
      near: Math.max(a[2], c[2]),
      colour: b.colour,
    };
  });
}

function screenBounds(rects: readonly ScreenRect[]): {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
} {
  return {
    x0: Math.min(...rects.map((r) => r.x0)),
    x1: Math.max(...rects.map((r) => r.x1)),
    y0: Math.min(...rects.map((r) => r.y0)),
    y1: Math.max(...rects.map((r) => r.y1)),
  };
}

/**
 * The expected silhouette of `shape` seen from `view`, on a width × height grid that exactly
 * covers the silhouette's bounding box (sample centres tested; row 0 is the top), as the
 * generator's `renderSilhouette` test helper draws a model.
 */
export function syntheticSilhouette(
  shape: SyntheticShape,
  view: SyntheticView,
  width: number,
  height: number,
): Mask {
  const rects = screenRects(shape, view);
  const b = screenBounds(rects);
  const inside = new Uint8Array(width * height);
  for (let j = 0; j < height; j++) {
    const sy = b.y1 - ((j + 0.5) / height) * (b.y1 - b.y0);
    for (let i = 0; i < width; i++) {
      const sx = b.x0 + ((i + 0.5) / width) * (b.x1 - b.x0);
      if (rects.some((r) => sx >= r.x0 && sx <= r.x1 && sy >= r.y0 && sy <= r.y1)) {
        inside[j * width + i] = 1;
      }
    }
  }
  return { width, height, inside };
}

/** Per view: the share of the image the object's long side fills, and its centre's offset. */
const FRAMING: Record<SyntheticView, { fill: number; dx: number; dy: number }> = {
  front: { fill: 0.8, dx: 0, dy: 0 },
  right: { fill: 0.62, dx: 0.06, dy: -0.05 },
  back: { fill: 0.72, dx: -0.04, dy: 0.03 },
  left: { fill: 0.88, dx: 0.02, dy: 0.02 },
};

/** Fraction of the pixel interval [p, p + 1) covered by [a, b]. */
function overlap(p: number, a: number, b: number): number {
  return Math.max(0, Math.min(p + 1, b) - Math.max(p, a));
}

function parseColour(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`background must be 'transparent' or '#rrggbb', not ${hex}`);
  return [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)];
}

export interface SyntheticViewsOptions {
  /** 'transparent' (default): RGBA with a clear background; '#rrggbb': opaque, on that colour. */
  background?: 'transparent' | `#${string}`;
}

/** RGBA pixels of one view, anti-aliased (exact box coverage per pixel). */
function renderView(
  shape: SyntheticShape,
  view: SyntheticView,
  size: number,
  background: readonly [number, number, number] | undefined,
): Uint8Array {
  const rects = screenRects(shape, view).sort((a, b) => a.near - b.near);
  const b = screenBounds(rects);
  const framing = FRAMING[view];
  const scale = (framing.fill * size) / Math.max(b.x1 - b.x0, b.y1 - b.y0);
  const cx = size / 2 + framing.dx * size - ((b.x0 + b.x1) / 2) * scale;
  const cy = size / 2 + framing.dy * size + ((b.y0 + b.y1) / 2) * scale;
  // Premultiplied RGBA in 0..1, composited far to near.
  const acc = new Float32Array(size * size * 4);
  for (const r of rects) {
    const px0 = cx + r.x0 * scale;
    const px1 = cx + r.x1 * scale;
    const py0 = cy - r.y1 * scale;
    const py1 = cy - r.y0 * scale;
    const [cr, cg, cb] = r.colour.map((c) => c / 255) as [number, number, number];
    for (let y = Math.max(0, Math.floor(py0)); y < Math.min(size, Math.ceil(py1)); y++) {
      const covY = overlap(y, py0, py1);
      for (let x = Math.max(0, Math.floor(px0)); x < Math.min(size, Math.ceil(px1)); x++) {
        const a = covY * overlap(x, px0, px1);
        const p = (y * size + x) * 4;
        const rest = 1 - a;
        acc[p] = cr * a + acc[p]! * rest;
        acc[p + 1] = cg * a + acc[p + 1]! * rest;
        acc[p + 2] = cb * a + acc[p + 2]! * rest;
        acc[p + 3] = a + acc[p + 3]! * rest;
      }
    }
  }
  const out = new Uint8Array(size * size * 4);
  for (let p = 0; p < out.length; p += 4) {
    const a = acc[p + 3]!;
    if (background) {
      for (let k = 0; k < 3; k++) {
        out[p + k] = Math.round(255 * acc[p + k]! + background[k]! * (1 - a));
      }
      out[p + 3] = 255;
    } else if (a > 0) {
      for (let k = 0; k < 3; k++) out[p + k] = Math.round((255 * acc[p + k]!) / a);
      out[p + 3] = Math.round(255 * a);
    }
  }
  return out;
}

/**
 * Four PNG pictures of `shape` (front, right, back, left, in that order), size × size pixels,
 * orthographic, each framed differently (the object fills 62–88 % of the picture, off centre)
 * so that bounding-box normalisation is exercised.
 */
export async function syntheticViews(
  shape: SyntheticShape,
  size = 512,
  options: SyntheticViewsOptions = {},
): Promise<Uint8Array[]> {
  const background =
    options.background === undefined || options.background === 'transparent'
      ? undefined
      : parseColour(options.background);
  return Promise.all(
    SYNTHETIC_VIEWS.map(async (view) => {
      const pixels = renderView(shape, view, size, background);
      let image = sharp(pixels, { raw: { width: size, height: size, channels: 4 } });
      if (background) image = image.removeAlpha();
      const png = await image.png({ compressionLevel: 6 }).toBuffer();
      return new Uint8Array(png);
    }),
  );
}
