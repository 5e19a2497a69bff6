// Screenshots: a PNG of the view at the size shown or at 1080p, 4K or square, with the stage
// behind the model as it is seen (its colour, or the page's gradient under a transparent canvas)
// or nothing behind it. Drawn off screen by the turntable's FrameRenderer, so the canvas on
// screen is not touched and a larger picture is a sharper one, not an enlarged one.
import { FrameRenderer } from './turntable/frame-renderer.ts';
import { stageBackdrop, type Backdrop } from './turntable/backdrop.ts';
import type { TurntableStage } from './view-handle.ts';

export const SCREENSHOT_SIZES = [
  { id: 'shown', label: 'As shown', width: 0, height: 0 },
  { id: '1080p', label: '1080p', width: 1920, height: 1080 },
  { id: '4k', label: '4K', width: 3840, height: 2160 },
  { id: 'square', label: 'Square', width: 2048, height: 2048 },
] as const;
export type ScreenshotSizeId = (typeof SCREENSHOT_SIZES)[number]['id'];
export type ScreenshotBackground = 'stage' | 'transparent';

export interface ScreenshotOptions {
  size: ScreenshotSizeId;
  background: ScreenshotBackground;
}

/** Width × height of `size` for a view drawn `shown` (its drawing buffer's pixels). */
export function screenshotPixels(
  size: ScreenshotSizeId,
  shown: { width: number; height: number },
): { width: number; height: number } {
  const entry = SCREENSHOT_SIZES.find((s) => s.id === size)!;
  return entry.id === 'shown'
    ? { width: Math.max(1, shown.width), height: Math.max(1, shown.height) }
    : { width: entry.width, height: entry.height };
}

/** `chair.png`, `chair-1080p.png`, `chair-square-transparent.png`. */
export function screenshotFileName(base: string, { size, background }: ScreenshotOptions): string {
  const parts = [
    base,
    size === 'shown' ? null : size,
    background === 'transparent' ? 'transparent' : null,
  ];
  return `${parts.filter(Boolean).join('-')}.png`;
}

/**
 * The picture, a PNG: the view from the camera as shown, at the chosen size (as shown: at the
 * same distance; any other proportions: moved back as far as the whole model needs), over the
 * stage as seen from `viewer` (with the scene's `sceneColour`, when it has one) or over nothing.
 */
export async function takeScreenshot(
  stage: TurntableStage,
  viewer: Element | null,
  sceneColour: string | null,
  options: ScreenshotOptions,
): Promise<Blob> {
  const { width, height } = screenshotPixels(options.size, stage.gl.domElement);
  const limit = stage.gl.capabilities.maxTextureSize;
  if (width > limit || height > limit)
    throw new Error(
      `this browser's graphics draw at most ${limit} pixels a side, not ${width} × ${height}.`,
    );
  const backdrop: Backdrop =
    options.background === 'transparent'
      ? { kind: 'none' }
      : viewer
        ? stageBackdrop(viewer, sceneColour)
        : { kind: 'colour', colour: sceneColour ?? '#ffffff' };
  const time = stage.poseTime();
  const renderer = new FrameRenderer(
    stage,
    width,
    height,
    backdrop,
    [time],
    options.size !== 'shown',
  );
  try {
    renderer.draw(0, time);
    const blob = await new Promise<Blob | null>((resolve) =>
      renderer.canvas.toBlob(resolve, 'image/png'),
    );
    if (!blob) throw new Error('the browser could not encode the picture.');
    return blob;
  } finally {
    renderer.dispose();
  }
}
