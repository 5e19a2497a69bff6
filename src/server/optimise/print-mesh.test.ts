import { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { readStl, stlEdgeUse } from '../../testing/stl.ts';
import {
  closeHoles,
  edgeReport,
  encodeStl,
  isWatertight,
  placeOnFloor,
  weldTriangles,
  worldTriangles,
  type IndexedMesh,
} from './print-mesh.ts';

/** A unit cube's 12 triangles, facing out, corners 0–1; `drop` leaves out faces (2 triangles each). */
function cube(drop: number[] = []): Float64Array {
  const v = [
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 0, 1],
    [1, 1, 1],
    [0, 1, 1],
  ];
  const faces = [
    [0, 3, 2, 1], // z = 0, facing −z
    [4, 5, 6, 7], // z = 1
    [0, 1, 5, 4], // y = 0
    [3, 7, 6, 2], // y = 1
    [0, 4, 7, 3], // x = 0
    [1, 2, 6, 5], // x = 1
  ];
  const out: number[] = [];
  faces.forEach(([a, b, c, d], i) => {
    if (drop.includes(i)) return;
    for (const k of [a!, b!, c!, a!, c!, d!]) out.push(...v[k]!);
  });
  return Float64Array.from(out);
}

describe('print mesh', () => {
  it('welds a triangle soup into a closed mesh and knows it is watertight', () => {
    const mesh = weldTriangles(cube());
    expect(mesh.positions.length / 3).toBe(8);
    expect(mesh.indices.length / 3).toBe(12);
    expect(isWatertight(edgeReport(mesh.indices))).toBe(true);
  });

  it('drops collapsed triangles, one of two copies, and both of a pair facing opposite ways', () => {
    const soup = cube();
    const first = Array.from(soup.subarray(0, 9));
    const reversed = [...first.slice(0, 3), ...first.slice(6, 9), ...first.slice(3, 6)];
    const collapsed = [0, 0, 0, 0, 0, 0, 1, 1, 1];
    const wall = [5, 5, 5, 6, 5, 5, 5, 6, 5];
    const wallBack = [5, 5, 5, 5, 6, 5, 6, 5, 5];
    const mesh = weldTriangles(
      Float64Array.from([...soup, ...first, ...collapsed, ...wall, ...wallBack]),
    );
    expect(mesh.indices.length / 3).toBe(12);
    const withReversed = weldTriangles(Float64Array.from([...soup, ...reversed]));
    // The first triangle and its reverse cancel: a hole where it was.
    expect(withReversed.indices.length / 3).toBe(11);
  });

  it('closes holes with fans facing outward', () => {
    const open = weldTriangles(cube([1, 3])); // no top (z = 1) and no y = 1 side: one hole
    expect(edgeReport(open.indices).open).toBeGreaterThan(0);
    const { mesh, holes } = closeHoles(open);
    expect(holes).toBe(1);
    expect(edgeReport(mesh.indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
    const twoHoles = closeHoles(weldTriangles(cube([0, 1])));
    expect(twoHoles.holes).toBe(2);
    expect(isWatertight(edgeReport(twoHoles.mesh.indices))).toBe(true);
    expect(readStl(encodeStl(twoHoles.mesh)).volume).toBeGreaterThan(0);
  });

  it('places a model on the floor at a height, centred', () => {
    const placed = placeOnFloor(
      cube().map((x) => x * 3 + 7),
      0.05,
    );
    const mesh: IndexedMesh = weldTriangles(placed);
    const stl = readStl(encodeStl(mesh));
    expect(stl.min[2]).toBeCloseTo(0, 4);
    expect(stl.max[2]).toBeCloseTo(50, 4); // millimetres
    expect(stl.min[0]).toBeCloseTo(-25, 4);
    expect(stl.max[1]).toBeCloseTo(25, 4);
    expect(() => placeOnFloor(new Float64Array(9), 1)).toThrow(/no height/);
  });

  it('writes Z up: glTF +Y becomes +Z and glTF +Z becomes −Y, facets keep facing out', () => {
    const mesh = weldTriangles(Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const stl = readStl(encodeStl(mesh));
    expect(Array.from(stl.corners)).toEqual([0, 0, 0, 1000, 0, 0, 0, 0, 1000]);
    // The triangle faced +Z in glTF: it faces −Y in the STL.
    expect(Array.from(stl.normals).map((n) => Math.round(n))).toEqual([0, -1, 0]);
    const closed = readStl(encodeStl(weldTriangles(cube())));
    expect(stlEdgeUse(closed)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
    expect(closed.volume).toBeCloseTo(1e9, -3); // 1 m³ in mm³, positive
  });

  it('reads triangles in world space, turning mirrored nodes right way out', () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const prim = doc
      .createPrimitive()
      .setAttribute(
        'POSITION',
        doc.createAccessor().setType('VEC3').setArray(Float32Array.from(cube())).setBuffer(buffer),
      );
    const mesh = doc.createMesh().addPrimitive(prim);
    const scene = doc.createScene();
    scene.addChild(doc.createNode().setMesh(mesh).setTranslation([2, 0, 0]));
    scene.addChild(doc.createNode().setMesh(mesh).setScale([-1, 1, 1]));
    const soup = worldTriangles(doc);
    expect(soup.length).toBe(2 * 12 * 9);
    const welded = weldTriangles(soup);
    expect(edgeReport(welded.indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
    expect(readStl(encodeStl(welded)).volume).toBeCloseTo(2e9, -3);
  });
});
