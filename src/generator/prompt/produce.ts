/** Templates for things that grow: pumpkin (and jack-o'-lantern), pineapple. */
import {
  polarSurface,
  prism,
  rotateX,
  rotateY,
  smoothPath,
  translate,
  tube,
  type Solid,
} from './geometry.ts';
import { between, part, randomAngle, type Part, type Template } from './template.ts';

/** A carved face on the +z side of a round body of radii rx, ry centred at height cy. */
function carvedFace(rx: number, ry: number, cy: number): Solid[] {
  const surfaceZ = (x: number, y: number): number =>
    rx * Math.sqrt(Math.max(0, 1 - (x / rx) ** 2 - ((y - cy) / ry) ** 2));
  const cut = (outline: [number, number][]): Solid => {
    const z = Math.max(...outline.map(([x, y]) => surfaceZ(x, y)));
    const depth = 0.09;
    return translate(prism(outline, depth), 0, 0, z - depth / 2 + 0.006);
  };
  const eye = (x: number): [number, number][] => [
    [x - 0.07, cy + 0.07],
    [x + 0.07, cy + 0.07],
    [x, cy + 0.18],
  ];
  const mouth: [number, number][] = [
    [-0.2, cy - 0.02],
    [-0.12, cy - 0.06],
    [-0.08, cy - 0.03],
    [-0.04, cy - 0.07],
    [0, cy - 0.03],
    [0.04, cy - 0.07],
    [0.08, cy - 0.03],
    [0.12, cy - 0.06],
    [0.2, cy - 0.02],
    [0.12, cy - 0.15],
    [-0.12, cy - 0.15],
  ];
  return [
    cut(eye(-0.12)),
    cut(eye(0.12)),
    cut([
      [-0.04, cy + 0.01],
      [0.04, cy + 0.01],
      [0, cy + 0.07],
    ]),
    cut(mouth),
  ];
}

const pumpkin: Template = {
  name: 'pumpkin',
  nouns: ['pumpkin', 'jack o lantern', 'jackolantern', 'gourd', 'squash', 'halloween pumpkin'],
  variants: {
    'jack o lantern': 'lantern',
    jackolantern: 'lantern',
    'halloween pumpkin': 'lantern',
  },
  main: 'skin',
  finishes: {
    skin: { hex: '#e8751a', roughness: 0.55 },
    stem: { hex: '#6b5a2a', roughness: 0.85 },
    carving: { hex: '#2b1608', roughness: 0.9 },
  },
  features: { face: false },
  build({ random, variant, features }) {
    const ribs = 12;
    const rx = 0.5;
    const ry = between(random, 0.3, 0.36);
    const depth = between(random, 0.06, 0.09);
    const dimple = between(random, 0.22, 0.3);
    // The front (+z, φ = π/2) is the middle of a lobe, so a carved face sits on a lobe.
    const skin = polarSurface(36, 96, (u, v) => {
      const theta = Math.PI * u;
      const phi = 2 * Math.PI * v;
      const lobe = 1 - depth * (1 - Math.abs(Math.cos((ribs * phi) / 2)) ** 0.6);
      const s = Math.sin(theta);
      const r = rx * lobe * s;
      const y = -Math.cos(theta) * ry * (1 - dimple * (1 - s) ** 3);
      return [r * Math.cos(phi), ry + y, r * Math.sin(phi)];
    });
    const top = ry + ry * (1 - dimple);
    const lean = randomAngle(random);
    const stem = tube(
      smoothPath(
        [
          [0, top - 0.04, 0],
          [0, top + 0.06, 0],
          [0.05 * Math.cos(lean), top + 0.13, 0.05 * Math.sin(lean)],
        ],
        6,
      ),
      (t) => 0.045 - 0.015 * t,
      7,
    );
    const parts: Part[] = [...part('skin', skin), ...part('stem', stem)];
    if (features.has('face') || variant === 'lantern')
      parts.push(...part('carving', ...carvedFace(rx * (1 - depth * 0.2), ry, ry)));
    return parts;
  },
};

/** A flat, pointed leaf standing up from the origin (in the XY plane). */
function bladeLeaf(width: number, length: number): Solid {
  return prism(
    [
      [-width / 2, 0],
      [width / 2, 0],
      [width * 0.3, length * 0.6],
      [0, length],
      [-width * 0.3, length * 0.6],
    ],
    0.012,
  );
}

const pineapple: Template = {
  name: 'pineapple',
  nouns: ['pineapple', 'ananas'],
  main: 'fruit',
  finishes: {
    fruit: { hex: '#c8912e', roughness: 0.7 },
    crown: { hex: '#3f7d3a', roughness: 0.6 },
  },
  build({ random }) {
    const rx = between(random, 0.19, 0.22);
    const ry = between(random, 0.27, 0.31);
    // Diamond-shaped bumps: two families of spirals crossing.
    const fruit = polarSurface(40, 64, (u, v) => {
      const theta = Math.PI * u;
      const phi = 2 * Math.PI * v;
      const bump =
        0.045 * Math.max(0, Math.cos(8 * phi + 9 * theta) * Math.cos(8 * phi - 9 * theta));
      const s = Math.sin(theta);
      const r = rx * (s + bump * s);
      return [r * Math.cos(phi), ry - ry * Math.cos(theta) * (1 + bump * 0.3), r * Math.sin(phi)];
    });
    const top = 2 * ry;
    const leaves: Solid[] = [];
    const tiers: [number, number, number, number][] = [
      // count, tilt, length, width
      [6, 0.18, 0.34, 0.06],
      [8, 0.5, 0.3, 0.065],
      [9, 0.85, 0.22, 0.06],
    ];
    for (const [k, [count, tilt, length, width]] of tiers.entries()) {
      const phase = randomAngle(random);
      for (let i = 0; i < count; i++) {
        const leaf = rotateX(bladeLeaf(width, length * between(random, 0.85, 1.1)), tilt);
        const placed = translate(leaf, 0, top - 0.05 - 0.015 * k, 0.02 + 0.015 * k);
        leaves.push(rotateY(placed, phase + (2 * Math.PI * i) / count));
      }
    }
    return [...part('fruit', fruit), ...part('crown', ...leaves)];
  },
};

export const PRODUCE: readonly Template[] = [pumpkin, pineapple];
