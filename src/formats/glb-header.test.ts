import { describe, expect, it } from 'vitest';
import { hasGlbMagic, readGlbHeader } from './glb-header.ts';

function header(magic: number, version: number, length: number): Uint8Array {
  const bytes = new Uint8Array(12);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, magic, true);
  view.setUint32(4, version, true);
  view.setUint32(8, length, true);
  return bytes;
}

describe('readGlbHeader', () => {
  it('reads version 2 and the declared length', () => {
    expect(readGlbHeader(header(0x46546c67, 2, 1234))).toEqual({
      ok: true,
      version: 2,
      length: 1234,
    });
  });

  it.each([
    ['too_short', new Uint8Array(11)],
    ['not_glb', header(0x12345678, 2, 100)],
    ['bad_version', header(0x46546c67, 1, 100)],
    ['bad_length', header(0x46546c67, 2, 11)],
  ])('refuses %s', (problem, bytes) => {
    const h = readGlbHeader(bytes);
    expect(h.ok).toBe(false);
    if (!h.ok) expect(h.problem).toBe(problem);
  });

  it('says which version a bad one is', () => {
    expect(readGlbHeader(header(0x46546c67, 1, 100))).toMatchObject({
      problem: 'bad_version',
      version: 1,
    });
  });
});

describe('hasGlbMagic', () => {
  it('is true for bytes that start with glTF, however short', () => {
    expect(hasGlbMagic(header(0x46546c67, 2, 100).subarray(0, 4))).toBe(true);
    expect(hasGlbMagic(header(0x46546c67, 1, 0))).toBe(true);
  });

  it('is false for other bytes and for fewer than four', () => {
    expect(hasGlbMagic(header(0x12345678, 2, 100))).toBe(false);
    expect(hasGlbMagic(new TextEncoder().encode('glT'))).toBe(false);
  });

  it('reads at the view, not the start of its buffer', () => {
    const bytes = new Uint8Array(16);
    bytes.set(header(0x46546c67, 2, 12), 4);
    expect(hasGlbMagic(bytes.subarray(4))).toBe(true);
  });
});
