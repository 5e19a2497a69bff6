import { formatBytes } from '../../../../formats/index.ts';

// A GIF for chat apps stays under 5 MB: made at the first size and frame rate of a ladder, and
// made again one rung smaller while it is over. The last rung is under the limit whatever the
// frames hold (see worstCaseGifBytes), so the ladder always ends under it.

/** Chat apps' common ceiling (WhatsApp, Slack previews): 5 MB, counted in powers of ten. */
export const GIF_LIMIT_BYTES = 5_000_000;

export interface GifRung {
  /** The longer side, in pixels. */
  longSide: number;
  fps: number;
}

/** From the one tried first to the last resort. */
export const GIF_RUNGS: readonly GifRung[] = [
  { longSide: 480, fps: 15 },
  { longSide: 400, fps: 15 },
  { longSide: 320, fps: 15 },
  { longSide: 320, fps: 10 },
  { longSide: 240, fps: 10 },
  { longSide: 160, fps: 10 },
  { longSide: 120, fps: 10 },
];

/**
 * The most a GIF of `frames` frames of `pixels` pixels can take: LZW at worst writes one 12-bit
 * code a pixel (1.5 bytes; sub-block lengths add 1 in 255), plus each frame's local palette
 * (768 bytes) and headers (about 40), plus the file's own header and loop block.
 */
export function worstCaseGifBytes(pixels: number, frames: number): number {
  const image = Math.ceil(pixels * 1.5 * (256 / 255)) + 2;
  return 1024 + frames * (image + 768 + 64);
}

export class GifTooLargeError extends Error {
  constructor(bytes: number) {
    super(
      `Even the smallest GIF was ${formatBytes(bytes)}, over the ${formatBytes(GIF_LIMIT_BYTES)} limit: choose a shorter length.`,
    );
    this.name = 'GifTooLargeError';
  }
}

/**
 * Encodes at each rung in turn until the result is under `limit` bytes; `onRung` hears of each
 * rung before it is tried (the dialog says why it is trying again).
 */
export async function encodeWithinLimit(
  encode: (rung: GifRung) => Promise<Uint8Array>,
  {
    limit = GIF_LIMIT_BYTES,
    rungs = GIF_RUNGS,
    onRung,
  }: {
    limit?: number;
    rungs?: readonly GifRung[];
    onRung?: (rung: GifRung, index: number, previousBytes: number | null) => void;
  } = {},
): Promise<{ bytes: Uint8Array; rung: GifRung }> {
  let previous: number | null = null;
  for (const [index, rung] of rungs.entries()) {
    onRung?.(rung, index, previous);
    const bytes = await encode(rung);
    if (bytes.byteLength < limit) return { bytes, rung };
    previous = bytes.byteLength;
  }
  throw new GifTooLargeError(previous ?? 0);
}
