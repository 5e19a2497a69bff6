import { describe, expect, it } from 'vitest';
import { parseRoute } from '../../lib/router.ts';

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
