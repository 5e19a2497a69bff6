import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './address.ts';

describe('sameOriginPath', () => {
  it('opens paths on this site only', () => {
    expect(sameOriginPath('/api/assets/abc.glb')).toBe('/api/assets/abc.glb');
    expect(sameOriginPath('https://example.com/x.glb')).toBeNull();
    expect(sameOriginPath('//example.com/x.glb')).toBeNull();
    expect(sameOriginPath('/\\example.com/x.glb')).toBeNull();
    expect(sameOriginPath('javascript:alert(1)')).toBeNull();
    expect(sameOriginPath('')).toBeNull();
    expect(sameOriginPath(null)).toBeNull();
  });
});
