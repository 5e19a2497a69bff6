/** Templates for things about the house: teapot (and kettle), treasure chest. */
import {
  arcTube,
  bezier,
  cuboid,
  cylinder,
  latheSolid,
  prism,
  sphere,
  tube,
} from './geometry/index.ts';
import { rotateX, rotateY, rotateZ, scale, translate } from './geometry/index.ts';
import type { ProfilePoint, Solid } from './geometry/index.ts';
import { between, handle, part, type Part, type Template } from './template.ts';

const SEGMENTS = 48;

/** An ellipse's profile from angle a0 to a1 (radians from the equator), centred at height cy. */
function ellipseProfile(
  rx: number,
  ry: number,
  cy: number,
  a0: number,
  a1: number,
  steps: number,
): ProfilePoint[] {
  return Array.from({ length: steps + 1 }, (_, k) => {
    const a = a0 + ((a1 - a0) * k) / steps;
    return { r: rx * Math.cos(a), y: cy + ry * Math.sin(a) };
  });
}

const teapot: Template = {
  name: 'teapot',
  nouns: ['teapot', 'tea pot', 'kettle', 'tea kettle', 'coffee pot', 'coffeepot'],
  variants: { kettle: 'kettle', 'tea kettle': 'kettle' },
  main: 'body',
  finishes: {
    body: [
      { hex: '#f4f1ea', roughness: 0.2 },
      { hex: '#2f5da8', roughness: 0.25 },
      { hex: '#9cc3a6', roughness: 0.25 },
      { hex: '#6b3a22', roughness: 0.2 },
      { hex: '#b23a30', roughness: 0.3 },
      { hex: '#efe3c2', roughness: 0.2 },
    ],
    handle: 'main',
    lid: 'main',
  },
  features: { spout: true, handle: true, lid: true },
  featureRoles: { handle: 'handle', lid: 'lid', spout: 'body' },
  build({ random, variant, features }) {
    const kettle = variant === 'kettle';
    // Body: a squat ellipsoid cut flat at the foot and at the opening (a tall one for a kettle).
    const rx = between(random, 0.28, 0.32);
    const ry = kettle ? between(random, 0.27, 0.3) : between(random, 0.2, 0.23);
    const cy = ry * 0.92;
    const a0 = -Math.asin(cy / ry);
    const top = kettle ? 0.8 : between(random, 0.78, 0.88);
    const a1 = Math.asin(top);
    const foot = rx * Math.cos(a0);
    const opening = rx * Math.cos(a1);
    const yTop = cy + ry * Math.sin(a1);
    const body: ProfilePoint[] = [
      { r: 0, y: 0 },
      { r: foot * 0.92, y: 0, crease: true },
      { r: foot, y: 0.012, crease: true },
      ...ellipseProfile(rx, ry, cy, a0 + 0.05, a1, 20),
    ];
    body[body.length - 1]!.crease = true;
    body.push({ r: 0, y: yTop });
    const radiusAt = (y: number): number => rx * Math.sqrt(Math.max(0, 1 - ((y - cy) / ry) ** 2));
    const parts: Part[] = part('body', latheSolid(body, SEGMENTS));

    if (features.has('lid')) {
      const lidH = between(random, 0.05, 0.08);
      const lid: ProfilePoint[] = [
        { r: 0, y: yTop - 0.02 },
        { r: opening + 0.008, y: yTop - 0.02, crease: true },
        { r: opening + 0.012, y: yTop + 0.008, crease: true },
      ];
      for (let k = 1; k <= 8; k++) {
        const a = (Math.PI / 2) * (k / 8);
        lid.push({
          r: k === 8 ? 0 : (opening + 0.004) * Math.cos(a),
          y: yTop + 0.008 + lidH * Math.sin(a),
        });
      }
      const knob = sphere(between(random, 0.028, 0.036), 0, yTop + 0.008 + lidH + 0.018, 0, 10, 16);
      parts.push(...part('lid', latheSolid(lid, SEGMENTS), knob));
    }
    if (features.has('spout')) {
      // From inside the lower body, out and up to a tip as high as the opening.
      const y0 = cy - ry * 0.35;
      const start: [number, number, number] = [radiusAt(y0) - 0.06, y0, 0];
      const reach = kettle ? between(random, 0.13, 0.16) : between(random, 0.16, 0.2);
      const tip: [number, number, number] = [rx + reach, yTop - (kettle ? 0.05 : 0.03), 0];
      const bend: [number, number, number] = [rx + reach * 0.35, y0 + 0.03, 0];
      const r0 = between(random, 0.07, 0.08);
      const r1 = between(random, 0.032, 0.038);
      parts.push(
        ...part(
          'body',
          tube(bezier(start, bend, tip, 16), (t) => r0 + (r1 - r0) * Math.sqrt(t), 16),
        ),
      );
    }
    if (features.has('handle')) {
      if (kettle) {
        // A bail handle arching over the lid, from one side of the shoulder to the other.
        const y = cy + ry * 0.55;
        const half = radiusAt(y) - 0.025;
        const arch = scale(
          arcTube(half, 0.02, 0.02, Math.PI - 0.02, 20, 10),
          1,
          between(random, 1.05, 1.3),
          1,
        );
        parts.push(...part('handle', translate(rotateY(arch, Math.PI / 2), 0, y, 0)));
      } else {
        const yLow = cy - ry * 0.35;
        const yHigh = cy + ry * 0.55;
        const ring = handle(
          [radiusAt(yLow) - 0.03, yLow],
          [radiusAt(yHigh) - 0.03, yHigh],
          between(random, 0.14, 0.18),
          0.026,
        );
        parts.push(...part('handle', scale(ring, -1, 1, 1)));
      }
    }
    return parts;
  },
};

/** A half-cylinder lid along x: radius r, length l, its flat side at height y. */
function barrelLid(r: number, length: number, y: number, steps = 24): Solid {
  const outline: [number, number][] = Array.from({ length: steps + 1 }, (_, k) => {
    const a = (Math.PI * k) / steps;
    return [r * Math.cos(a), y + r * Math.sin(a)];
  });
  return rotateY(prism(outline, length), Math.PI / 2);
}

const chest: Template = {
  name: 'chest',
  nouns: ['chest', 'treasure chest', 'treasure box', 'coffer', 'trunk', 'pirate chest'],
  main: 'wood',
  finishes: {
    wood: [
      { hex: '#8a5a34', roughness: 0.75 },
      { hex: '#6b3f22', roughness: 0.7 },
      { hex: '#a0693a', roughness: 0.75 },
    ],
    bands: { hex: '#3d3d3d', metallic: 1, roughness: 0.5 },
    lock: { hex: '#e3b23c', metallic: 1, roughness: 0.3 },
  },
  features: { handle: true },
  featureRoles: { handle: 'bands' },
  build({ random, features }) {
    const W = 1;
    const D = between(random, 0.52, 0.6);
    const H = between(random, 0.36, 0.42);
    const R = D / 2;
    const wood: Solid[] = [
      cuboid(-W / 2, 0, -D / 2, W / 2, H, D / 2),
      // The lid overhangs the body a little and starts just below its top: no shared edges.
      barrelLid(R + 0.006, W + 0.012, H - 0.006),
    ];
    const bands: Solid[] = [];
    const bandW = 0.07;
    const xs = [-W / 2 + between(random, 0.14, 0.2), W / 2 - between(random, 0.14, 0.2)];
    for (const x of xs) {
      bands.push(
        translate(
          cuboid(-bandW / 2, 0, -D / 2 - 0.012, bandW / 2, H - 0.003, D / 2 + 0.012),
          x,
          0,
          0,
        ),
        translate(barrelLid(R + 0.02, bandW, H - 0.012), x, 0, 0),
      );
    }
    // A rim where the lid meets the body.
    bands.push(
      cuboid(-W / 2 - 0.008, H - 0.035, -D / 2 - 0.008, W / 2 + 0.008, H + 0.004, D / 2 + 0.008),
    );
    if (features.has('handle')) {
      for (const side of [-1, 1]) {
        const ring = arcTube(0.06, 0.012, Math.PI + 0.25, 2 * Math.PI - 0.25, 12, 8);
        bands.push(translate(rotateY(ring, Math.PI / 2), side * (W / 2 + 0.004), H * 0.72, 0));
      }
    }
    const lockY = H - 0.02;
    const lock: Solid[] = [
      cuboid(-0.06, lockY - 0.1, D / 2 + 0.005, 0.06, lockY + 0.06, D / 2 + 0.03),
      translate(
        rotateX(cylinder(0.022, 0.022, 0, 0.02, 16), Math.PI / 2),
        0,
        lockY - 0.025,
        D / 2 + 0.02,
      ),
    ];
    return [...part('wood', ...wood), ...part('bands', ...bands), ...part('lock', ...lock)];
  },
};

/** A guitar body's outline: a lower and an upper bout (circles) meeting at a waist; base at y = 0. */
function guitarOutline(
  lower: number,
  upper: number,
): { outline: [number, number][]; upperY: number } {
  const c1 = lower;
  const c2 = c1 + 0.62 * (lower + upper);
  const top = c2 + upper;
  const half = (y: number): number =>
    Math.max(
      Math.sqrt(Math.max(0, lower * lower - (y - c1) ** 2)),
      Math.sqrt(Math.max(0, upper * upper - (y - c2) ** 2)),
    );
  const steps = 48;
  const side: [number, number][] = [];
  for (let k = 1; k < steps; k++) {
    const y = (top * k) / steps;
    side.push([half(y), y]);
  }
  return {
    outline: [
      [0, 0],
      ...side,
      [0, top],
      ...side.map(([x, y]) => [-x, y] as [number, number]).reverse(),
    ],
    upperY: c2,
  };
}

const guitar: Template = {
  name: 'guitar',
  nouns: ['guitar', 'acoustic guitar', 'electric guitar', 'bass guitar', 'ukulele'],
  variants: { 'electric guitar': 'electric', 'bass guitar': 'electric' },
  main: 'body',
  finishes: {
    body: [
      { hex: '#d9a066', roughness: 0.3 },
      { hex: '#c98b4a', roughness: 0.3 },
      { hex: '#8a3b12', roughness: 0.3 },
      { hex: '#a3261e', roughness: 0.3 },
    ],
    neck: { hex: '#8a5a34', roughness: 0.6 },
    fretboard: { hex: '#2b1a10', roughness: 0.6 },
    metal: { hex: '#d9dde2', metallic: 1, roughness: 0.25 },
    hole: { hex: '#140c06', roughness: 0.9 },
  },
  build({ random, variant }) {
    const electric = variant === 'electric';
    const lower = electric ? 0.18 : between(random, 0.2, 0.22);
    const upper = electric ? 0.145 : lower * between(random, 0.72, 0.78);
    const { outline, upperY } = guitarOutline(lower, upper);
    const bodyTop = Math.max(...outline.map(([, y]) => y));
    const depth = electric ? 0.05 : 0.1;
    const front = depth / 2;
    const parts: Part[] = part('body', prism(outline, depth));
    const neckTop = 0.94;
    const nut = neckTop;
    parts.push(
      ...part(
        'neck',
        cuboid(-0.028, bodyTop - 0.06, -0.015, 0.028, neckTop, front - 0.004),
        cuboid(-0.042, neckTop - 0.005, -0.01, 0.042, 1.08, front - 0.012),
      ),
    );
    const holeY = upperY - upper * 0.15;
    const fretboardBottom = electric ? upperY : holeY + 0.075;
    const fret: Solid[] = [
      cuboid(-0.031, fretboardBottom, front - 0.006, 0.031, nut, front + 0.008),
    ];
    // The bridge.
    const bridgeY = lower * 0.65;
    fret.push(cuboid(-0.075, bridgeY - 0.018, front - 0.004, 0.075, bridgeY + 0.018, front + 0.01));
    parts.push(...part('fretboard', ...fret));
    const metal: Solid[] = [];
    for (let k = 1; k <= 14; k++) {
      const y = nut - (nut - fretboardBottom) * (1 - 0.5 ** (k / 7)) * 1.9;
      if (y < fretboardBottom + 0.01) break;
      metal.push(cuboid(-0.031, y - 0.002, front + 0.006, 0.031, y + 0.002, front + 0.011));
    }
    // Strings from the bridge to the nut, and tuning pegs on the headstock.
    for (let k = 0; k < 6; k++) {
      const s = (k - 2.5) / 2.5;
      metal.push(
        tube(
          [
            [s * 0.026, bridgeY, front + 0.013],
            [s * 0.022, nut + 0.005, front + 0.013],
          ],
          0.0015,
          4,
        ),
      );
    }
    for (const side of [-1, 1]) {
      for (let k = 0; k < 3; k++) {
        const y = neckTop + 0.03 + 0.04 * k;
        metal.push(
          translate(
            rotateZ(cylinder(0.008, 0.008, 0.03, 0.07, 8), -side * (Math.PI / 2)),
            0,
            y,
            0.005,
          ),
        );
      }
    }
    parts.push(...part('metal', ...metal));
    if (electric) {
      const pickups = [bridgeY + 0.06, bridgeY + 0.13].map((y) =>
        cuboid(-0.045, y - 0.015, front - 0.004, 0.045, y + 0.015, front + 0.01),
      );
      parts.push(...part('hole', ...pickups));
    } else {
      parts.push(
        ...part(
          'hole',
          translate(
            rotateX(cylinder(0.055, 0.055, 0, 0.012, 32), Math.PI / 2),
            0,
            holeY,
            front - 0.009,
          ),
        ),
      );
    }
    return parts;
  },
};

export const HOUSEHOLD: readonly Template[] = [teapot, chest, guitar];
