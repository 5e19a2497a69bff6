import { describe, expect, it } from 'vitest';
import { SCREENSHOT_SIZES, screenshotFileName, screenshotPixels } from './screenshot.ts';

describe('screenshot sizes', () => {
  it('offers the size shown, 1080p, 4K and a square', () => {
    const shown = { width: 1132, height: 468 };
    expect(SCREENSHOT_SIZES.map((s) => [s.label, screenshotPixels(s.id, shown)])).toEqual([
      ['As shown', { width: 1132, height: 468 }],
      ['1080p', { width: 1920, height: 1080 }],
      ['4K', { width: 3840, height: 2160 }],
      ['Square', { width: 2048, height: 2048 }],
    ]);
    // A canvas not laid out yet is still a picture of one pixel, not of none.
    expect(screenshotPixels('shown', { width: 0, height: 0 })).toEqual({ width: 1, height: 1 });
  });

  it('names each picture apart, so the stage and the transparent ones never overwrite', () => {
    const names = SCREENSHOT_SIZES.flatMap((s) =>
      (['stage', 'transparent'] as const).map((background) =>
        screenshotFileName('chair', { size: s.id, background }),
      ),
    );
    expect(names).toEqual([
      'chair.png',
      'chair-transparent.png',
      'chair-1080p.png',
      'chair-1080p-transparent.png',
      'chair-4k.png',
      'chair-4k-transparent.png',
      'chair-square.png',
      'chair-square-transparent.png',
    ]);
  });
});
