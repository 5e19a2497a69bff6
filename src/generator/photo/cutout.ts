// The cut-out: what Kiln will model of a photo, before anything is made (issue 32, item 2). The
// same decision every tier makes (subject.ts, on the standard grid), as a picture and in words.
import sharp from 'sharp';
import { GeneratorInputError, type InputProblem } from '../core/errors.ts';
import type { Mask } from './mask.ts';
import { loadSubject, type Subject } from './subject.ts';

/** What a sample of the photo becomes: left out as backdrop, kept, or left out though it stood out. */
const CUTOUT_BACKDROP = 0;
export const CUTOUT_KEPT = 1;
const CUTOUT_DROPPED = 2;

/**
 * The colours of a kept object: hue bins by lightness (dark, mid, light) weighted by saturation,
 * then grey bins by lightness.
 */
const HUE_BINS = 12;
const LIGHT_BINS = 3;
const GREY_BINS = 5;
const COLOUR_BINS = HUE_BINS * LIGHT_BINS + GREY_BINS;
/** The side of the outline's normalised square (its bounding box, resampled). */
export const OUTLINE_SIDE = 24;

/** The object a photo shows, as the generator will model it. */
export interface UsableCutout {
  usable: true;
  /** The sample grid's size (the photo's aspect). */
  width: number;
  height: number;
  /** One of CUTOUT_BACKDROP, CUTOUT_KEPT, CUTOUT_DROPPED per sample, row-major. */
  classes: Uint8Array;
  /** The share of the photo kept (0..1). */
  keptShare: number;
  panelDropped: boolean;
  panelSuspected: boolean;
  partsDropped: number;
  /** The kept object's colour distribution (COLOUR_BINS values summing to 1). */
  colours: number[];
  /** The kept object's outline in its bounding box, OUTLINE_SIDE² samples of 0 or 1. */
  outline: Uint8Array;
  /** Height over width of the kept object's bounding box, in samples. */
  aspect: number;
}

/** A photo the generator refuses, and why (the sentence the task's failure would say). */
interface RefusedCutout {
  usable: false;
  message: string;
  reason: InputProblem;
}

export type Cutout = UsableCutout | RefusedCutout;

/**
 * The cut-out of one photo: which samples are kept, which are left out (the backdrop, and a plain
 * surface or other parts that stood out but are not the object), and the kept object's colours
 * and outline (for comparing views). A photo no tier can model is refused with the sentence its
 * task would fail with. Never throws for bad input.
 */
export async function cutoutOf(bytes: Uint8Array, imageIndex?: number): Promise<Cutout> {
  let subject: Subject;
  try {
    subject = await loadSubject(bytes, imageIndex === undefined ? {} : { imageIndex });
  } catch (error) {
    if (error instanceof GeneratorInputError)
      return { usable: false, message: error.message, reason: error.reason };
    throw error;
  }
  const { mask, candidate, notes } = subject;
  const classes = new Uint8Array(mask.inside.length);
  let kept = 0;
  for (let s = 0; s < classes.length; s++) {
    if (mask.inside[s]) {
      classes[s] = CUTOUT_KEPT;
      kept++;
    } else if (candidate.inside[s]) classes[s] = CUTOUT_DROPPED;
  }
  const box = boundsOf(mask);
  return {
    usable: true,
    width: mask.width,
    height: mask.height,
    classes,
    keptShare: kept / classes.length,
    panelDropped: notes.panelDropped,
    panelSuspected: notes.panelSuspected,
    partsDropped: notes.partsDropped,
    colours: colourSignature(subject),
    outline: outlineOf(mask, box),
    aspect: (box.y1 - box.y0) / Math.max(1, box.x1 - box.x0),
  };
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The kept samples' bounding box (exclusive ends). */
function boundsOf(mask: Mask): Box {
  const box = { x0: mask.width, y0: mask.height, x1: 0, y1: 0 };
  for (let y = 0; y < mask.height; y++)
    for (let x = 0; x < mask.width; x++)
      if (mask.inside[y * mask.width + x]) {
        box.x0 = Math.min(box.x0, x);
        box.y0 = Math.min(box.y0, y);
        box.x1 = Math.max(box.x1, x + 1);
        box.y1 = Math.max(box.y1, y + 1);
      }
  return box;
}

/** The mask inside its bounding box, resampled (nearest) to OUTLINE_SIDE × OUTLINE_SIDE. */
function outlineOf(mask: Mask, box: Box): Uint8Array {
  const out = new Uint8Array(OUTLINE_SIDE * OUTLINE_SIDE);
  const w = Math.max(1, box.x1 - box.x0);
  const h = Math.max(1, box.y1 - box.y0);
  for (let y = 0; y < OUTLINE_SIDE; y++)
    for (let x = 0; x < OUTLINE_SIDE; x++) {
      const sx = box.x0 + Math.floor(((x + 0.5) * w) / OUTLINE_SIDE);
      const sy = box.y0 + Math.floor(((y + 0.5) * h) / OUTLINE_SIDE);
      out[y * OUTLINE_SIDE + x] = mask.inside[sy * mask.width + sx] ?? 0;
    }
  return out;
}

/**
 * The kept object's colours: each kept sample's pixel (at its centre) in a hue bin weighted by
 * its chroma, the rest of its weight in a grey bin by lightness. Sums to 1.
 */
function colourSignature({ raster, mask }: Subject): number[] {
  const bins = new Array<number>(COLOUR_BINS).fill(0);
  let total = 0;
  for (let y = 0; y < mask.height; y++)
    for (let x = 0; x < mask.width; x++) {
      if (!mask.inside[y * mask.width + x]) continue;
      const px = Math.min(raster.width - 1, Math.floor(((x + 0.5) * raster.width) / mask.width));
      const py = Math.min(raster.height - 1, Math.floor(((y + 0.5) * raster.height) / mask.height));
      const i = (py * raster.width + px) * 4;
      const [r, g, b] = [
        raster.data[i]! / 255,
        raster.data[i + 1]! / 255,
        raster.data[i + 2]! / 255,
      ];
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      const chroma = max - min;
      const saturation = max === 0 ? 0 : chroma / max;
      const lightness = (max + min) / 2;
      if (chroma > 0) {
        const hue =
          max === r
            ? ((g - b) / chroma + 6) % 6
            : max === g
              ? (b - r) / chroma + 2
              : (r - g) / chroma + 4;
        const h = Math.min(HUE_BINS - 1, Math.floor((hue / 6) * HUE_BINS));
        const l = Math.min(LIGHT_BINS - 1, Math.floor(lightness * LIGHT_BINS));
        bins[l * HUE_BINS + h]! += saturation;
      }
      bins[HUE_BINS * LIGHT_BINS + Math.min(GREY_BINS - 1, Math.floor(lightness * GREY_BINS))]! +=
        1 - saturation;
      total++;
    }
  return bins.map((v) => (total === 0 ? 0 : v / total));
}

/** Left-out samples are shaded: the backdrop dark, parts that stood out but are not kept red. */
const SHADE: Record<number, readonly [number, number, number, number]> = {
  [CUTOUT_BACKDROP]: [12, 14, 24, 140],
  [CUTOUT_DROPPED]: [214, 40, 57, 190],
  [CUTOUT_KEPT]: [0, 0, 0, 0],
};

/**
 * The cut-out as a picture to lay over the photo (same aspect): clear where the object is
 * kept, dark over the backdrop, red over what stood out but is left out. PNG, grid-sized (a
 * browser scales it smoothly).
 */
async function cutoutOverlayPng(cutout: UsableCutout): Promise<Uint8Array> {
  const { width, height, classes } = cutout;
  const rgba = new Uint8Array(width * height * 4);
  for (let s = 0; s < classes.length; s++) rgba.set(SHADE[classes[s]!]!, s * 4);
  const png = await sharp(rgba, { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  return new Uint8Array(png);
}

/** A photo's cut-out, with its overlay picture (PNG) when the photo is usable. */
export type PhotoCutout = Cutout & { overlayPng?: Uint8Array };

/** {@link cutoutOf} with the overlay picture drawn: what the mock answers a cut-out check with. */
export async function photoCutout(image: Uint8Array): Promise<PhotoCutout> {
  const cutout = await cutoutOf(image);
  return cutout.usable ? { ...cutout, overlayPng: await cutoutOverlayPng(cutout) } : cutout;
}
