// A turntable of the viewer's scene as a file: one full turn, frame by frame off screen, encoded
// as it goes (WebCodecs and mediabunny for WebM and MP4, gifenc for the GIF). Not in real time:
// the page gets a turn between frames, progress is told after each, and an abort stops at the
// next frame and throws everything away.
import type { TurntableStage } from '../view-handle.ts';
import type { Backdrop } from './backdrop.ts';
import { FrameRenderer } from './frame-renderer.ts';
import { frameAngle, frameSchedule, frameTime, frameTimestampUs, gifDelays } from './frames.ts';
import { formatBytes } from '../../../../formats/index.ts';
import { GIF_LIMIT_BYTES, encodeWithinLimit, type GifRung } from './gif-budget.ts';
import { FORMATS, SIZES, VIDEO_FPS, scaledSize, type TurntableOptions } from './options.ts';
import type { Support } from './support.ts';

export interface Progress {
  /** 0–1 of the current attempt. */
  fraction: number;
  frame: number;
  frames: number;
  /** Set when a GIF is made again smaller: why, for the dialog to say. */
  retry?: string;
}

interface Run {
  signal: AbortSignal;
  onProgress: (progress: Progress) => void;
}

/** Lets the page draw and take input between frames. */
const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function abortIfAsked(signal: AbortSignal): void {
  if (signal.aborted) throw new DOMException('The turntable was cancelled.', 'AbortError');
}

/** The file of a turntable made to `options`, over `backdrop`. */
export async function makeTurntable(
  stage: TurntableStage,
  options: TurntableOptions,
  backdrop: Backdrop,
  support: Support,
  run: Run,
): Promise<Blob> {
  const poseBefore = stage.poseTime();
  try {
    return options.format === 'gif'
      ? await makeGif(stage, options, backdrop, run)
      : await makeVideo(stage, options, backdrop, support, run);
  } finally {
    stage.pose?.(poseBefore);
    stage.invalidate();
  }
}

async function makeVideo(
  stage: TurntableStage,
  options: TurntableOptions,
  backdrop: Backdrop,
  support: Support,
  { signal, onProgress }: Run,
): Promise<Blob> {
  const codec = options.format === 'mp4' ? 'avc' : support.webm;
  if (!codec) throw new Error('this browser cannot encode that format.');
  const { Output, BufferTarget, WebMOutputFormat, Mp4OutputFormat, CanvasSource, QUALITY_HIGH } =
    await import('mediabunny');
  const { width, height } = SIZES[options.size];
  const schedule = frameSchedule(options.seconds, VIDEO_FPS);
  const times = Array.from({ length: schedule.count }, (_, i) => frameTime(i, VIDEO_FPS));
  const frames = new FrameRenderer(stage, width, height, backdrop, times);
  const target = new BufferTarget();
  const output = new Output({
    format:
      options.format === 'mp4'
        ? new Mp4OutputFormat({ fastStart: 'in-memory' })
        : new WebMOutputFormat(),
    target,
  });
  const source = new CanvasSource(frames.canvas, {
    codec,
    bitrate: QUALITY_HIGH,
    alpha: options.background === 'transparent' ? 'keep' : 'discard',
  });
  output.addVideoTrack(source, { frameRate: VIDEO_FPS });
  let finished = false;
  try {
    await output.start();
    const step = 1 / VIDEO_FPS;
    for (let i = 0; i < schedule.count; i++) {
      abortIfAsked(signal);
      frames.draw(frameAngle(i, schedule.count), frameTime(i, VIDEO_FPS));
      await source.add(frameTimestampUs(i, VIDEO_FPS) / 1e6, step);
      onProgress({ fraction: (i + 1) / schedule.count, frame: i + 1, frames: schedule.count });
      await yieldToPage();
    }
    abortIfAsked(signal);
    await output.finalize();
    finished = true;
    if (!target.buffer) throw new Error('the encoder gave no file.');
    return new Blob([target.buffer], { type: FORMATS[options.format].mime });
  } finally {
    if (!finished) await output.cancel().catch(() => {});
    frames.dispose();
  }
}

async function makeGif(
  stage: TurntableStage,
  options: TurntableOptions,
  backdrop: Backdrop,
  { signal, onProgress }: Run,
): Promise<Blob> {
  const { gifWriter } = await import('./gif-encoder.ts');
  let retry: string | undefined;
  const encode = async (rung: GifRung) => {
    const { width, height } = scaledSize(options.size, rung.longSide);
    const schedule = frameSchedule(options.seconds, rung.fps);
    const delays = gifDelays(schedule.count, rung.fps);
    const times = Array.from({ length: schedule.count }, (_, i) => frameTime(i, rung.fps));
    const frames = new FrameRenderer(stage, width, height, backdrop, times);
    const gif = gifWriter(width, height, options.background === 'transparent');
    try {
      for (let i = 0; i < schedule.count; i++) {
        abortIfAsked(signal);
        frames.draw(frameAngle(i, schedule.count), frameTime(i, rung.fps));
        gif.add(frames.rgba(), delays[i]!);
        onProgress({
          fraction: (i + 1) / schedule.count,
          frame: i + 1,
          frames: schedule.count,
          ...(retry ? { retry } : {}),
        });
        await yieldToPage();
      }
      return gif.finish();
    } finally {
      frames.dispose();
    }
  };
  const { bytes } = await encodeWithinLimit(encode, {
    onRung: (rung, _, previous) => {
      if (previous !== null)
        retry = `It came to ${formatBytes(previous)}, over ${formatBytes(GIF_LIMIT_BYTES)}: making it again at ${rung.longSide} px, ${rung.fps} frames a second.`;
    },
  });
  return new Blob([bytes.slice()], { type: FORMATS.gif.mime });
}
