// Frames (RGBA) into an animated GIF that loops forever, with gifenc: a palette of its own per
// frame, and 1-bit transparency when the background is transparent.
import { GIFEncoder, applyPalette, quantize } from 'gifenc';

export interface GifWriter {
  /** Adds one frame shown for `delayCs` hundredths of a second. */
  add(rgba: Uint8Array | Uint8ClampedArray, delayCs: number): void;
  /** The finished file. */
  finish(): Uint8Array;
}

/** A GIF of `width` × `height` frames; `transparent` keeps pixels under half opacity clear. */
export function gifWriter(width: number, height: number, transparent: boolean): GifWriter {
  const gif = GIFEncoder();
  let first = true;
  return {
    add(rgba, delayCs) {
      const format = transparent ? 'rgba4444' : 'rgb565';
      const palette = quantize(rgba, 256, transparent ? { format, oneBitAlpha: true } : { format });
      const index = applyPalette(rgba, palette, format);
      const clear = transparent ? palette.findIndex((c) => c[3] === 0) : -1;
      gif.writeFrame(index, width, height, {
        palette,
        delay: delayCs * 10,
        // The loop block goes with the first frame: 0 is forever.
        ...(first ? { repeat: 0 } : {}),
        ...(clear >= 0 ? { transparent: true, transparentIndex: clear } : {}),
        // Each frame replaces the last (else a transparent GIF shows every frame at once).
        ...(transparent ? { dispose: 2 } : {}),
      });
      first = false;
    },
    finish() {
      gif.finish();
      return gif.bytes();
    },
  };
}
