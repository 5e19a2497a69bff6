// What a turntable is made of: its formats, sizes, length and background, checked as the dialog
// gives them, and the name of the file it becomes. Plain TypeScript (no three.js, no encoder).

import { formatBytes } from '../../../../formats/index.ts';
import { GIF_LIMIT_BYTES } from './gif-budget.ts';

/** Frames a second of the videos (WebM, MP4). */
export const VIDEO_FPS = 30;

/** The length of a turntable, in whole seconds: one full turn. */
export const LENGTH = { min: 3, max: 20, initial: 6 } as const;

export const SIZES = {
  '720p': { width: 1280, height: 720, label: '1280 × 720 (720p)' },
  '1080p': { width: 1920, height: 1080, label: '1920 × 1080 (1080p)' },
  square: { width: 1080, height: 1080, label: '1080 × 1080 (square)' },
} as const;
export type SizeId = keyof typeof SIZES;
export const SIZE_IDS = Object.keys(SIZES) as SizeId[];

export const FORMATS = {
  webm: { label: 'WebM video', ext: 'webm', mime: 'video/webm' },
  mp4: { label: 'MP4 video (H.264)', ext: 'mp4', mime: 'video/mp4' },
  gif: {
    label: `Animated GIF for chat (under ${formatBytes(GIF_LIMIT_BYTES)})`,
    ext: 'gif',
    mime: 'image/gif',
  },
} as const;
export type Format = keyof typeof FORMATS;
export const FORMAT_IDS = Object.keys(FORMATS) as Format[];

/** Behind the model: the viewer's stage as seen, one colour, or nothing (where the format keeps alpha). */
export type BackgroundChoice = 'stage' | 'colour' | 'transparent';

export interface TurntableOptions {
  format: Format;
  seconds: number;
  size: SizeId;
  background: BackgroundChoice;
  /** `#rrggbb`, for the `colour` background. */
  colour: string;
}

/** The length field's text as whole seconds, or what is wrong with it (said at the field). */
export function checkLength(
  text: string,
): { ok: true; seconds: number } | { ok: false; message: string } {
  const trimmed = text.trim();
  const range = `from ${LENGTH.min} to ${LENGTH.max}`;
  if (trimmed === '') return { ok: false, message: `Enter a length in seconds, ${range}.` };
  const seconds = Number(trimmed);
  if (!Number.isFinite(seconds))
    return { ok: false, message: `The length must be a number of seconds, ${range}.` };
  if (!Number.isInteger(seconds))
    return { ok: false, message: `The length must be a whole number of seconds, ${range}.` };
  if (seconds < LENGTH.min || seconds > LENGTH.max)
    return { ok: false, message: `The length must be ${range} seconds.` };
  return { ok: true, seconds };
}

/** True for a colour the colour background takes (`#rrggbb`, what `<input type=color>` gives). */
export function isHexColour(value: string): boolean {
  return /^#[0-9a-f]{6}$/i.test(value);
}

/** `kiln-beta-chair-…` → `kiln-beta-chair-…-turntable.webm`. */
export function turntableFileName(base: string, format: Format): string {
  return `${base || 'model'}-turntable.${FORMATS[format].ext}`;
}

/**
 * The size of a GIF whose longer side is `longSide`, in the chosen size's proportions (even
 * numbers: half-pixel edges blur when a chat app scales it).
 */
export function scaledSize(size: SizeId, longSide: number): { width: number; height: number } {
  const { width, height } = SIZES[size];
  const scale = longSide / Math.max(width, height);
  const even = (n: number) => Math.max(2, 2 * Math.round((n * scale) / 2));
  return { width: even(width), height: even(height) };
}
