import { describe, expect, it } from 'vitest';
import { gifDelays } from './frames.ts';
import {
  GIF_LIMIT_BYTES,
  GIF_RUNGS,
  GifTooLargeError,
  encodeWithinLimit,
  worstCaseGifBytes,
  type GifRung,
} from './gif-budget.ts';
import { gifWriter } from './gif-encoder.ts';
import { LENGTH, scaledSize } from './options.ts';

/** A fake encoder whose file is `bytesAt(rung)` long, recording the rungs it was asked for. */
function fakeEncoder(bytesAt: (rung: GifRung) => number) {
  const asked: GifRung[] = [];
  const encode = async (rung: GifRung) => {
    asked.push(rung);
    return new Uint8Array(bytesAt(rung));
  };
  return { asked, encode };
}

describe('the GIF stays under 5 MB', () => {
  it('keeps the first rung when it is under the limit', async () => {
    const fake = fakeEncoder(() => 1_000_000);
    const { rung, bytes } = await encodeWithinLimit(fake.encode);
    expect(rung).toEqual(GIF_RUNGS[0]);
    expect(bytes.byteLength).toBe(1_000_000);
    expect(fake.asked).toHaveLength(1);
  });

  it('shrinks rung by rung while over, and says why each time', async () => {
    // Size falls with pixels a second: over the limit until 320 px at 10 fps.
    const fake = fakeEncoder((r) => (r.longSide * r.fps >= 4800 ? 6_000_000 : 4_999_999));
    const heard: [number, number | null][] = [];
    const { rung } = await encodeWithinLimit(fake.encode, {
      onRung: (_, i, previous) => heard.push([i, previous]),
    });
    expect(rung).toEqual({ longSide: 320, fps: 10 });
    expect(fake.asked.map((r) => `${r.longSide}@${r.fps}`)).toEqual([
      '480@15',
      '400@15',
      '320@15',
      '320@10',
    ]);
    expect(heard).toEqual([
      [0, null],
      [1, 6_000_000],
      [2, 6_000_000],
      [3, 6_000_000],
    ]);
  });

  it('counts exactly 5 MB as over', async () => {
    const fake = fakeEncoder((r) => (r === GIF_RUNGS[0] ? GIF_LIMIT_BYTES : 10));
    expect((await encodeWithinLimit(fake.encode)).rung).toBe(GIF_RUNGS[1]);
  });

  it('fails with a message when even the last rung is over', async () => {
    const fake = fakeEncoder(() => 7_000_000);
    await expect(encodeWithinLimit(fake.encode)).rejects.toThrow(GifTooLargeError);
    await expect(encodeWithinLimit(fake.encode)).rejects.toThrow(
      /was 7 MB, over the 5 MB limit.*shorter length/,
    );
    expect(fake.asked).toHaveLength(GIF_RUNGS.length * 2);
  });

  it('cannot fail: the last rung is under the limit for the longest, squarest turn', () => {
    const last = GIF_RUNGS.at(-1)!;
    const { width, height } = scaledSize('square', last.longSide);
    const frames = LENGTH.max * last.fps;
    expect(worstCaseGifBytes(width * height, frames)).toBeLessThan(GIF_LIMIT_BYTES);
  });

  it('a real worst case (noise, 20 s, square) ends under the limit', async () => {
    // Random colours do not compress: the first rungs are over, the ladder goes down until one fits.
    // 256 colours (so that quantising is quick), each pixel any of them: LZW finds no runs.
    let seed = 1;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed >> 23;
    };
    const colours = Array.from({ length: 256 }, () => [random(), random(), random()]);
    const noise = (n: number) => {
      const px = new Uint8Array(n * 4);
      for (let p = 0; p < n; p++) {
        const c = colours[random()]!;
        px.set([c[0]!, c[1]!, c[2]!, 255], p * 4);
      }
      return px;
    };
    const tried: string[] = [];
    const { bytes, rung } = await encodeWithinLimit(async (r) => {
      tried.push(`${r.longSide}@${r.fps}`);
      const { width, height } = scaledSize('square', r.longSide);
      const delays = gifDelays(LENGTH.max * r.fps, r.fps);
      // Only as many frames as needed to tell: a rung whose first 20 frames (scaled up) are over
      // is over; the last rung is encoded whole.
      const whole = r === GIF_RUNGS.at(-1);
      const gif = gifWriter(width, height, false);
      const n = whole ? delays.length : 20;
      for (let i = 0; i < n; i++) gif.add(noise(width * height), delays[i]!);
      const out = gif.finish();
      return whole ? out : new Uint8Array(Math.ceil((out.byteLength * delays.length) / n));
    });
    expect(bytes.byteLength).toBeLessThan(GIF_LIMIT_BYTES);
    expect(tried.length).toBeGreaterThan(1);
    expect(rung.fps).toBe(10);
    // A GIF, by its header.
    expect(new TextDecoder().decode(bytes.subarray(0, 6))).toBe('GIF89a');
  }, 120_000);
});
