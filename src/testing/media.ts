// Reads the turntable's files back for the tests: a video's container, codec, size, frame count,
// duration and transparency (with mediabunny, which reads what it writes and what others do), and
// a GIF's frames, delays and size (with sharp).
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import sharp from 'sharp';

export interface VideoFacts {
  /** The container, as mediabunny names it ("WebM", "MP4"). */
  container: string;
  mimeType: string;
  codec: string | null;
  width: number;
  height: number;
  /** Encoded frames (packets) of the video track. */
  frames: number;
  /** Seconds, to the end of the last frame. */
  duration: number;
  /** The track may hold transparent frames (alpha side data). */
  alpha: boolean;
}

export async function videoFacts(bytes: Uint8Array): Promise<VideoFacts> {
  const input = new Input({ source: new BufferSource(bytes), formats: ALL_FORMATS });
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track) throw new Error('no video track');
    let frames = 0;
    for await (const packet of new EncodedPacketSink(track).packets()) if (packet) frames++;
    return {
      container: (await input.getFormat()).name,
      mimeType: await input.getMimeType(),
      codec: track.codec,
      width: track.displayWidth,
      height: track.displayHeight,
      frames,
      duration: await input.computeDuration(),
      alpha: await track.canBeTransparent(),
    };
  } finally {
    input.dispose();
  }
}

export interface GifFacts {
  format: string | undefined;
  width: number;
  /** One frame's height (sharp stacks the frames). */
  height: number;
  frames: number;
  /** Each frame's delay, in milliseconds. */
  delays: number[];
  /** 0: loops forever. */
  loop: number | undefined;
}

export async function gifFacts(bytes: Uint8Array): Promise<GifFacts> {
  const meta = await sharp(bytes, { animated: true }).metadata();
  return {
    format: meta.format,
    width: meta.width ?? 0,
    height: meta.pageHeight ?? meta.height ?? 0,
    frames: meta.pages ?? 1,
    delays: meta.delay ?? [],
    loop: meta.loop,
  };
}

/** One frame of a GIF as a PNG (to look at, or to count its pixels). */
export async function gifFrame(bytes: Uint8Array, page = 0): Promise<Buffer> {
  return sharp(bytes, { page }).png().toBuffer();
}
