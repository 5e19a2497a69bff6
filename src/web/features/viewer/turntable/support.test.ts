import { describe, expect, it } from 'vitest';
import {
  backgroundAvailability,
  formatAvailability,
  formatLabel,
  type Support,
} from './support.ts';

const chromium: Support = { webCodecs: true, webm: 'vp9', mp4: true, webmAlpha: true };
const none: Support = { webCodecs: false, webm: null, mp4: false, webmAlpha: false };

describe('what the dialog offers', () => {
  it('offers every format where the encoders work', () => {
    expect(['webm', 'mp4', 'gif'].map((f) => formatAvailability(chromium, f as never))).toEqual([
      null,
      null,
      null,
    ]);
    expect(formatLabel(chromium, 'webm')).toBe('WebM video (VP9)');
  });

  it('says why video is not offered without WebCodecs, and keeps the GIF', () => {
    expect(formatAvailability(none, 'webm')).toMatch(/no WebCodecs/);
    expect(formatAvailability(none, 'mp4')).toMatch(/no WebCodecs/);
    expect(formatAvailability(none, 'gif')).toBeNull();
  });

  it('says when H.264 or both VP codecs are missing', () => {
    expect(formatAvailability({ ...chromium, mp4: false }, 'mp4')).toMatch(/H\.264/);
    expect(formatAvailability({ ...chromium, webm: null }, 'webm')).toMatch(/VP9 nor VP8/);
  });

  it('offers transparency only where the format keeps it', () => {
    expect(backgroundAvailability(chromium, 'webm', 'transparent')).toBeNull();
    expect(backgroundAvailability(chromium, 'gif', 'transparent')).toBeNull();
    expect(backgroundAvailability(chromium, 'mp4', 'transparent')).toMatch(/no transparency/);
    expect(
      backgroundAvailability({ ...chromium, webm: 'vp8', webmAlpha: false }, 'webm', 'transparent'),
    ).toMatch(/VP8 with transparency/);
    expect(backgroundAvailability(chromium, 'mp4', 'stage')).toBeNull();
    expect(backgroundAvailability(chromium, 'mp4', 'colour')).toBeNull();
  });
});
