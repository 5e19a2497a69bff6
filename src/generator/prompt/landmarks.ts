/** Templates for big things in a landscape, and bits of it: an arched stone bridge, a rock. */
import {
  flatShade,
  polarDirection,
  polarSurface,
  prism,
  cuboid,
  type Solid,
} from './geometry/index.ts';
import { between, part, type Template } from './template.ts';

/** The points of a half circle from angle 0 to π, centred at (cx, cy). */
function halfCircle(cx: number, cy: number, r: number, steps = 16): [number, number][] {
  return Array.from({ length: steps + 1 }, (_, k) => {
    const a = (Math.PI * k) / steps;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)] as [number, number];
  });
}

const bridge: Template = {
  name: 'bridge',
  nouns: ['bridge', 'arch bridge', 'footbridge', 'aqueduct', 'viaduct'],
  main: 'stone',
  finishes: {
    stone: { hex: '#9a9389', roughness: 0.9 },
    arches: { hex: '#7f776c', roughness: 0.9 },
    path: { hex: '#6d655a', roughness: 0.95 },
  },
  build({ random }) {
    const L = 1.2;
    const H = between(random, 0.34, 0.4);
    const W = between(random, 0.26, 0.3);
    const count = random() < 0.5 ? 3 : 2;
    const span = L / count;
    const r = span * between(random, 0.34, 0.4);
    const spring = H * between(random, 0.25, 0.4);
    // The side elevation: a long block with round-topped arches cut from below, extruded across.
    const outline: [number, number][] = [
      [-L / 2, 0],
      [-L / 2, H],
      [L / 2, H],
      [L / 2, 0],
    ];
    const centres = Array.from({ length: count }, (_, i) => -L / 2 + span * (i + 0.5));
    for (const cx of [...centres].reverse())
      outline.push([cx + r, 0], ...halfCircle(cx, spring, r), [cx - r, 0]);
    const stone: Solid[] = [prism(outline, W)];
    // A ring of arch stones standing a little proud of both faces, and the parapets.
    const ring = 0.045;
    const arches = centres.map((cx) =>
      prism(
        [...halfCircle(cx, spring, r + ring), ...halfCircle(cx, spring, r - 0.004).reverse()],
        W + 0.02,
      ),
    );
    for (const side of [-1, 1]) {
      const z0 = side * (W / 2 - 0.03);
      const z1 = side * (W / 2 + 0.004);
      stone.push(cuboid(-L / 2 - 0.005, H - 0.01, z0, L / 2 + 0.005, H + 0.07, z1));
    }
    const path = cuboid(
      -L / 2 + 0.002,
      H - 0.01,
      -W / 2 + 0.02,
      L / 2 - 0.002,
      H + 0.008,
      W / 2 - 0.02,
    );
    return [...part('stone', ...stone), ...part('arches', ...arches), ...part('path', path)];
  },
};

const rock: Template = {
  name: 'rock',
  nouns: ['rock', 'boulder', 'stone', 'pebble', 'meteorite', 'asteroid'],
  main: 'rock',
  finishes: { rock: { hex: '#8d8a84', roughness: 0.9 } },
  build({ random }) {
    // A faceted lump: a coarse sphere, each corner pushed in or out, a few broad bulges, flattened.
    const bulges = Array.from({ length: 4 }, () => {
      const y = between(random, -0.6, 0.9);
      const a = between(random, 0, 2 * Math.PI);
      const s = Math.sqrt(1 - y * y);
      return { d: [s * Math.cos(a), y, s * Math.sin(a)], k: between(random, 0.1, 0.25) };
    });
    const squash = between(random, 0.55, 0.75);
    const lump = polarSurface(8, 12, (u, v) => {
      const d = polarDirection(u, v);
      let r = 0.5 * (1 + between(random, -0.1, 0.1));
      for (const { d: b, k } of bulges)
        r += 0.5 * k * Math.max(0, d[0] * b[0]! + d[1] * b[1]! + d[2] * b[2]!) ** 2;
      return [r * d[0], squash * r * d[1], r * d[2]];
    });
    return part('rock', flatShade(lump));
  },
};

export const LANDMARKS: readonly Template[] = [bridge, rock];
