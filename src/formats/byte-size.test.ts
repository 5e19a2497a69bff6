import { describe, expect, it } from 'vitest';
import { formatBytes } from './byte-size.ts';
import { IMAGE_MAX_BYTES } from './limits.ts';

describe('formatBytes: one way to say a size (SI units, decision 0108)', () => {
  it('counts 1 kB as 1,000 bytes and 1 MB as 1,000,000', () => {
    expect(formatBytes(1_400_000)).toBe('1.4 MB');
    expect(formatBytes(1_000)).toBe('1 kB');
    expect(formatBytes(1_000_000)).toBe('1 MB');
    // A binary megabyte (1,048,576 bytes) is a little over one.
    expect(formatBytes(1024 * 1024)).toBe('1 MB');
    expect(formatBytes(1_468_006)).toBe('1.5 MB');
    expect(formatBytes(2.5e9)).toBe('2.5 GB');
    expect(formatBytes(3.2e12)).toBe('3.2 TB');
  });

  it('shows at most three significant digits, without a trailing .0', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(12_345)).toBe('12.3 kB');
    expect(formatBytes(123_456)).toBe('123 kB');
    expect(formatBytes(831_540)).toBe('832 kB');
    expect(formatBytes(6_310_960)).toBe('6.3 MB');
    expect(formatBytes(21 * 1024 * 1024)).toBe('22 MB');
  });

  it('rounds up into the next unit rather than saying 1000', () => {
    expect(formatBytes(999_960)).toBe('1 MB');
    expect(formatBytes(999_499)).toBe('999 kB');
  });

  it('says "—" for what is not a size', () => {
    expect(formatBytes(-1)).toBe('—');
    expect(formatBytes(Number.NaN)).toBe('—');
    expect(formatBytes(Number.POSITIVE_INFINITY)).toBe('—');
  });

  it('reads the image limit as the round number it is', () => {
    expect(formatBytes(IMAGE_MAX_BYTES)).toBe('20 MB');
  });
});
