/** Templates for furniture: chair, stool, table, lamp. */
import {
  cuboid,
  cylinder,
  latheSolid,
  rotateY,
  rotateZ,
  sphere,
  translate,
  torus,
  type ProfilePoint,
  type Solid,
} from './geometry/index.ts';
import { between, part, pick, type Part, type Template } from './template.ts';

const WOOD = { hex: '#9a6b3f', roughness: 0.7 };

const chair: Template = {
  name: 'chair',
  nouns: ['chair', 'armchair', 'throne', 'dining chair', 'rocking chair', 'seat'],
  variants: { armchair: 'arms', throne: 'arms' },
  main: 'frame',
  finishes: {
    frame: WOOD,
    cushion: [{ hex: '#7b2d3b' }, { hex: '#2f4f7f' }, { hex: '#55713f' }],
    castors: { hex: '#1c1c1c', roughness: 0.6 },
  },
  features: { arms: false, wheels: false, cushion: false },
  featureRoles: { cushion: 'cushion', wheels: 'castors' },
  build({ random, variant, features }) {
    const seatH = between(random, 0.42, 0.48);
    const w = between(random, 0.42, 0.5);
    const d = between(random, 0.4, 0.48);
    const t = 0.045;
    const leg = between(random, 0.035, 0.05);
    const top = seatH + between(random, 0.38, 0.52);
    const lx = w / 2 - leg / 2;
    const fz = d / 2 - leg / 2;
    const bz = -d / 2 + leg / 2;
    const post = (x: number, z: number, y1: number): Solid =>
      cuboid(x - leg / 2, 0, z - leg / 2, x + leg / 2, y1, z + leg / 2);
    // With arms, the front legs go on up to hold them (a second post there would share edges).
    const arms = variant === 'arms' || features.has('arms');
    const frontTop = arms ? seatH + 0.23 : seatH - t / 2;
    const frame: Solid[] = [
      post(-lx, fz, frontTop),
      post(lx, fz, frontTop),
      post(-lx, bz, top),
      post(lx, bz, top),
      cuboid(-w / 2, seatH - t, -d / 2, w / 2, seatH, d / 2),
    ];
    // The back, between the rear posts.
    const z0 = -d / 2 + leg * 0.25;
    const z1 = z0 + Math.min(0.022, leg * 0.5);
    const style = pick(random, ['slats', 'spindles', 'panel'] as const);
    if (style === 'panel') {
      frame.push(cuboid(-lx, seatH + 0.08, z0, lx, top - 0.02, z1));
    } else {
      frame.push(cuboid(-lx, top - 0.09, z0, lx, top - 0.01, z1));
      if (style === 'slats') {
        const n = 2 + Math.floor(random() * 2);
        const span = top - 0.09 - (seatH + 0.08);
        for (let i = 0; i < n; i++) {
          const y = seatH + 0.08 + (span * i) / n;
          frame.push(cuboid(-lx, y, z0, lx, y + 0.045, z1));
        }
      } else {
        const n = 3 + Math.floor(random() * 3);
        frame.push(cuboid(-lx, seatH + 0.06, z0, lx, seatH + 0.1, z1));
        for (let i = 1; i <= n; i++) {
          const x = -lx + (2 * lx * i) / (n + 1);
          frame.push(cuboid(x - 0.0125, seatH + 0.09, z0, x + 0.0125, top - 0.08, z1));
        }
      }
    }
    if (random() < 0.6) {
      for (const x of [-lx, lx]) frame.push(cuboid(x - leg / 4, 0.1, bz, x + leg / 4, 0.13, fz));
    }
    if (arms) {
      for (const x of [-lx, lx]) {
        frame.push(cuboid(x - 0.035, seatH + 0.21, bz, x + 0.035, seatH + 0.25, fz + 0.03));
      }
    }
    const parts: Part[] = part('frame', ...frame);
    if (random() < 0.4 || features.has('cushion')) {
      parts.push(
        ...part(
          'cushion',
          cuboid(
            -w / 2 + 0.02,
            seatH - 0.01,
            -d / 2 + 0.05,
            w / 2 - 0.02,
            seatH + 0.05,
            d / 2 - 0.02,
          ),
        ),
      );
    }
    if (!features.has('wheels')) return parts;
    // Castors: the chair rides up on a small wheel under each leg.
    const lift = 0.06;
    const castors: Solid[] = [];
    for (const x of [-lx, lx])
      for (const z of [fz, bz]) {
        castors.push(
          translate(rotateZ(cylinder(0.028, 0.028, -0.018, 0.018, 16), Math.PI / 2), x, 0.028, z),
        );
        castors.push(translate(cylinder(0.008, 0.008, 0.02, lift + 0.01, 8), x, 0, z));
      }
    return [
      ...parts.map((p) => ({ role: p.role, solid: translate(p.solid, 0, lift, 0) })),
      ...part('castors', ...castors),
    ];
  },
};

const stool: Template = {
  name: 'stool',
  nouns: ['stool', 'barstool', 'bar stool', 'footstool'],
  main: 'seat',
  finishes: { seat: WOOD, legs: { hex: '#2b2b2b', metallic: 1, roughness: 0.45 } },
  build({ random }) {
    const hs = between(random, 0.72, 0.85);
    const rs = between(random, 0.17, 0.21);
    const n = random() < 0.5 ? 3 : 4;
    const top = rs * 0.6;
    const bottom = rs * between(random, 1.1, 1.35);
    const lr = 0.018;
    const legTop = hs - 0.04;
    const length = Math.hypot(bottom - top, legTop);
    const tilt = Math.atan2(bottom - top, legTop);
    const legs: Solid[] = [];
    for (let k = 0; k < n; k++) {
      const leg = translate(rotateZ(cylinder(lr, lr, 0, length, 12), tilt), bottom, 0, 0);
      legs.push(rotateY(leg, (2 * Math.PI * k) / n));
    }
    const ringY = hs * between(random, 0.3, 0.4);
    const ringR = bottom - ((bottom - top) * ringY) / legTop;
    legs.push(translate(torus(ringR, 0.012, 12, 48), 0, ringY, 0));
    const seat = latheSolid(
      [
        { r: 0, y: hs - 0.05 },
        { r: rs - 0.01, y: hs - 0.05, crease: true },
        { r: rs, y: hs - 0.04 },
        { r: rs, y: hs - 0.01 },
        { r: rs - 0.01, y: hs },
        { r: 0, y: hs + 0.005 },
      ],
      48,
    );
    return [...part('seat', seat), ...part('legs', ...legs)];
  },
};

const table: Template = {
  name: 'table',
  nouns: ['table', 'desk', 'dining table', 'coffee table', 'kitchen table'],
  main: 'wood',
  finishes: { wood: WOOD },
  build({ random }) {
    const H = between(random, 0.72, 0.78);
    const t = 0.04;
    if (random() < 0.3) {
      // Round pedestal table.
      const R = 0.5;
      return part(
        'wood',
        cylinder(R, R, H - t, H, 64),
        cylinder(0.05, 0.06, 0.04, H - t + 0.005, 24),
        latheSolid(
          [
            { r: 0, y: 0 },
            { r: 0.26, y: 0, crease: true },
            { r: 0.26, y: 0.02, crease: true },
            { r: 0.1, y: 0.06, crease: true },
            { r: 0, y: 0.06 },
          ],
          48,
        ),
      );
    }
    const W = 1;
    const D = between(random, 0.5, 0.7);
    const leg = between(random, 0.045, 0.06);
    const inset = 0.04;
    const lx = W / 2 - inset - leg / 2;
    const lz = D / 2 - inset - leg / 2;
    const solids: Solid[] = [cuboid(-W / 2, H - t, -D / 2, W / 2, H, D / 2)];
    const round = random() < 0.4;
    for (const x of [-lx, lx]) {
      for (const z of [-lz, lz]) {
        solids.push(
          round
            ? translate(cylinder(leg * 0.4, leg * 0.55, 0, H - t + 0.005, 16), x, 0, z)
            : cuboid(x - leg / 2, 0, z - leg / 2, x + leg / 2, H - t + 0.005, z + leg / 2),
        );
      }
    }
    // Apron under the top.
    const a = 0.02;
    solids.push(cuboid(-lx, H - t - 0.08, lz - a / 2, lx, H - t + 0.005, lz + a / 2));
    solids.push(cuboid(-lx, H - t - 0.08, -lz - a / 2, lx, H - t + 0.005, -lz + a / 2));
    solids.push(cuboid(lx - a / 2, H - t - 0.08, -lz, lx + a / 2, H - t + 0.005, lz));
    solids.push(cuboid(-lx - a / 2, H - t - 0.08, -lz, -lx + a / 2, H - t + 0.005, lz));
    return part('wood', ...solids);
  },
};

/** A lampshade: a thin truncated-cone shell, open at both ends. */
function shade(bottom: number, top: number, y0: number, y1: number): Solid {
  const th = 0.008;
  return latheSolid(
    [
      { r: bottom, y: y0, crease: true },
      { r: top, y: y1, crease: true },
      { r: top - th, y: y1, crease: true },
      { r: bottom - th, y: y0, crease: true },
    ],
    48,
    true,
  );
}

const lamp: Template = {
  name: 'lamp',
  nouns: ['lamp', 'lantern', 'floor lamp', 'lampshade', 'table lamp', 'desk lamp', 'bedside lamp'],
  variants: { 'table lamp': 'table', 'desk lamp': 'table', 'bedside lamp': 'table' },
  main: 'shade',
  finishes: {
    shade: { hex: '#f1e3c6', roughness: 0.9 },
    stand: { hex: '#b08d57', metallic: 1, roughness: 0.35 },
    base: 'hashed',
    bulb: { hex: '#fff6d8', roughness: 0.2 },
  },
  build({ random, variant }) {
    if (variant === 'table') {
      const bh = between(random, 0.4, 0.5);
      const belly = between(random, 0.15, 0.2);
      const profile: ProfilePoint[] = [
        { r: 0, y: 0 },
        { r: 0.1, y: 0, crease: true },
      ];
      for (let k = 1; k <= 12; k++) {
        const s = k / 12;
        profile.push({
          r: 0.05 + (belly - 0.05) * Math.sin(Math.PI * (0.15 + 0.85 * s)) ** 1.2 + 0.02,
          y: bh * s,
        });
      }
      profile[profile.length - 1]!.crease = true;
      profile.push({ r: 0, y: bh });
      const y0 = bh + 0.12;
      const y1 = y0 + between(random, 0.32, 0.4);
      return [
        ...part('base', latheSolid(profile, 48)),
        ...part('stand', cylinder(0.012, 0.012, bh - 0.01, y1 + 0.03, 12)),
        ...part('bulb', sphere(0.055, 0, y0 + 0.06, 0)),
        ...part('shade', shade(between(random, 0.26, 0.3), between(random, 0.16, 0.2), y0, y1)),
      ];
    }
    const baseR = between(random, 0.14, 0.18);
    const y0 = between(random, 0.66, 0.72);
    const y1 = 1;
    return [
      ...part(
        'stand',
        latheSolid(
          [
            { r: 0, y: 0 },
            { r: baseR, y: 0, crease: true },
            { r: baseR, y: 0.015 },
            { r: baseR - 0.02, y: 0.035 },
            { r: 0, y: 0.04 },
          ],
          48,
        ),
        cylinder(0.014, 0.014, 0.03, y0 + 0.06, 12),
      ),
      ...part('bulb', sphere(0.05, 0, y0 + 0.1, 0)),
      ...part('shade', shade(between(random, 0.2, 0.24), between(random, 0.12, 0.15), y0, y1)),
    ];
  },
};

export const FURNITURE: readonly Template[] = [chair, stool, table, lamp];
