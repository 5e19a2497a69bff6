/** Templates for things that grow: pumpkin (and jack-o'-lantern), pineapple. */
import {
  cylinder,
  latheSolid,
  polarSurface,
  prism,
  rotateZ,
  rotateX,
  rotateY,
  smoothPath,
  translate,
  tube,
  type ProfilePoint,
  type Solid,
} from './geometry/index.ts';
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

/** A lathe profile from a radius function over height h (closed on the axis at both ends). */
function roundProfile(h: number, radius: (t: number) => number, steps = 24): ProfilePoint[] {
  return Array.from({ length: steps + 1 }, (_, k) => {
    const t = k / steps;
    return { r: k === 0 || k === steps ? 0 : radius(t), y: h * t };
  });
}

const fruit: Template = {
  name: 'fruit',
  nouns: ['orange', 'lemon', 'lime', 'pear', 'peach', 'plum', 'tomato', 'tangerine', 'mandarin'],
  variants: {
    orange: 'orange',
    tangerine: 'orange',
    mandarin: 'orange',
    lemon: 'lemon',
    lime: 'lime',
    pear: 'pear',
    peach: 'peach',
    plum: 'peach',
    tomato: 'tomato',
  },
  main: 'skin',
  finishes: {
    skin: { hex: '#f08a1c', roughness: 0.55 },
    stem: { hex: '#5b4a2a', roughness: 0.85 },
    leaf: { hex: '#3f8a3a', roughness: 0.6 },
  },
  variantFinishes: {
    lemon: { skin: { hex: '#f2d43a', roughness: 0.5 } },
    lime: { skin: { hex: '#7cb342', roughness: 0.5 } },
    pear: { skin: { hex: '#b9c43e', roughness: 0.5 } },
    peach: { skin: { hex: '#f4a27a', roughness: 0.7 } },
    tomato: { skin: { hex: '#d32f1f', roughness: 0.25 } },
  },
  build({ random, variant }) {
    const parts: Part[] = [];
    const leafAt = (y: number): Solid =>
      translate(
        rotateZ(
          rotateX(
            prism(
              [
                [0, 0],
                [0.06, 0.05],
                [0.16, 0.02],
                [0.06, -0.03],
              ],
              0.01,
            ),
            Math.PI / 2,
          ),
          0.2,
        ),
        0.01,
        y,
        0,
      );
    if (variant === 'lemon' || variant === 'lime') {
      // Lying on its side, pointed at both ends.
      const L = 0.5;
      const R = between(random, 0.3, 0.34);
      const body = latheSolid(
        roundProfile(2 * L, (t) => R * Math.sin(Math.PI * t) ** 0.5, 32),
        40,
      );
      parts.push(...part('skin', translate(rotateZ(body, -Math.PI / 2), -L, R, 0)));
      return parts;
    }
    if (variant === 'pear') {
      const H = 0.85;
      const body = latheSolid(
        roundProfile(
          H,
          (t) => {
            const bulb = 0.3 * Math.sin(Math.PI * Math.min(1, t / 0.72)) ** 0.45;
            const neck =
              0.11 * Math.sin(Math.PI * Math.min(1, Math.max(0, (t - 0.35) / 0.65))) ** 0.6;
            return Math.max(bulb, neck, 0.01);
          },
          32,
        ),
        40,
      );
      parts.push(...part('skin', body));
      parts.push(
        ...part(
          'stem',
          tube(
            [
              [0, H - 0.03, 0],
              [0.02, H + 0.08, 0.01],
            ],
            0.014,
            8,
          ),
        ),
      );
      parts.push(...part('leaf', leafAt(H + 0.03)));
      return parts;
    }
    if (variant === 'tomato') {
      const R = 0.5;
      const skin = polarSurface(24, 64, (u, v) => {
        const theta = Math.PI * u;
        const phi = 2 * Math.PI * v;
        const s = Math.sin(theta);
        const r = R * s * (1 - 0.04 * (1 - Math.abs(Math.cos(3 * phi))));
        return [
          r * Math.cos(phi),
          0.36 - 0.36 * Math.cos(theta) * (1 - 0.2 * (1 - s) ** 2),
          r * Math.sin(phi),
        ];
      });
      const calyx: Solid[] = [];
      for (let k = 0; k < 5; k++) {
        const a = (2 * Math.PI * k) / 5;
        calyx.push(
          rotateY(
            translate(
              rotateX(
                prism(
                  [
                    [-0.025, 0],
                    [0.025, 0],
                    [0, 0.16],
                  ],
                  0.012,
                ),
                Math.PI / 2 - 0.15,
              ),
              0,
              0.69,
              0.01,
            ),
            a,
          ),
        );
      }
      parts.push(
        ...part('skin', skin),
        ...part('leaf', ...calyx, cylinder(0.02, 0.015, 0.66, 0.76, 8)),
      );
      return parts;
    }
    // Orange and peach: round, a little flattened; an orange's skin is dimpled.
    const R = 0.5;
    const dimples = variant === 'orange';
    const skin = polarSurface(32, 48, (u, v) => {
      const theta = Math.PI * u;
      const phi = 2 * Math.PI * v;
      const d = dimples ? 1 + 0.005 * Math.cos(31 * phi) * Math.cos(27 * theta) : 1;
      const r = R * Math.sin(theta) * d;
      return [r * Math.cos(phi), 0.45 * (1 - Math.cos(theta)) * d, r * Math.sin(phi)];
    });
    parts.push(...part('skin', skin));
    parts.push(...part('stem', cylinder(0.022, 0.018, 0.86, 0.93, 8)));
    if (variant === 'peach') parts.push(...part('leaf', leafAt(0.91)));
    return parts;
  },
};

export const PRODUCE: readonly Template[] = [pumpkin, pineapple, fruit];
