import { describe, expect, it } from 'vitest';
import {
  frameAngle,
  frameSchedule,
  frameTime,
  frameTimestampUs,
  gifDelays,
  orbitDistance,
} from './frames.ts';

describe('frame schedule', () => {
  it.each(Array.from({ length: 18 }, (_, i) => i + 3))(
    'a %i s turn at 30 fps has 30 frames a second, exactly that long',
    (seconds) => {
      const s = frameSchedule(seconds, 30);
      expect(s.count).toBe(seconds * 30);
      expect(s.seconds).toBe(seconds);
      // The last frame starts one frame before the end, and ends at it.
      expect(frameTimestampUs(s.count - 1, 30) + Math.round(1e6 / 30)).toBeCloseTo(
        seconds * 1e6,
        -1,
      );
    },
  );

  it('gives whole-microsecond timestamps i·1e6/fps', () => {
    expect([0, 1, 2, 3, 30, 89].map((i) => frameTimestampUs(i, 30))).toEqual([
      0, 33333, 66667, 100000, 1000000, 2966667,
    ]);
  });

  it('turns once: frame i of N at 2π·i/N, the last one step short of the first', () => {
    expect(frameAngle(0, 90)).toBe(0);
    expect(frameAngle(45, 90)).toBeCloseTo(Math.PI);
    expect(frameAngle(89, 90)).toBeCloseTo(2 * Math.PI - (2 * Math.PI) / 90);
  });

  it('advances animation by the frames own time', () => {
    expect(frameTime(0, 30)).toBe(0);
    expect(frameTime(45, 30)).toBe(1.5);
  });

  it('is the same every time for the same settings', () => {
    expect(frameSchedule(7, 15)).toEqual(frameSchedule(7, 15));
  });

  it('refuses a turn of no length', () => {
    expect(() => frameSchedule(0, 30)).toThrow(RangeError);
    expect(() => frameSchedule(3, 0)).toThrow(RangeError);
  });
});

describe('GIF delays', () => {
  it('keep the running total exact at 15 fps (7, 6, 7 hundredths…)', () => {
    const delays = gifDelays(45, 15);
    expect(delays.slice(0, 6)).toEqual([7, 6, 7, 7, 6, 7]);
    expect(delays.reduce((a, b) => a + b, 0)).toBe(300);
    expect(new Set(delays)).toEqual(new Set([6, 7]));
  });

  it('are even at 10 and 20 fps', () => {
    expect(new Set(gifDelays(30, 10))).toEqual(new Set([10]));
    expect(gifDelays(60, 20).reduce((a, b) => a + b, 0)).toBe(300);
  });
});

describe('orbit distance', () => {
  const lens = { fov: 35, zoom: 1 };
  it('keeps the view as shown when the turning model fits', () => {
    expect(orbitDistance(10, 1, lens, 16 / 9)).toBe(10);
  });

  it('backs off until the model fits the narrower side of the frame', () => {
    const d = orbitDistance(2, 1, lens, 16 / 9);
    // 16:9: the height is the narrower angle; the sphere (with 4 % room) touches it.
    expect(Math.sin((17.5 * Math.PI) / 180) * d).toBeCloseTo(1.04);
    const square = orbitDistance(2, 1, lens, 1);
    expect(square).toBeCloseTo(d);
    // A tall frame: its width is the narrower angle, so further away.
    expect(orbitDistance(2, 1, lens, 9 / 16)).toBeGreaterThan(d);
    // Zoomed in, further back.
    expect(orbitDistance(2, 1, { fov: 35, zoom: 2 }, 16 / 9)).toBeGreaterThan(d);
  });
});
