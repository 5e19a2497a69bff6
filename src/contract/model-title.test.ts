import { describe, expect, it } from 'vitest';
import { MODEL_TITLE_MAX, modelTitle } from './model-title.ts';

const created = Date.UTC(2026, 10, 25, 15, 32) / 1000;

describe('modelTitle: what a model is called, one rule for the SPA and the server', () => {
  it('is its own name first, whatever else it has', () => {
    expect(modelTitle({ name: '  Blue   teapot ', prompt: 'a red vase', photos: 0 })).toBe(
      'Blue teapot',
    );
    expect(modelTitle({ name: 'Chair', images: [{ name: 'chair.png' }] })).toBe('Chair');
  });

  it('else its prompt, quoted, tidied and cut at the one length', () => {
    expect(modelTitle({ name: '', prompt: ' a red\n vase ' })).toBe('“a red vase”');
    expect(modelTitle({ name: null, prompt: 'a\u202ered vase' })).toBe('“ared vase”');
    const long = modelTitle({ prompt: 'word '.repeat(40) });
    expect([...long]).toHaveLength(MODEL_TITLE_MAX);
    expect(long.endsWith('…”')).toBe(true);
  });

  it('else, for its owner, the photo it came from', () => {
    expect(modelTitle({ images: [{ name: 'chair.png' }] })).toBe('chair.png');
    expect(modelTitle({ images: [{ name: null }, { name: 'front.png' }, {}, {}] })).toBe(
      'front.png + 3 more',
    );
  });

  it('else what it was made from, with what and when if asked (a public page: no photo names)', () => {
    expect(modelTitle({ photos: 1, made: { model: 'beta', created } })).toBe(
      'A 3D model from a photo, made with beta on 25 Nov 2026',
    );
    expect(modelTitle({ photos: 3 })).toBe('A 3D model from 3 photos');
    // Photos without names read as a public page reads them.
    expect(modelTitle({ images: [{}, {}] })).toBe('A 3D model from 2 photos');
    expect(modelTitle({})).toBe('A 3D model from a photo');
  });
});
