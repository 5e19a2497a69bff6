// What this browser can make: which video codecs WebCodecs encodes at the sizes offered, and
// which of them keep transparency. Asked once when the dialog opens (it loads the muxer).
import { FORMATS, type BackgroundChoice, type Format } from './options.ts';

export interface Support {
  /** WebCodecs' VideoEncoder is there at all. */
  webCodecs: boolean;
  /** The WebM codec used (VP9 where it encodes, else VP8), or null. */
  webm: 'vp9' | 'vp8' | null;
  /** H.264 in MP4 encodes. */
  mp4: boolean;
  /** The WebM codec keeps an alpha channel. */
  webmAlpha: boolean;
}

/** Probes the encoders at the largest size offered (1920 × 1080, 30 fps). */
export async function probeSupport(): Promise<Support> {
  if (typeof VideoEncoder === 'undefined')
    return { webCodecs: false, webm: null, mp4: false, webmAlpha: false };
  const { canEncodeVideo } = await import('mediabunny');
  const at = { width: 1920, height: 1080, frameRate: 30 };
  const can = (codec: 'vp9' | 'vp8' | 'avc', alpha = false) =>
    canEncodeVideo(codec, alpha ? { ...at, alpha: 'keep' } : at).catch(() => false);
  const [vp9, vp8, avc] = await Promise.all([can('vp9'), can('vp8'), can('avc')]);
  const webm = vp9 ? 'vp9' : vp8 ? 'vp8' : null;
  const webmAlpha = webm ? await can(webm, true) : false;
  return { webCodecs: true, webm, mp4: avc, webmAlpha };
}

/** Whether a format can be chosen here, and if not, why (said beside it). */
export function formatAvailability(support: Support, format: Format): string | null {
  if (format === 'gif') return null;
  if (!support.webCodecs) return 'This browser cannot encode video (it has no WebCodecs).';
  if (format === 'webm' && !support.webm) return 'This browser encodes neither VP9 nor VP8.';
  if (format === 'mp4' && !support.mp4) return 'This browser does not encode H.264.';
  return null;
}

/** Whether a background can be chosen with a format, and if not, why. */
export function backgroundAvailability(
  support: Support,
  format: Format,
  background: BackgroundChoice,
): string | null {
  if (background !== 'transparent') return null;
  if (format === 'mp4') return 'MP4 (H.264) has no transparency: choose WebM or GIF.';
  if (format === 'webm' && !support.webmAlpha)
    return `This browser does not encode ${support.webm?.toUpperCase() ?? 'WebM'} with transparency.`;
  return null;
}

/** The label of a format, with the codec it will use. */
export function formatLabel(support: Support, format: Format): string {
  if (format === 'webm' && support.webm) return `WebM video (${support.webm.toUpperCase()})`;
  return FORMATS[format].label;
}
