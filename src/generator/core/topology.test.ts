import { describe, expect, it } from 'vitest';
import { badEdgeCount } from './topology.ts';
import { wellComposed } from '../views/visual-hull.ts';
import { surfaceNets } from './surface-nets.ts';

/** A closed tetrahedron, wound outward. */
const TETRA = [0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2];

describe('badEdgeCount', () => {
  it('is 0 for a closed mesh, and counts open and over-shared edges', () => {
    expect(badEdgeCount(TETRA)).toBe(0);
    expect(badEdgeCount(TETRA.slice(0, 9))).toBe(3); // one face missing: its three edges open
    // Two tetrahedra sharing the edge 0–1: that edge is used by four faces.
    const second = TETRA.map((v) => (v < 2 ? v : v + 2));
    expect(badEdgeCount([...TETRA, ...second])).toBe(1);
  });
});

describe('wellComposed', () => {
  it('bridges diagonal-only contacts, so surface nets over the hull are edge-manifold', () => {
    // Two voxels touching along an edge only (a staircase of thin parts): surface nets give one
    // vertex per cell, and the shared edge becomes non-manifold.
    const n = 5;
    const field = new Float32Array(n * n * n).fill(-1);
    const at = (i: number, j: number, k: number) => i + n * (j + n * k);
    field[at(1, 1, 2)] = 1;
    field[at(2, 2, 2)] = 1;
    expect(badEdgeCount(surfaceNets(field, n, n, n).indices)).toBeGreaterThan(0);
    // The same contact in a plane (x, y) made well-composed, extruded over z = 2.
    const plane = new Float32Array(n * n).fill(-1);
    plane[1 * n + 1] = 1;
    plane[2 * n + 2] = 1;
    wellComposed(plane, n, n, 0.5);
    const raised = [...plane].filter((v) => v > 0).length;
    expect(raised).toBe(3);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) field[at(i, j, 2)] = plane[j * n + i]!;
    expect(badEdgeCount(surfaceNets(field, n, n, n).indices)).toBe(0);
  });
});
