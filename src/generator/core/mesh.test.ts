import { describe, expect, it } from 'vitest';
import { computeVertexNormals, smoothVertexNormals } from './mesh.ts';

describe('smoothVertexNormals', () => {
  it('averages the faces around a vertex by area, to unit length', () => {
    // Two triangles of a unit square in the XY plane, and one tilted up from its edge.
    const positions = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1];
    const normals = smoothVertexNormals(positions, [0, 1, 2, 0, 2, 3, 1, 4, 2]);
    expect([...normals.subarray(0, 3)]).toEqual([0, 0, 1]);
    for (let v = 0; v < normals.length; v += 3)
      expect(Math.hypot(normals[v]!, normals[v + 1]!, normals[v + 2]!)).toBeCloseTo(1, 12);
  });

  it('gives a vertex whose faces cancel out, or that no face uses, the fallback (never zero)', () => {
    // The same triangle twice, once each way round; vertex 3 is in no triangle.
    const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 5, 5];
    const normals = smoothVertexNormals(positions, [0, 1, 2, 0, 2, 1], [0, 1, 0]);
    expect([...normals]).toEqual([0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0]);
  });

  it('computeVertexNormals is the same in float32', () => {
    const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0.3];
    expect(computeVertexNormals(positions, [0, 1, 2])).toEqual(
      Float32Array.from(smoothVertexNormals(positions, [0, 1, 2])),
    );
  });
});
