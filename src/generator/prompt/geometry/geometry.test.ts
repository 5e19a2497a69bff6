import { describe, expect, it } from 'vitest';
import {
  arcTube,
  boxUnion,
  capsule,
  cuboid,
  cylinder,
  ellipsoid,
  loft,
  prism,
  roundedBox,
  rotateY,
  scale,
  signedVolume,
  sphere,
  tube,
  type Solid,
} from './index.ts';

const SOLIDS: [string, () => Solid][] = [
  ['cuboid', () => cuboid(0, 0, 0, 1, 2, 3)],
  ['cylinder', () => cylinder(0.5, 0.3, 0, 1)],
  ['sphere', () => sphere(0.5, 1, 2, 3)],
  ['capsule', () => capsule([0, 0, 0], [1, 1, 0], 0.2)],
  ['ellipsoid', () => ellipsoid(1, 0.5, 0.25)],
  [
    'prism',
    () =>
      prism(
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0.5, 0.4],
          [0, 1],
        ],
        0.2,
      ),
  ],
  ['arcTube', () => arcTube(1, 0.1, 0, Math.PI)],
  [
    'tube',
    () =>
      tube(
        [
          [0, 0, 0],
          [0, 1, 0],
          [1, 2, 0],
        ],
        (t) => 0.2 * (1 - t),
      ),
  ],
  [
    'loft',
    () =>
      loft(
        [0, 1, 2].map((y) => [
          [0, y, 0],
          [1, y, 0],
          [1, y, 1],
          [0, y, 1],
        ]),
        [0, 2],
      ),
  ],
  [
    'boxUnion',
    () =>
      boxUnion([
        [0, 0, 0, 2, 1, 1],
        [0, 0, 0, 1, 2, 1],
      ]),
  ],
  ['roundedBox', () => roundedBox(1, 0.5, 0.8)],
  ['a mirrored cuboid', () => scale(rotateY(cuboid(0, 0, 0, 1, 2, 3), 0.3), -1, 1, 1)],
];

describe('the solid kit', () => {
  it.each(SOLIDS)('%s encloses a positive volume and has unit normals', (_, make) => {
    const s = make();
    expect(signedVolume(s.positions, s.indices)).toBeGreaterThan(0);
    for (let v = 0; v < s.normals.length; v += 3)
      expect(Math.hypot(s.normals[v]!, s.normals[v + 1]!, s.normals[v + 2]!)).toBeCloseTo(1, 9);
  });
});
