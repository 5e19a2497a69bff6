import { describe, expect, it } from 'vitest';
import { chosenBackdrop, mixColours, stageEllipse } from './backdrop.ts';

describe('the stage backdrop', () => {
  it('is an ellipse at 50% 38% reaching the farthest corner', () => {
    const { cx, cy, rx, ry } = stageEllipse(1280, 720);
    expect([cx, cy]).toEqual([640, 273.6]);
    // The bottom corners (the farthest) lie on it.
    expect((640 / rx) ** 2 + ((720 - 273.6) / ry) ** 2).toBeCloseTo(1);
    // In the proportions of the closest sides.
    expect(rx / ry).toBeCloseTo(640 / 273.6);
  });

  it('mixes its middle stop as color-mix does', () => {
    expect(mixColours('#ffffff', '#000000', 0.7)).toBe('#4d4d4d');
    expect(mixColours('#102030', '#102030', 0.3)).toBe('#102030');
  });

  it('is what the background choice asks for', () => {
    expect(chosenBackdrop('colour', null, '#000000', '#3d5a80')).toEqual({
      kind: 'colour',
      colour: '#3d5a80',
    });
    expect(chosenBackdrop('transparent', null, '#000000', '#3d5a80')).toEqual({ kind: 'none' });
    // The stage with no viewer element to read: the scene's colour, else white.
    expect(chosenBackdrop('stage', null, '#222222', '#3d5a80')).toEqual({
      kind: 'colour',
      colour: '#222222',
    });
    expect(chosenBackdrop('stage', null, null, '#3d5a80')).toEqual({
      kind: 'colour',
      colour: '#ffffff',
    });
  });
});
