import { describe, expect, it } from 'vitest';
import {
  GLB_JSON_START,
  glbExtensionsUsed,
  glbJsonLength,
  hasGlbMagic,
  readGlbHeader,
} from './glb-header.ts';

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

/** A GLB's first bytes: the header, then a first chunk of `type` holding `json`. */
function withChunk(json: string, type = 0x4e4f534a): Uint8Array {
  const body = new TextEncoder().encode(json);
  const bytes = new Uint8Array(GLB_JSON_START + body.byteLength);
  bytes.set(header(0x46546c67, 2, bytes.byteLength));
  const view = new DataView(bytes.buffer);
  view.setUint32(12, body.byteLength, true);
  view.setUint32(16, type, true);
  bytes.set(body, GLB_JSON_START);
  return bytes;
}

describe('the JSON chunk of a GLB', () => {
  it('is as long as its chunk header says, from the first 20 bytes alone', () => {
    const bytes = withChunk('{"asset":{"version":"2.0"}}');
    expect(glbJsonLength(bytes.subarray(0, GLB_JSON_START))).toBe(27);
  });

  it('is unknown for bytes that are too short, not a GLB, or whose first chunk is binary', () => {
    expect(glbJsonLength(new Uint8Array(19))).toBeNull();
    expect(glbJsonLength(withChunk('{}', 0x004e4942))).toBeNull();
    const notGlb = withChunk('{}');
    notGlb[0] = 0;
    expect(glbJsonLength(notGlb)).toBeNull();
  });

  it('names the extensions the model uses, and none for JSON that does not say or does not parse', () => {
    const json = (text: string) => new TextEncoder().encode(text);
    expect(
      glbExtensionsUsed(
        json('{"extensionsUsed":["KHR_draco_mesh_compression","KHR_texture_basisu",7]}'),
      ),
    ).toEqual(['KHR_draco_mesh_compression', 'KHR_texture_basisu']);
    expect(glbExtensionsUsed(json('{"asset":{}}'))).toEqual([]);
    expect(glbExtensionsUsed(json('{"extensionsUsed":"KHR_draco_mesh_compression"}'))).toEqual([]);
    expect(glbExtensionsUsed(json('{not json'))).toEqual([]);
  });
});
