import { GeneratorInputError } from '../core/errors.ts';
import { framedObject } from './framed-object.ts';
import { fillBackdropLookalikes } from './backdrop-lookalikes.ts';
import {
  estimateBackground,
  maskFromBackground,
  matteFromBackground,
  type Background,
} from './background-mask.ts';
import { distanceToBackground } from './distance-transform.ts';
import { edgeCoverage } from './edge-coverage.ts';
import { cleanMask, countMeshableCells, maskFromAlpha, type Mask } from './mask.ts';
import { removeSoftShadows } from './soft-shadows.ts';
import { peelBackdropPanel, type PanelPeel } from './backdrop-panels.ts';
import {
  bleedTransparent,
  encodeTexture,
  hasUsefulAlpha,
  loadImage,
  sampleGrid,
  type EncodedTexture,
  type Raster,
} from '../core/raster.ts';

/** Defaults of {@link loadSubject}. */
export const SUBJECT_DEFAULTS = {
  /** Long side of the decoded raster (the texture source), in pixels. */
  textureMaxSide: 1024,
  /** Long side of the mask grid, in samples. */
  gridLongSide: 160,
} as const;

/** Formats whose colour is stored at half resolution (edges bleed hue): lossy ones. */
const CHROMA_SUBSAMPLED = new Set(['jpeg', 'webp', 'heif', 'avif']);

/** Objects with at least this share of samples near the outline are thin (the flamingo: 0.43). */
const THIN_SHARE = 0.3;
/** A finer grid keeps at least this many pixels per sample. */
const MIN_PIXELS_PER_SAMPLE = 1.5;

/** Smallest image side, in pixels, that can show an object. */
const MIN_IMAGE_SIDE = 16;
/** Fewer meshable mask cells than this: no usable object outline. */
const MIN_OBJECT_CELLS = 8;
/** An "object" covering more of the image than this is the whole picture, not an object. */
const MAX_OBJECT_COVERAGE = 0.97;

/** One decoded photo and its object mask. */
export interface Subject {
  /** Upright RGBA pixels, long side at most `textureMaxSide`. */
  raster: Raster;
  /** The object's silhouette on a grid with `gridLongSide` samples on the long side. */
  mask: Mask;
  /**
   * What first stood out from the backdrop, on the same grid, before a plain surface behind the
   * object or other parts apart from it were left out (the cut-out shows what was).
   */
  candidate: Mask;
  /** The alpha channel is the mask (otherwise it was told from a plain backdrop). */
  usesAlpha: boolean;
  /** The backdrop the mask was told from, for opaque photos. */
  background: Background | undefined;
  /** What was left out besides the backdrop, or may be backdrop: the cut-out says it. */
  notes: SubjectNotes;
  /** The colour of the surface peeled off behind the object, if one was. */
  panelColour?: number[];
}

/** What Kiln left out of a photo besides its backdrop, or kept though it may be backdrop. */
interface SubjectNotes {
  /** A plain surface behind the object (a disc, a board, a wall panel) was left out. */
  panelDropped: boolean;
  /** The outline is mostly one plain surface that may be a backdrop; it was kept. */
  panelSuspected: boolean;
  /** Other regions left out: things the frame cuts, small things apart from the object. */
  partsDropped: number;
}

export interface SubjectOptions {
  /** For multi-image input: the image's zero-based position, named in errors. */
  imageIndex?: number;
  gridLongSide?: number;
  textureMaxSide?: number;
  /**
   * For a thin object (mostly outline on the grid), how much finer a grid to look again on
   * (limited by the photo's pixels). Default 1: no second look.
   */
  thinGridFactor?: number;
}

export function gridSize(width: number, height: number, longSide: number): [number, number] {
  const long = Math.max(width, height);
  return [
    Math.max(2, Math.round((longSide * width) / long)),
    Math.max(2, Math.round((longSide * height) / long)),
  ];
}

/**
 * True when nearly every pixel is within a few levels of one colour (the median): a blank
 * image, not a photo whose object did not stand out.
 */
function isPlainColour(raster: Raster, tolerance = 10, share = 0.998): boolean {
  const { data } = raster;
  const pixels = Math.floor(data.length / 4);
  if (pixels === 0) return true;
  const step = Math.max(1, Math.floor(pixels / 20_000));
  const channels: number[][] = [[], [], []];
  for (let p = 0; p < pixels; p += step)
    for (let c = 0; c < 3; c++) channels[c]!.push(data[p * 4 + c]!);
  const median = channels.map((values) => {
    const sorted = values.sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  });
  let near = 0;
  let seen = 0;
  for (let p = 0; p < pixels; p += step) {
    seen++;
    let far = false;
    for (let c = 0; c < 3; c++) if (Math.abs(data[p * 4 + c]! - median[c]!) > tolerance) far = true;
    if (!far) near++;
  }
  return near >= share * seen;
}

function fail(message: string, imageIndex: number | undefined): never {
  const prefix = imageIndex === undefined ? 'The image' : `Image ${imageIndex + 1}`;
  throw new GeneratorInputError(`${prefix} ${message}`, {
    reason: 'no_subject',
    ...(imageIndex === undefined ? {} : { imageIndex }),
  });
}

function maxAlpha(raster: Raster): number {
  let max = 0;
  for (let i = 3; i < raster.data.length; i += 4) if (raster.data[i]! > max) max = raster.data[i]!;
  return max;
}

/**
 * Decodes a photo and finds the object in it: from the alpha channel when the image has a
 * useful one, otherwise from the difference to the plain backdrop seen along the border (soft
 * shadows under the object count as backdrop). Holes through the object stay holes; specks
 * and pinholes are cleaned away.
 *
 * @throws GeneratorInputError when the bytes are not a usable image, or the image shows no
 *   object: too small, fully transparent, one plain colour, or no backdrop to tell it from.
 */
export async function loadSubject(
  bytes: Uint8Array,
  options: SubjectOptions = {},
): Promise<Subject> {
  const { imageIndex } = options;
  const gridLongSide = options.gridLongSide ?? SUBJECT_DEFAULTS.gridLongSide;
  const textureMaxSide = options.textureMaxSide ?? SUBJECT_DEFAULTS.textureMaxSide;
  const { info, raster } = await loadImage(bytes, textureMaxSide, imageIndex);
  if (Math.min(info.width, info.height) < MIN_IMAGE_SIDE) {
    fail(
      `is ${info.width}×${info.height} pixels, too small to show an object (at least ${MIN_IMAGE_SIDE}×${MIN_IMAGE_SIDE} is needed).`,
      imageIndex,
    );
  }
  if (maxAlpha(raster) < 8) {
    fail('is fully transparent: there is no object to model.', imageIndex);
  }
  const look = {
    raster,
    usesAlpha: hasUsefulAlpha(raster),
    chromaBlurred: CHROMA_SUBSAMPLED.has(info.format),
    thinGridFactor: options.thinGridFactor ?? 1,
  };
  // Whether there is an object, and what is backdrop, is decided once, on the standard grid, so
  // a photo one tier accepts every tier accepts (issue 32); a tier's own grid only refines the
  // outline, and when it cannot (a thin stem broken into parts on a finer grid) the standard
  // grid's outline is used.
  const standard = findSubject(look, SUBJECT_DEFAULTS.gridLongSide, 'decide');
  if (typeof standard === 'string') fail(standard, imageIndex);
  if (gridLongSide === SUBJECT_DEFAULTS.gridLongSide) return standard;
  const tier = findSubject(look, gridLongSide, standard.panelColour ?? 'keep');
  return typeof tier === 'string' ? standard : { ...tier, notes: standard.notes };
}

interface Look {
  raster: Raster;
  usesAlpha: boolean;
  chromaBlurred: boolean;
  thinGridFactor: number;
}

/** The subject on a grid of `gridLongSide` samples, or why there is none (a sentence's end). */
function findSubject(look: Look, gridLongSide: number, panel: PanelMode): Subject | string {
  const { raster, usesAlpha, chromaBlurred } = look;
  let found = findMask(raster, gridLongSide, usesAlpha, chromaBlurred, panel);
  if (!found)
    return 'has no plain background to tell the object from; use a photo of one object on a plain backdrop, or a PNG with a transparent background.';
  // A thin object (a flamingo's legs, a lamp's stem) is mostly outline on the grid: look again
  // on a finer one, as fine as the photo's pixels allow.
  const finer = Math.min(
    Math.round(gridLongSide * look.thinGridFactor),
    Math.floor(Math.max(raster.width, raster.height) / MIN_PIXELS_PER_SAMPLE),
  );
  if (finer > gridLongSide && thinShare(found.mask) >= THIN_SHARE) {
    const fine = findMask(raster, finer, usesAlpha, chromaBlurred, found.panel.colour ?? 'keep');
    // The finer look refines the outline; it adds no region (a textured backdrop's grain, seen
    // sample by sample, is no part of the object).
    if (fine && share(fine.mask) <= MAX_FINER_GROWTH * share(found.mask)) found = fine;
  }
  const { background } = found;
  const framed = framedObject(found.mask);
  if (framed.kind === 'several')
    return `shows ${framed.count} separate objects of about the same size; crop it to the one to model (or photograph one object at a time).`;
  const mask = framed.mask;
  let covered = 0;
  for (const v of mask.inside) covered += v;
  if (countMeshableCells(mask) < MIN_OBJECT_CELLS) {
    // "One plain colour" is said only of an image that is (issue 23): otherwise the object did
    // not stand out from its backdrop, and that is what is said.
    return usesAlpha
      ? 'shows no object: its visible pixels are too few or too thin to model.'
      : isPlainColour(raster)
        ? 'shows no object: it is one plain colour.'
        : 'shows no object Kiln can tell from its backdrop: nothing stands out from it clearly enough (a busy backdrop, or one much like the object). Use a photo on a plainer backdrop, or a PNG with a transparent background.';
  }
  if (covered > MAX_OBJECT_COVERAGE * mask.inside.length)
    return 'shows no object with a background around it; use a photo of one object on a plain backdrop, or a PNG with a transparent background.';
  return {
    raster,
    mask,
    candidate: found.candidate,
    usesAlpha,
    background,
    ...(found.panel.colour ? { panelColour: found.panel.colour } : {}),
    notes: {
      panelDropped: found.panel.peeled,
      panelSuspected: found.panel.suspect,
      partsDropped: framed.dropped,
    },
  };
}

/**
 * The object's mask on a grid of `gridLongSide` samples: from the alpha channel, or told from
 * the backdrop fitted to the border, a plain surface behind the object peeled off as backdrop
 * too (`panel`: decided here, or as decided on another grid). Undefined when the border is no
 * backdrop.
 */
function findMask(
  raster: Raster,
  gridLongSide: number,
  usesAlpha: boolean,
  chromaBlurred: boolean,
  panelMode: PanelMode,
):
  | { mask: Mask; candidate: Mask; background: Background | undefined; panel: PanelPeel }
  | undefined {
  const [gw, gh] = gridSize(raster.width, raster.height, gridLongSide);
  const grid = sampleGrid(raster, gw, gh);
  const none = (mask: Mask): PanelPeel => ({ mask, peeled: false, suspect: false });
  if (usesAlpha) {
    const mask = cleanMask(maskFromAlpha(grid));
    return { mask, candidate: mask, background: undefined, panel: none(mask) };
  }
  const background = estimateBackground(grid);
  if (!background) return undefined;
  const found = maskFromBackground(grid, background);
  const mask = cleanMask(
    fillBackdropLookalikes(removeSoftShadows(found, grid, background), grid, background),
  );
  const panel =
    panelMode === 'keep'
      ? none(mask)
      : peelBackdropPanel(mask, grid, background, panelMode === 'decide' ? undefined : panelMode);
  return {
    mask: edgeCoverage(panel.mask, grid, background, chromaBlurred),
    candidate: mask,
    background,
    panel,
  };
}

/**
 * Whether to peel a plain surface behind the object: decide, or as decided on another grid (keep
 * it, or peel the surface of that colour).
 */
type PanelMode = 'decide' | 'keep' | readonly number[];

/** The share of the grid a mask covers. */
function share(mask: Mask): number {
  let n = 0;
  for (const v of mask.inside) n += v;
  return n / mask.inside.length;
}

/** The finer look's mask may cover at most this much more of the picture than the first's. */
const MAX_FINER_GROWTH = 1.25;

/** The share of an object's samples within two samples of its outline. */
function thinShare(mask: Mask): number {
  const distance = distanceToBackground(mask);
  let inside = 0;
  let near = 0;
  for (let s = 0; s < mask.inside.length; s++) {
    if (!mask.inside[s]) continue;
    inside++;
    if (distance[s]! <= 2) near++;
  }
  return inside === 0 ? 0 : near / inside;
}

/**
 * The photo as a texture: PNG for photos with an alpha channel, JPEG for opaque ones. Either
 * way the object's colours are first bled over the background, so no backdrop colour shows
 * along the outline (nor in mipmaps). Resized to power-of-two sides, as
 * mipmapping on every GPU wants (the UVs are relative, so the stretch is undone on the model).
 */
export function textureOf(subject: Subject): Promise<EncodedTexture> {
  return encodeTexture(textureRaster(subject, objectMatte(subject)), subject.usesAlpha);
}

/** The pixels {@link textureOf} encodes: the object's colours bled over the backdrop. */
export function textureRaster(subject: Subject, matte: Raster): Raster {
  return subject.usesAlpha || subject.background ? bleedTransparent(matte) : matte;
}

/**
 * The photo with the object's alpha: its own alpha channel, or (on an opaque photo) a matte that
 * is 0 over the backdrop and backdrop-coloured edge pixels.
 */
export function objectMatte(subject: Subject): Raster {
  const { raster, background } = subject;
  if (subject.usesAlpha || !background) return raster;
  return matteFromBackground(raster, subject.mask, background);
}
