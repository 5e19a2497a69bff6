import { describe, expect, it } from 'vitest';
import {
  commandFor,
  DEFAULT_SETTINGS,
  SHORTCUTS,
  settingsReducer,
  backgroundColor,
  EXPOSURE,
} from './settings.ts';

describe('settingsReducer', () => {
  it('toggles, sets the look and cycles backgrounds', () => {
    let s = settingsReducer(DEFAULT_SETTINGS, { type: 'toggle', key: 'grid' });
    expect(s.grid).toBe(true);
    s = settingsReducer(s, { type: 'look', look: 'clay' });
    expect(s.look).toBe('clay');
    const seen = [s.background];
    for (let i = 0; i < 4; i++) {
      s = settingsReducer(s, { type: 'cycle-background' });
      seen.push(s.background);
    }
    expect(seen).toEqual(['stage', 'light', 'dark', 'custom', 'stage']);
  });

  it('keeps exposure within its range and ignores nonsense', () => {
    expect(settingsReducer(DEFAULT_SETTINGS, { type: 'exposure', value: 99 }).exposure).toBe(
      EXPOSURE.max,
    );
    expect(settingsReducer(DEFAULT_SETTINGS, { type: 'exposure', value: -1 }).exposure).toBe(
      EXPOSURE.min,
    );
    expect(
      settingsReducer(DEFAULT_SETTINGS, { type: 'exposure', value: Number.NaN }).exposure,
    ).toBe(1);
  });

  it('wraps the clip index around the clips there are', () => {
    expect(settingsReducer(DEFAULT_SETTINGS, { type: 'clip', clip: 2, count: 2 }).clip).toBe(0);
    expect(settingsReducer(DEFAULT_SETTINGS, { type: 'clip', clip: -1, count: 3 }).clip).toBe(2);
    expect(settingsReducer(DEFAULT_SETTINGS, { type: 'clip', clip: 1, count: 0 })).toBe(
      DEFAULT_SETTINGS,
    );
  });

  it('gives a colour per background, none for the stage', () => {
    expect(backgroundColor(DEFAULT_SETTINGS)).toBeNull();
    expect(
      backgroundColor({ ...DEFAULT_SETTINGS, background: 'custom', customBackground: '#123456' }),
    ).toBe('#123456');
  });
});

describe('shortcuts', () => {
  it('maps every key to one action, and pairs go both ways', () => {
    const keys = SHORTCUTS.flatMap((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
    const left = commandFor('ArrowLeft', DEFAULT_SETTINGS);
    const right = commandFor('ArrowRight', DEFAULT_SETTINGS);
    expect(left).toMatchObject({ type: 'orbit' });
    expect(right).toMatchObject({ type: 'orbit' });
    if (left?.type === 'orbit' && right?.type === 'orbit')
      expect(right.azimuth).toBe(-left.azimuth);
    expect(commandFor('+', DEFAULT_SETTINGS)).toEqual({ type: 'zoom', factor: 0.85 });
    expect(commandFor('=', DEFAULT_SETTINGS)).toEqual({ type: 'zoom', factor: 0.85 });
    expect(commandFor('-', DEFAULT_SETTINGS)).toEqual({ type: 'zoom', factor: 1 / 0.85 });
    expect(commandFor('[', DEFAULT_SETTINGS)).toEqual({ type: 'next-clip', step: -1 });
    expect(commandFor('e', DEFAULT_SETTINGS)).toEqual({ type: 'exposure', value: 1.1 });
    expect(commandFor('E', DEFAULT_SETTINGS)).toEqual({ type: 'exposure', value: 0.9 });
    expect(commandFor('Home', DEFAULT_SETTINGS)).toEqual({ type: 'reset' });
    expect(commandFor('R', DEFAULT_SETTINGS)).toEqual({ type: 'reset' });
    expect(commandFor('3', DEFAULT_SETTINGS)).toEqual({ type: 'look', look: 'normals' });
    expect(commandFor('?', DEFAULT_SETTINGS)).toEqual({ type: 'toggle', key: 'help' });
    expect(commandFor('x', DEFAULT_SETTINGS)).toBeNull();
  });
});
