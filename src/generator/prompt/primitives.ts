/** Templates for plain shapes: ball, cube, dice, crate, cylinder, cone, torus. */
import {
  boxSolid,
  boxUnion,
  cuboid,
  cylinder,
  latheSolid,
  sphere,
  torus,
} from './geometry/index.ts';
import { flatShade, rotateX, rotateY, rotateZ, scale, translate } from './geometry/index.ts';
import type { Box, Solid } from './geometry/index.ts';
import { between, part, type Template } from './template.ts';

const ball: Template = {
  name: 'ball',
  nouns: [
    'ball',
    'sphere',
    'orb',
    'globe',
    'marble',
    'bubble',
    'pearl',
    'moon',
    'planet',
    'saturn',
    'football',
    'basketball',
  ],
  variants: { planet: 'planet', saturn: 'planet' },
  main: 'ball',
  finishes: { ball: 'hashed', rings: { hex: '#d8c8a8', roughness: 0.7 } },
  build({ random, variant }) {
    if (variant === 'planet') {
      const rings = latheSolid(
        [
          { r: 0.5, y: -0.005, crease: true },
          { r: 0.75, y: -0.005, crease: true },
          { r: 0.75, y: 0.005, crease: true },
          { r: 0.5, y: 0.005, crease: true },
        ],
        72,
        true,
      );
      const tilt = between(random, 0.2, 0.5);
      return [
        ...part('ball', sphere(0.38, 0, 0.5, 0, 24, 48)),
        ...part(
          'rings',
          translate(rotateX(rotateZ(rings, tilt), between(random, -0.2, 0.2)), 0, 0.5, 0),
        ),
      ];
    }
    return part('ball', sphere(0.5, 0, 0.5, 0, 24, 48));
  },
};

const cube: Template = {
  name: 'cube',
  nouns: ['cube', 'block', 'brick'],
  main: 'cube',
  finishes: { cube: 'hashed' },
  build() {
    return part('cube', translate(boxSolid(1, 1, 1), 0, 0.5, 0));
  },
};

/** Pip positions (in quarter-face units) for a die face. */
const PIPS: Record<number, [number, number][]> = {
  1: [[0, 0]],
  2: [
    [-1, -1],
    [1, 1],
  ],
  3: [
    [-1, -1],
    [0, 0],
    [1, 1],
  ],
  4: [
    [-1, -1],
    [-1, 1],
    [1, -1],
    [1, 1],
  ],
  5: [
    [-1, -1],
    [-1, 1],
    [0, 0],
    [1, -1],
    [1, 1],
  ],
  6: [
    [-1, -1],
    [-1, 0],
    [-1, 1],
    [1, -1],
    [1, 0],
    [1, 1],
  ],
};

const dice: Template = {
  name: 'dice',
  nouns: ['dice', 'die'],
  main: 'body',
  finishes: { body: { hex: '#f2f2f2', roughness: 0.3 }, pips: { hex: '#1c1c1c', roughness: 0.4 } },
  build() {
    const s = 1;
    const half = s / 2;
    const a = s * 0.25;
    const pips: Solid[] = [];
    // Face value, normal axis, sign; opposite faces add up to seven.
    const faces: [number, 0 | 1 | 2, 1 | -1][] = [
      [1, 1, 1],
      [6, 1, -1],
      [2, 0, 1],
      [5, 0, -1],
      [3, 2, 1],
      [4, 2, -1],
    ];
    for (const [value, axis, sign] of faces) {
      const [u, v] = ([0, 1, 2] as const).filter((k) => k !== axis) as [number, number];
      for (const [pu, pv] of PIPS[value]!) {
        const centre = [0, half, 0];
        centre[axis]! += sign * (half - 0.012);
        centre[u]! += pu * a;
        centre[v]! += pv * a;
        const squash = [1, 1, 1];
        squash[axis] = 0.3;
        const pip = scale(sphere(0.075, 0, 0, 0, 8, 16), squash[0]!, squash[1]!, squash[2]!);
        pips.push(translate(pip, centre[0]!, centre[1]!, centre[2]!));
      }
    }
    return [...part('body', translate(boxSolid(s, s, s), 0, half, 0)), ...part('pips', ...pips)];
  },
};

const crate: Template = {
  name: 'crate',
  nouns: ['crate', 'box', 'package', 'parcel', 'cardboard box'],
  main: 'planks',
  finishes: {
    planks: { hex: '#b5894f', roughness: 0.8 },
    frame: { hex: '#7a5230', roughness: 0.8 },
  },
  build({ random }) {
    const S = 1;
    const h = S / 2;
    const b = between(random, 0.08, 0.11);
    const inner = S - 0.03;
    // The twelve edge beams touch at the corners: one solid, merged where they meet.
    const beams: Box[] = [];
    for (const x of [-1, 1]) {
      for (const y of [-1, 1]) {
        // Edges along z, along x and along y.
        beams.push([x * h, h + y * h, -h, x * (h - b), h + y * (h - b), h]);
        beams.push([-h, h + y * h, x * h, h, h + y * (h - b), x * (h - b)]);
        beams.push([x * h, 0, y * h, x * (h - b), S, y * (h - b)]);
      }
    }
    const frame: Solid[] = [boxUnion(beams)];
    const len = (S - b) * Math.SQRT2 - b;
    const depth = h - 0.015;
    for (const s of [-1, 1]) {
      frame.push(
        translate(
          rotateZ(cuboid(-len / 2, -b * 0.4, -0.01, len / 2, b * 0.4, 0.01), s * (Math.PI / 4)),
          0,
          h,
          s * depth,
        ),
      );
      frame.push(
        translate(
          rotateX(cuboid(-0.01, -b * 0.4, -len / 2, 0.01, b * 0.4, len / 2), s * (Math.PI / 4)),
          s * depth,
          h,
          0,
        ),
      );
    }
    return [
      ...part('planks', translate(boxSolid(inner, inner, inner), 0, h, 0)),
      ...part('frame', ...frame),
    ];
  },
};

const cylinderTemplate: Template = {
  name: 'cylinder',
  nouns: ['cylinder', 'tube', 'pipe', 'pillar', 'column', 'log', 'drum', 'battery', 'tower'],
  main: 'cylinder',
  finishes: { cylinder: 'hashed' },
  build({ random }) {
    const r = between(random, 0.25, 0.35);
    return part('cylinder', cylinder(r, r, 0, 1, 48));
  },
};

const cone: Template = {
  name: 'cone',
  nouns: [
    'cone',
    'pyramid',
    'spike',
    'horn',
    'hat',
    'spire',
    'volcano',
    'party hat',
    'traffic cone',
  ],
  variants: { pyramid: 'pyramid' },
  main: 'cone',
  finishes: { cone: 'hashed' },
  build({ random, variant }) {
    if (variant === 'pyramid') {
      const r = (between(random, 0.85, 1) / 2) * Math.SQRT2;
      return part(
        'cone',
        flatShade(rotateY(cylinder(r, 0, 0, between(random, 0.7, 0.9), 4), Math.PI / 4)),
      );
    }
    const r = between(random, 0.3, 0.45);
    return part('cone', cylinder(r, 0, 0, 1, 48));
  },
};

const torusTemplate: Template = {
  name: 'torus',
  nouns: ['torus', 'hoop', 'halo', 'lifebuoy'],
  main: 'torus',
  finishes: { torus: 'hashed' },
  build({ random }) {
    const tube = between(random, 0.16, 0.2);
    return part('torus', translate(torus(0.5 - tube, tube, 24, 64), 0, tube, 0));
  },
};

export const PRIMITIVES: readonly Template[] = [
  ball,
  cube,
  dice,
  crate,
  cylinderTemplate,
  cone,
  torusTemplate,
];
