import { describe, expect, it } from 'vitest';
import { powerOfTwoAtLeast } from './raster.ts';

describe('powerOfTwoAtLeast', () => {
  it('rounds up, so no texture loses detail to reach a power of two', () => {
    expect(powerOfTwoAtLeast(724)).toBe(1024);
    expect(powerOfTwoAtLeast(347)).toBe(512);
    expect(powerOfTwoAtLeast(512)).toBe(512);
    expect(powerOfTwoAtLeast(513)).toBe(1024);
    expect(powerOfTwoAtLeast(1)).toBe(1);
    expect(powerOfTwoAtLeast(0)).toBe(1);
  });
  it('stops at the cap', () => {
    expect(powerOfTwoAtLeast(3000)).toBe(2048);
    expect(powerOfTwoAtLeast(600, 512)).toBe(512);
  });
});
