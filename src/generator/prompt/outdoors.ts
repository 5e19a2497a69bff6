/** Templates for outdoor and natural things: tree, house, snowman, cactus, mushroom, apple. */
import { cuboid, cylinder, latheSolid, prism, sphere, torus } from './geometry/index.ts';
import { flatShade, rotateX, rotateY, rotateZ, scale, translate } from './geometry/index.ts';
import type { ProfilePoint, Solid } from './geometry/index.ts';
import { between, part, randomAngle, ribbedColumn, type Part, type Template } from './template.ts';

const BARK = { hex: '#6d4c41', roughness: 0.9 };

/** A cone with a slightly hollow underside, base at y0, apex at y1. */
function layer(radius: number, y0: number, y1: number, segments = 32): Solid {
  return latheSolid(
    [
      { r: 0, y: y0 + 0.06 },
      { r: radius, y: y0, crease: true },
      { r: 0, y: y1 },
    ],
    segments,
  );
}

/** A five-pointed star in the XY plane, centred at the origin. */
function star(outer: number, inner: number, depth: number): Solid {
  const points: [number, number][] = [];
  for (let i = 0; i < 10; i++) {
    const a = Math.PI / 2 + (Math.PI * i) / 5;
    const r = i % 2 === 0 ? outer : inner;
    points.push([r * Math.cos(a), r * Math.sin(a)]);
  }
  return prism(points, depth);
}

const tree: Template = {
  name: 'tree',
  nouns: [
    'tree',
    'pine',
    'fir',
    'spruce',
    'conifer',
    'christmas tree',
    'xmas tree',
    'oak',
    'maple',
    'birch',
    'palm',
    'willow',
    'forest',
  ],
  variants: {
    pine: 'conifer',
    fir: 'conifer',
    spruce: 'conifer',
    conifer: 'conifer',
    'christmas tree': 'christmas',
    'xmas tree': 'christmas',
    oak: 'round',
    maple: 'round',
    birch: 'round',
    palm: 'round',
    willow: 'round',
  },
  main: 'leaves',
  finishes: {
    leaves: { hex: '#2e6b34', roughness: 0.8 },
    trunk: BARK,
    star: { hex: '#e3b23c', metallic: 1, roughness: 0.3 },
    baubles: { hex: '#c62828', roughness: 0.2 },
  },
  build({ random, variant }) {
    const style = variant ?? (random() < 0.5 ? 'conifer' : 'round');
    if (style === 'round') {
      const trunkTop = between(random, 0.45, 0.55);
      const r0 = between(random, 0.25, 0.31);
      const c0 = 1 - r0 - 0.04;
      const low = random() < 0.3;
      const ball = (r: number, x: number, y: number, z: number): Solid =>
        low ? flatShade(sphere(r, x, y, z, 6, 9)) : sphere(r, x, y, z);
      const leaves: Solid[] = [ball(r0, 0, c0, 0)];
      const n = 3 + Math.floor(random() * 3);
      const phase = randomAngle(random);
      for (let k = 0; k < n; k++) {
        const a = phase + (2 * Math.PI * k) / n + between(random, -0.3, 0.3);
        const r = r0 * between(random, 0.55, 0.75);
        const d = r0 * between(random, 0.6, 0.8);
        leaves.push(ball(r, d * Math.cos(a), c0 - between(random, 0.02, 0.14), d * Math.sin(a)));
      }
      return [
        ...part('trunk', cylinder(between(random, 0.07, 0.09), 0.05, 0, trunkTop, 20)),
        ...part('leaves', ...leaves),
      ];
    }
    const trunkH = between(random, 0.16, 0.24);
    const trunkR = between(random, 0.045, 0.065);
    const n = 3 + Math.floor(random() * 3);
    const yb = trunkH;
    const top = variant === 'christmas' ? 0.92 : 1;
    const span = top - yb;
    const h = span * between(random, 0.42, 0.5);
    const step = (span - h) / (n - 1);
    const R0 = between(random, 0.33, 0.42);
    const leaves: Solid[] = [];
    const baubles: Solid[] = [];
    for (let i = 0; i < n; i++) {
      const base = yb + i * step;
      const R = R0 * (1 - (0.55 * i) / Math.max(1, n - 1));
      leaves.push(layer(R, base, base + h));
      if (variant === 'christmas') {
        for (let k = 0; k < 4; k++) {
          const f = between(random, 0.1, 0.35);
          const a = randomAngle(random);
          const radial = R * (1 - f) - 0.012;
          baubles.push(
            sphere(0.028, radial * Math.cos(a), base + f * h, radial * Math.sin(a), 8, 12),
          );
        }
      }
    }
    const parts: Part[] = [
      ...part('trunk', cylinder(trunkR, trunkR, 0, yb + 0.05, 20)),
      ...part('leaves', ...leaves),
    ];
    if (variant === 'christmas') {
      parts.push(...part('star', translate(star(0.085, 0.038, 0.03), 0, top + 0.05, 0)));
      parts.push(...part('baubles', ...baubles));
    }
    return parts;
  },
};

const house: Template = {
  name: 'house',
  nouns: [
    'house',
    'home',
    'cottage',
    'cabin',
    'hut',
    'building',
    'barn',
    'shed',
    'villa',
    'bungalow',
  ],
  main: 'walls',
  finishes: {
    walls: [
      { hex: '#efe4cf' },
      { hex: '#f4e1a4' },
      { hex: '#cfe0ea' },
      { hex: '#f2f2f2' },
      { hex: '#b5523b' },
    ],
    roof: [
      { hex: '#8e3b2e', roughness: 0.8 },
      { hex: '#4a4f57', roughness: 0.8 },
      { hex: '#6d4c41', roughness: 0.8 },
    ],
    door: { hex: '#6b4226', roughness: 0.7 },
    window: { hex: '#a8d4f0', roughness: 0.1 },
    chimney: { hex: '#8a4b3a', roughness: 0.9 },
  },
  build({ random }) {
    const W = between(random, 0.75, 0.85);
    const D = between(random, 0.55, 0.65);
    const Hw = between(random, 0.42, 0.52);
    const Hr = between(random, 0.25, 0.34);
    const o = 0.05;
    const walls = cuboid(-W / 2, 0, -D / 2, W / 2, Hw, D / 2);
    const roof = rotateY(
      prism(
        [
          [-D / 2 - o, Hw - 0.02],
          [D / 2 + o, Hw - 0.02],
          [0, Hw + Hr],
        ],
        W + 2 * o,
      ),
      Math.PI / 2,
    );
    const doorX = between(random, -0.12, 0.12);
    const doorH = Math.min(0.3, Hw * 0.62);
    const door = cuboid(doorX - 0.075, 0, D / 2 - 0.01, doorX + 0.075, doorH, D / 2 + 0.015);
    const wy = Hw * 0.42;
    const wh = Math.min(0.14, Hw * 0.45);
    const windows: Solid[] = [];
    for (const x of [-W * 0.3, W * 0.3]) {
      if (Math.abs(x - doorX) < 0.17) continue;
      windows.push(cuboid(x - 0.07, wy, D / 2 - 0.01, x + 0.07, wy + wh, D / 2 + 0.012));
      windows.push(cuboid(x - 0.07, wy, -D / 2 - 0.012, x + 0.07, wy + wh, -D / 2 + 0.01));
    }
    for (const x of [-W / 2, W / 2])
      windows.push(cuboid(x - 0.012, wy, -0.07, x + 0.012, wy + wh, 0.07));
    const cx = (random() < 0.5 ? -1 : 1) * W * between(random, 0.2, 0.3);
    const cz = -D / 4;
    const chimney = cuboid(
      cx - 0.045,
      Hw,
      cz - 0.045,
      cx + 0.045,
      Hw + Hr + between(random, 0, 0.07),
      cz + 0.045,
    );
    return [
      ...part('walls', walls),
      ...part('roof', roof),
      ...part('door', door),
      ...part('window', ...windows),
      ...part('chimney', chimney),
    ];
  },
};

/** A point on a sphere of radius r centred at c, in direction d (normalised here). */
function onSphere(
  c: [number, number, number],
  r: number,
  d: [number, number, number],
): [number, number, number] {
  const len = Math.hypot(...d);
  return [c[0] + (r * d[0]) / len, c[1] + (r * d[1]) / len, c[2] + (r * d[2]) / len];
}

const snowman: Template = {
  name: 'snowman',
  nouns: ['snowman', 'snowmen', 'snow man', 'snowwoman'],
  main: 'snow',
  finishes: {
    snow: { hex: '#f4f7fb', roughness: 0.9 },
    coal: { hex: '#1c1c1c', roughness: 0.6 },
    carrot: { hex: '#ef6c00', roughness: 0.7 },
    twig: BARK,
    scarf: [{ hex: '#c62828' }, { hex: '#1e5bc6' }, { hex: '#2e7d32' }],
    hat: { hex: '#1c1c1c', roughness: 0.6 },
  },
  features: { hat: true, scarf: true, arms: true },
  featureRoles: { hat: 'hat', scarf: 'scarf', arms: 'twig' },
  build({ random, features }) {
    const r0 = between(random, 0.23, 0.26);
    const r1 = r0 * between(random, 0.68, 0.75);
    const r2 = r1 * between(random, 0.7, 0.78);
    const y0 = r0 * 0.95;
    const y1 = y0 + r0 + r1 - 0.07;
    const y2 = y1 + r1 + r2 - 0.05;
    const snow = [
      sphere(r0, 0, y0, 0, 20, 32),
      sphere(r1, 0, y1, 0, 20, 32),
      sphere(r2, 0, y2, 0, 16, 28),
    ];
    const head: [number, number, number] = [0, y2, 0];
    const hatY = y2 + r2 * 0.75;
    const hat: Solid[] = [
      cylinder(r2 * 1.15, r2 * 1.15, hatY, hatY + 0.02, 32),
      cylinder(r2 * 0.72, r2 * 0.72, hatY, hatY + between(random, 0.12, 0.17), 32),
    ];
    const coal: Solid[] = [
      ...[-1, 1].map((s) =>
        sphere(0.017, ...onSphere(head, r2 * 0.96, [s * 0.38, 0.3, 0.88]), 8, 12),
      ),
      ...[0.35, 0, -0.35].map((f) =>
        sphere(0.02, ...onSphere([0, y1, 0], r1 * 0.97, [0, f, 1]), 8, 12),
      ),
    ];
    const nose = translate(
      rotateX(cylinder(0.025, 0, 0, between(random, 0.1, 0.16), 16), Math.PI / 2),
      0,
      y2 - 0.01,
      r2 * 0.85,
    );
    const twigs = [-1, 1].map((s) => {
      const arm = rotateZ(cylinder(0.012, 0.008, 0, 0.26, 8), -s * between(random, 0.9, 1.2));
      return translate(arm, s * r1 * 0.7, y1 + r1 * 0.25, 0);
    });
    const scarf = translate(torus(r2 * 0.82, 0.035, 12, 36), 0, y1 + r1 * 0.8, 0);
    const parts: Part[] = [
      ...part('snow', ...snow),
      ...part('coal', ...coal),
      ...part('carrot', nose),
    ];
    if (features.has('hat')) parts.push(...part('hat', ...hat));
    if (features.has('arms')) parts.push(...part('twig', ...twigs));
    if (features.has('scarf')) parts.push(...part('scarf', scarf));
    return parts;
  },
};

const cactus: Template = {
  name: 'cactus',
  nouns: ['cactus', 'cacti', 'succulent', 'saguaro'],
  main: 'cactus',
  finishes: {
    cactus: { hex: '#4a8a3c', roughness: 0.7 },
    pot: { hex: '#c1693c', roughness: 0.85 },
    soil: { hex: '#4a3527', roughness: 1 },
    flower: [{ hex: '#ec6fa5' }, { hex: '#f6c915' }, { hex: '#e0301e' }],
  },
  build({ random }) {
    const pot = latheSolid(
      [
        { r: 0, y: 0 },
        { r: 0.16, y: 0, crease: true },
        { r: 0.2, y: 0.2, crease: true },
        { r: 0.22, y: 0.2, crease: true },
        { r: 0.22, y: 0.26, crease: true },
        { r: 0.2, y: 0.26, crease: true },
        { r: 0.195, y: 0.23, crease: true },
        { r: 0, y: 0.23 },
      ],
      40,
    );
    const soil = cylinder(0.198, 0.198, 0.2, 0.24, 40);
    const R = between(random, 0.1, 0.13);
    const H = between(random, 0.66, 0.74);
    const ribs = 7 + Math.floor(random() * 4);
    const body: Solid[] = [translate(ribbedColumn(R, H, ribs, 0.06), 0, 0.2, 0)];
    const arms = 1 + Math.floor(random() * 2);
    const phase = randomAngle(random);
    for (let k = 0; k < arms; k++) {
      const ra = R * between(random, 0.6, 0.7);
      const ya = 0.2 + H * between(random, 0.35, 0.5);
      const ax = R + between(random, 0.08, 0.13);
      const up = between(random, 0.14, 0.24);
      const arm = [
        translate(rotateZ(cylinder(ra, ra, 0, ax, 20), -Math.PI / 2), 0, ya, 0),
        sphere(ra, ax, ya, 0, 12, 20),
        translate(ribbedColumn(ra, up, ribs, 0.06), ax, ya, 0),
      ];
      const angle = phase + Math.PI * k + between(random, -0.4, 0.4);
      body.push(...arm.map((s) => rotateY(s, angle)));
    }
    const parts: Part[] = [...part('pot', pot), ...part('soil', soil), ...part('cactus', ...body)];
    if (random() < 0.5)
      parts.push(...part('flower', flatShade(sphere(0.045, 0, 0.2 + H + 0.01, 0, 6, 10))));
    return parts;
  },
};

const mushroom: Template = {
  name: 'mushroom',
  nouns: ['mushroom', 'toadstool', 'fungus', 'fungi'],
  main: 'cap',
  finishes: {
    cap: { hex: '#c62828', roughness: 0.5 },
    stem: { hex: '#efe6d5', roughness: 0.8 },
    spots: { hex: '#fafafa', roughness: 0.8 },
  },
  build({ random }) {
    const rs = between(random, 0.08, 0.11);
    const hs = between(random, 0.42, 0.52);
    const stemProfile: ProfilePoint[] = [{ r: 0, y: 0 }];
    for (let k = 0; k <= 8; k++) {
      const t = k / 8;
      stemProfile.push({
        r: rs * (1.25 - 0.35 * t + 0.1 * Math.sin(Math.PI * t)),
        y: hs * t,
        ...(k === 0 || k === 8 ? { crease: true } : {}),
      });
    }
    stemProfile.push({ r: 0, y: hs });
    const R = between(random, 0.38, 0.46);
    const capH = Math.min(0.95 - hs, between(random, 0.28, 0.4));
    const yc = hs - 0.06;
    const rim = yc + 0.03;
    const capProfile: ProfilePoint[] = [
      { r: 0, y: yc + 0.05 },
      { r: R * 0.96, y: yc, crease: true },
    ];
    for (let k = 0; k <= 12; k++) {
      const a = (Math.PI / 2) * (k / 12);
      capProfile.push({ r: k === 12 ? 0 : R * Math.cos(a), y: rim + capH * Math.sin(a) });
    }
    const spots: Solid[] = [];
    const n = 6 + Math.floor(random() * 5);
    for (let i = 0; i < n; i++) {
      const th = between(random, 0.25, 1.2);
      const phi = randomAngle(random);
      const p: [number, number, number] = [
        R * Math.cos(th) * Math.cos(phi),
        rim + capH * Math.sin(th),
        R * Math.cos(th) * Math.sin(phi),
      ];
      const nrm = [
        (Math.cos(th) * Math.cos(phi)) / R,
        Math.sin(th) / capH,
        (Math.cos(th) * Math.sin(phi)) / R,
      ];
      const len = Math.hypot(...nrm);
      const r = between(random, 0.05, 0.08);
      spots.push(
        sphere(
          r,
          p[0] - (nrm[0]! / len) * r * 0.7,
          p[1] - (nrm[1]! / len) * r * 0.7,
          p[2] - (nrm[2]! / len) * r * 0.7,
          8,
          12,
        ),
      );
    }
    return [
      ...part('stem', latheSolid(stemProfile, 32)),
      ...part('cap', latheSolid(capProfile, 48)),
      ...part('spots', ...spots),
    ];
  },
};

const apple: Template = {
  name: 'apple',
  nouns: ['apple', 'fruit'],
  main: 'skin',
  finishes: {
    skin: { hex: '#c62828', roughness: 0.35 },
    stem: BARK,
    leaf: { hex: '#3f8a3a', roughness: 0.6 },
  },
  build({ random }) {
    const R = 0.45;
    const squash = between(random, 0.85, 0.95);
    const flare = between(random, 0.06, 0.12);
    const H = 2 * R * squash;
    const profile: ProfilePoint[] = [{ r: 0, y: 0.04 }];
    for (let k = 1; k < 24; k++) {
      const t = (Math.PI * k) / 24;
      profile.push({
        r: R * Math.sin(t) * (1 - flare * Math.cos(t)),
        y: R * squash * (1 - Math.cos(t)),
      });
    }
    profile.push({ r: 0, y: H - 0.06 });
    const stemTop = H + between(random, 0.08, 0.12);
    const tilt = between(random, -0.25, 0.25);
    const stem = translate(
      rotateZ(cylinder(0.018, 0.014, 0, stemTop - H + 0.08, 10), tilt),
      0,
      H - 0.08,
      0,
    );
    const leaf = rotateY(
      translate(
        rotateZ(scale(sphere(1, 0, 0, 0, 8, 14), 0.13, 0.012, 0.055), 0.35),
        0.11,
        H + 0.03,
        0,
      ),
      randomAngle(random),
    );
    return [...part('skin', latheSolid(profile, 48)), ...part('stem', stem), ...part('leaf', leaf)];
  },
};

export const OUTDOORS: readonly Template[] = [tree, house, snowman, cactus, mushroom, apple];
