import { describe, expect, it } from 'vitest';
import { readGlbHeader } from './glb-header.ts';

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
});
