import { describe, expect, it } from 'vitest';
import { parseRoute } from '../../lib/router.ts';
import { shareTitleOf } from './share-button.tsx';

describe('the share routes', () => {
  it('reads /s/{token} and /s/{token}/embed, and nothing else under /s', () => {
    const token = 'AbC-_0123456789abcdefXYZ';
    expect(parseRoute(`/s/${token}`)).toEqual({ page: 'share', token, embed: false });
    expect(parseRoute(`/s/${token}/`)).toEqual({ page: 'share', token, embed: false });
    expect(parseRoute(`/s/${token}/embed`)).toEqual({ page: 'share', token, embed: true });
    // Malformed tokens still reach the share page, which says the link does not work.
    expect(parseRoute('/s/short')).toEqual({ page: 'share', token: 'short', embed: false });
    for (const path of ['/s', '/s/', `/s/${token}/other`, '/s/a%2Fb', `/share/${token}`])
      expect(parseRoute(path), path).toEqual({ page: 'not-found' });
  });
});

describe('shareTitleOf', () => {
  it('names a model by its prompt, its photo, or how many photos', () => {
    expect(shareTitleOf({ prompt: '  a red vase ', images: [] })).toBe('“a red vase”');
    expect(shareTitleOf({ prompt: 'x'.repeat(80), images: [] })).toBe(`“${'x'.repeat(57)}…”`);
    const photo = (name?: string) => ({ url: 'u', upload: null, ...(name ? { name } : {}) });
    expect(shareTitleOf({ prompt: null, images: [photo('chair.png')] })).toBe('chair.png');
    expect(shareTitleOf({ prompt: null, images: [photo('front.png'), photo()] })).toBe(
      'front.png + 1',
    );
    expect(shareTitleOf({ prompt: null, images: [photo(), photo(), photo()] })).toBe('3 photos');
    expect(shareTitleOf({ prompt: null, images: [photo()] })).toBe('one photo');
    // A named model is called by its name.
    expect(shareTitleOf({ prompt: 'a red vase', images: [], name: ' Blue teapot ' })).toBe(
      'Blue teapot',
    );
    expect(shareTitleOf({ prompt: 'a red vase', images: [], name: null })).toBe('“a red vase”');
  });
});
