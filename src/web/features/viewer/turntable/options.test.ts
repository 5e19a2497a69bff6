import { describe, expect, it } from 'vitest';
import {
  LENGTH,
  SIZES,
  checkLength,
  isHexColour,
  scaledSize,
  turntableFileName,
} from './options.ts';

describe('turntable options', () => {
  it('offers three sizes: 720p, 1080p and a square 1080', () => {
    expect(Object.values(SIZES).map((s) => [s.width, s.height])).toEqual([
      [1280, 720],
      [1920, 1080],
      [1080, 1080],
    ]);
  });

  it('takes whole seconds from 3 to 20', () => {
    expect(checkLength('3')).toEqual({ ok: true, seconds: 3 });
    expect(checkLength(' 20 ')).toEqual({ ok: true, seconds: 20 });
    expect(LENGTH.initial).toBeGreaterThanOrEqual(LENGTH.min);
  });

  it.each([
    ['', 'Enter a length in seconds, from 3 to 20.'],
    ['2', 'The length must be from 3 to 20 seconds.'],
    ['21', 'The length must be from 3 to 20 seconds.'],
    ['-5', 'The length must be from 3 to 20 seconds.'],
    ['4.5', 'The length must be a whole number of seconds, from 3 to 20.'],
    ['ten', 'The length must be a number of seconds, from 3 to 20.'],
    ['Infinity', 'The length must be a number of seconds, from 3 to 20.'],
  ])('refuses %j, saying why', (text, message) => {
    expect(checkLength(text)).toEqual({ ok: false, message });
  });

  it('names the file after the model, with -turntable and the format', () => {
    expect(turntableFileName('kiln-beta-text-teapot-2026-11-25-abc', 'webm')).toBe(
      'kiln-beta-text-teapot-2026-11-25-abc-turntable.webm',
    );
    expect(turntableFileName('chair', 'mp4')).toBe('chair-turntable.mp4');
    expect(turntableFileName('chair', 'gif')).toBe('chair-turntable.gif');
    expect(turntableFileName('', 'gif')).toBe('model-turntable.gif');
  });

  it('scales a size to a longer side, keeping its proportions in even pixels', () => {
    expect(scaledSize('720p', 480)).toEqual({ width: 480, height: 270 });
    expect(scaledSize('1080p', 480)).toEqual({ width: 480, height: 270 });
    expect(scaledSize('square', 480)).toEqual({ width: 480, height: 480 });
    expect(scaledSize('720p', 120)).toEqual({ width: 120, height: 68 });
  });

  it('knows a colour from the colour picker', () => {
    expect(isHexColour('#3d5a80')).toBe(true);
    expect(isHexColour('red')).toBe(false);
    expect(isHexColour('#fff')).toBe(false);
  });
});
