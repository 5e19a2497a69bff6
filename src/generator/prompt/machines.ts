/** Templates for machines and craft: robot, bicycle, fire extinguisher, sailing ship. */
import {
  along,
  capsule,
  cuboid,
  cylinder,
  ellipsoid,
  latheSolid,
  loft,
  placeIn,
  prism,
  rotateX,
  rotateZ,
  roundedBox,
  smoothPath,
  sphere,
  torus,
  translate,
  tube,
  type ProfilePoint,
  type Solid,
  type Vec3,
} from './geometry/index.ts';
import { between, part, type Part, type Template } from './template.ts';

/** A tyre (a torus) of outer radius r and tube t in the XY plane, axle along z, at c. */
function tyreAt(c: Vec3, r: number, t: number, segments = 40): Solid {
  return translate(rotateX(torus(r - t, t, 12, segments), Math.PI / 2), ...c);
}

/** A disc (a short cylinder) with its axis along z, centred at c. */
function discZ(c: Vec3, r: number, thickness: number, segments = 24): Solid {
  return translate(
    rotateX(cylinder(r, r, -thickness / 2, thickness / 2, segments), Math.PI / 2),
    ...c,
  );
}

/** A tube between two points ending inside the joints there (radius r, flat ends). */
function strut(a: Vec3, b: Vec3, r: number, sides = 10): Solid {
  return tube([a, b], r, sides);
}

const robot: Template = {
  name: 'robot',
  nouns: ['robot', 'android', 'droid', 'bot', 'automaton', 'cyborg', 'mech', 'robo'],
  main: 'body',
  finishes: {
    body: [
      { hex: '#c9ccd1', metallic: 1, roughness: 0.3 },
      { hex: '#f2f2f2', roughness: 0.35 },
      { hex: '#c62828', roughness: 0.4 },
      { hex: '#1e5bc6', roughness: 0.4 },
      { hex: '#f6c915', roughness: 0.4 },
    ],
    joints: { hex: '#3a3a3a', metallic: 1, roughness: 0.45 },
    eyes: { hex: '#5fd3f3', roughness: 0.1 },
    accent: [{ hex: '#ef6c00' }, { hex: '#1f9d63' }, { hex: '#1a2a6c' }, { hex: '#c2185b' }],
    lights: { hex: '#e0301e', roughness: 0.2 },
    tyre: { hex: '#1c1c1c', roughness: 0.9 },
    wings: { hex: '#9aa0a6', metallic: 1, roughness: 0.35 },
  },
  features: { legs: true, arms: true, antenna: true, wheels: false, wings: false },
  featureRoles: { wheels: 'tyre', wings: 'wings', arms: 'body', legs: 'body', antenna: 'lights' },
  build({ random, features }) {
    const body: Solid[] = [];
    const joints: Solid[] = [];
    const parts: Part[] = [];
    const onWheels = features.has('wheels') || !features.has('legs');
    // Hips at y0: legs and feet below, or a wheeled base.
    const y0 = 0.3;
    const hipX = between(random, 0.09, 0.11);
    if (onWheels) {
      const tyres: Solid[] = [];
      if (features.has('wheels')) {
        for (const side of [-1, 1]) {
          const c: Vec3 = [side * 0.2, 0.13, 0];
          tyres.push(
            translate(rotateZ(rotateX(torus(0.09, 0.04, 12, 32), Math.PI / 2), Math.PI / 2), ...c),
          );
          joints.push(translate(rotateZ(cylinder(0.06, 0.06, -0.05, 0.05, 20), Math.PI / 2), ...c));
        }
        parts.push(...part('tyre', ...tyres));
      }
      body.push(roundedBox(0.34, 0.18, 0.24, 0, y0 - 0.12, 0, 4));
      joints.push(cylinder(0.07, 0.07, y0 - 0.04, y0 + 0.06, 20));
    } else {
      for (const side of [-1, 1]) {
        const x = side * hipX;
        joints.push(capsule([x, 0.1, 0], [x, y0 + 0.02, 0], 0.042, 14));
        body.push(roundedBox(0.13, 0.09, 0.19, x, 0.045, 0.025, 4));
      }
    }
    // Torso with a chest panel and three lights.
    const torsoH = between(random, 0.32, 0.38);
    const torsoW = between(random, 0.36, 0.42);
    const y1 = y0 + torsoH;
    body.push(roundedBox(torsoW, torsoH, 0.28, 0, y0 + torsoH / 2, 0, 5));
    parts.push(
      ...part(
        'accent',
        roundedBox(torsoW * 0.55, torsoH * 0.45, 0.05, 0, y0 + torsoH * 0.55, 0.13, 6),
      ),
    );
    parts.push(
      ...part(
        'lights',
        ...[-1, 0, 1].map((k) => discZ([k * 0.045, y0 + torsoH * 0.55, 0.158], 0.016, 0.02, 16)),
      ),
    );
    // Neck and a big head with round eyes, a mouth grille and ear bolts.
    joints.push(cylinder(0.05, 0.05, y1 - 0.02, y1 + 0.07, 20));
    const headW = between(random, 0.36, 0.42);
    const headH = between(random, 0.26, 0.3);
    const hy = y1 + 0.05 + headH / 2;
    body.push(roundedBox(headW, headH, 0.28, 0, hy, 0, 5));
    const eyeR = between(random, 0.045, 0.055);
    const eyes: Solid[] = [];
    for (const side of [-1, 1]) {
      joints.push(discZ([side * headW * 0.22, hy + 0.02, 0.135], eyeR + 0.012, 0.03));
      eyes.push(discZ([side * headW * 0.22, hy + 0.02, 0.15], eyeR, 0.014));
      joints.push(
        translate(
          rotateZ(cylinder(0.045, 0.045, 0, 0.05, 20), -side * (Math.PI / 2)),
          side * (headW / 2 - 0.02),
          hy,
          0,
        ),
      );
    }
    parts.push(...part('eyes', ...eyes));
    joints.push(cuboid(-0.07, hy - headH * 0.32, 0.12, 0.07, hy - headH * 0.2, 0.148));
    if (features.has('antenna')) {
      const top = hy + headH / 2;
      joints.push(cylinder(0.008, 0.008, top - 0.02, top + 0.11, 8));
      parts.push(...part('lights', sphere(0.025, 0, top + 0.12, 0, 10, 14)));
    }
    if (features.has('arms')) {
      for (const side of [-1, 1]) {
        const shoulder: Vec3 = [side * (torsoW / 2 + 0.03), y1 - 0.06, 0];
        const elbow: Vec3 = [side * (torsoW / 2 + 0.07), y1 - 0.2, 0.03];
        const wrist: Vec3 = [side * (torsoW / 2 + 0.08), y1 - 0.33, 0.09];
        joints.push(sphere(0.05, ...shoulder, 10, 16), sphere(0.038, ...elbow, 10, 14));
        body.push(capsule(shoulder, elbow, 0.034, 12), capsule(elbow, wrist, 0.032, 12));
        // A two-fingered claw.
        for (const f of [-1, 1]) {
          const tip: Vec3 = [wrist[0] + f * 0.025, wrist[1] - 0.07, wrist[2] + 0.02];
          joints.push(capsule(wrist, tip, 0.014, 8));
        }
      }
    }
    if (features.has('wings')) {
      const wings: Solid[] = [];
      for (const side of [-1, 1]) {
        const wing = prism(
          [
            [0, 0],
            [0.34, 0.12],
            [0.36, 0.2],
            [0, 0.14],
          ],
          0.025,
        );
        const out: Vec3 = [side * Math.cos(0.35), Math.sin(0.35), 0];
        const up: Vec3 = [-side * Math.sin(0.35), Math.cos(0.35), 0];
        wings.push(placeIn(wing, out, up, [side * 0.08, y0 + torsoH * 0.5, -0.13]));
      }
      parts.push(...part('wings', ...wings));
    }
    return [...part('body', ...body), ...part('joints', ...joints), ...parts];
  },
};

const fireExtinguisher: Template = {
  name: 'fire extinguisher',
  nouns: ['fire extinguisher', 'extinguisher'],
  main: 'body',
  finishes: {
    body: { hex: '#c62828', roughness: 0.3 },
    metal: { hex: '#c9ccd1', metallic: 1, roughness: 0.3 },
    black: { hex: '#1c1c1c', roughness: 0.6 },
    label: { hex: '#f2f2f2', roughness: 0.5 },
  },
  features: { hose: true, handle: true },
  featureRoles: { hose: 'black', handle: 'black' },
  build({ random, features }) {
    const R = between(random, 0.14, 0.16);
    const H = between(random, 0.58, 0.64);
    const profile: ProfilePoint[] = [
      { r: 0, y: 0 },
      { r: R - 0.012, y: 0, crease: true },
      { r: R, y: 0.015 },
      { r: R, y: H },
    ];
    for (let k = 1; k <= 8; k++) {
      const a = (Math.PI / 2) * (k / 8);
      profile.push({ r: Math.max(0.045, R * Math.cos(a)), y: H + R * 0.8 * Math.sin(a) });
    }
    profile[profile.length - 1]!.crease = true;
    profile.push({ r: 0, y: H + R * 0.8 });
    const top = H + R * 0.8;
    const metal: Solid[] = [cylinder(0.042, 0.04, top - 0.02, top + 0.07, 24)];
    const black: Solid[] = [cuboid(-0.05, top + 0.06, -0.035, 0.075, top + 0.12, 0.035)];
    // The gauge, facing forward.
    metal.push(discZ([0.0, top + 0.03, 0.045], 0.028, 0.02));
    if (features.has('handle')) {
      // A carrying handle below and a squeeze lever above, both reaching back.
      black.push(
        translate(
          rotateZ(cuboid(-0.2, -0.012, -0.022, 0.02, 0.012, 0.022), -0.12),
          0,
          top + 0.1,
          0,
        ),
        translate(
          rotateZ(cuboid(-0.21, -0.01, -0.02, 0.03, 0.01, 0.02), 0.14),
          0.02,
          top + 0.14,
          0,
        ),
      );
      metal.push(
        translate(
          rotateX(cylinder(0.012, 0.012, -0.03, 0.03, 10), Math.PI / 2),
          0.03,
          top + 0.12,
          0,
        ),
      );
    }
    if (features.has('hose')) {
      const path = smoothPath(
        [
          [0.06, top + 0.09, 0],
          [0.15, top + 0.06, 0.02],
          [0.2, top - 0.1, 0.05],
          [0.19, H * 0.55, 0.08],
          [0.17, H * 0.38, 0.1],
        ],
        6,
      );
      black.push(tube(path, 0.018, 10));
      const end = path[path.length - 1]!;
      black.push(
        along(
          cylinder(0.026, 0.014, 0, 0.09, 16),
          [end[0], end[1] + 0.01, end[2]],
          [end[0], end[1] - 1, end[2]],
        ),
      );
    }
    const labelR = R + 0.003;
    const label = latheSolid(
      [
        { r: R - 0.01, y: H * 0.3, crease: true },
        { r: labelR, y: H * 0.3, crease: true },
        { r: labelR, y: H * 0.68, crease: true },
        { r: R - 0.01, y: H * 0.68, crease: true },
      ],
      48,
      true,
    );
    return [
      ...part('body', latheSolid(profile, 48)),
      ...part('metal', ...metal),
      ...part('black', ...black),
      ...part('label', label),
    ];
  },
};

/** A spoked bicycle wheel centred at c (tyre, rim, hub, spokes). */
function bikeWheel(c: Vec3, R: number): { tyre: Solid; metal: Solid[] } {
  const tyre = tyreAt(c, R, 0.028);
  const rim = tyreAt(c, R - 0.045, 0.012, 40);
  const hub = discZ(c, 0.025, 0.09, 16);
  const spokes: Solid[] = [];
  const n = 16;
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * (k + 0.5)) / n;
    const side = k % 2 === 0 ? 1 : -1;
    const from: Vec3 = [c[0] + 0.02 * Math.cos(a), c[1] + 0.02 * Math.sin(a), c[2] + side * 0.03];
    const to: Vec3 = [c[0] + (R - 0.05) * Math.cos(a), c[1] + (R - 0.05) * Math.sin(a), c[2]];
    spokes.push(strut(from, to, 0.003, 5));
  }
  return { tyre, metal: [rim, hub, ...spokes] };
}

const bicycle: Template = {
  name: 'bicycle',
  nouns: ['bicycle', 'bike', 'cycle', 'push bike', 'road bike', 'mountain bike', 'bmx'],
  main: 'frame',
  finishes: {
    frame: [
      { hex: '#c62828', roughness: 0.35 },
      { hex: '#1e5bc6', roughness: 0.35 },
      { hex: '#00897b', roughness: 0.35 },
      { hex: '#1c1c1c', roughness: 0.35 },
      { hex: '#f6c915', roughness: 0.35 },
    ],
    tyre: { hex: '#1c1c1c', roughness: 0.9 },
    metal: { hex: '#c9ccd1', metallic: 1, roughness: 0.3 },
    saddle: { hex: '#2b2b2b', roughness: 0.6 },
    basket: { hex: '#b5894f', roughness: 0.85 },
  },
  features: { basket: false },
  featureRoles: { basket: 'basket' },
  build({ random, features }) {
    const R = 0.3;
    const rear: Vec3 = [-0.46, R, 0];
    const front: Vec3 = [0.46, R, 0];
    const bb: Vec3 = [-0.06, 0.27, 0];
    const seat: Vec3 = [-0.16, between(random, 0.66, 0.7), 0];
    const headTop: Vec3 = [0.32, seat[1], 0];
    const headBottom: Vec3 = [0.35, 0.56, 0];
    const tr = 0.018;
    const frame: Solid[] = [
      strut(bb, seat, tr),
      strut(seat, headTop, tr),
      strut(bb, headBottom, tr * 1.15),
      strut(headBottom, [0.31, 0.74, 0], tr * 1.2),
    ];
    for (const side of [-1, 1]) {
      const dropout: Vec3 = [rear[0], rear[1], side * 0.035];
      frame.push(strut(bb, dropout, tr * 0.7), strut(seat, dropout, tr * 0.6));
      frame.push(strut(headBottom, [front[0], front[1], side * 0.04], tr * 0.75));
    }
    for (const node of [bb, seat, headTop, headBottom])
      frame.push(sphere(tr * 1.35, ...node, 8, 12));
    const metal: Solid[] = [];
    const tyres: Solid[] = [];
    for (const c of [rear, front]) {
      const wheel = bikeWheel(c, R);
      tyres.push(wheel.tyre);
      metal.push(...wheel.metal);
    }
    // Seat post and saddle; stem and handlebar with grips.
    const saddleAt: Vec3 = [seat[0] - 0.02, seat[1] + 0.07, 0];
    metal.push(strut([seat[0] + 0.005, seat[1] - 0.03, 0], saddleAt, 0.012, 8));
    const saddle = ellipsoid(0.12, 0.03, 0.055, saddleAt[0] - 0.01, saddleAt[1] + 0.01, 0, 10, 16);
    const bar: Vec3 = [0.28, 0.8, 0];
    metal.push(strut([0.31, 0.72, 0], bar, 0.013, 8));
    metal.push(
      tube(
        smoothPath(
          [
            [0.2, 0.82, -0.24],
            [0.28, 0.8, -0.12],
            [0.28, 0.8, 0.12],
            [0.2, 0.82, 0.24],
          ],
          6,
        ),
        0.012,
        8,
      ),
    );
    const grips = [-1, 1].map((side) =>
      capsule([0.215, 0.818, side * 0.2], [0.17, 0.83, side * 0.27], 0.018, 10),
    );
    // Chainring, cranks and pedals.
    metal.push(discZ([bb[0], bb[1], 0.045], 0.085, 0.01, 32));
    const crank = between(random, 0, Math.PI);
    for (const side of [-1, 1]) {
      const a = crank + (side > 0 ? 0 : Math.PI);
      const pedal: Vec3 = [bb[0] + 0.15 * Math.cos(a), bb[1] + 0.15 * Math.sin(a), side * 0.09];
      metal.push(strut([bb[0], bb[1], side * 0.06], pedal, 0.012, 8));
      metal.push(
        translate(
          cuboid(-0.045, -0.01, 0, 0.045, 0.01, 0.08),
          pedal[0],
          pedal[1],
          side > 0 ? pedal[2] : pedal[2] - 0.08,
        ),
      );
    }
    metal.push(discZ([bb[0], bb[1], 0], 0.03, 0.13, 16));
    const parts: Part[] = [
      ...part('frame', ...frame),
      ...part('tyre', ...tyres, ...grips),
      ...part('metal', ...metal),
      ...part('saddle', saddle),
    ];
    if (features.has('basket')) {
      const basket = loft(
        [0.66, 0.72, 0.8, 0.86].map((y, k) => {
          const grow = 1 + 0.08 * k;
          return [
            [0.36, y, -0.13 * grow],
            [0.56 + 0.01 * k, y, -0.13 * grow],
            [0.56 + 0.01 * k, y, 0.13 * grow],
            [0.36, y, 0.13 * grow],
          ] as Vec3[];
        }),
        [0, 1, 2, 3],
      );
      parts.push(...part('basket', basket));
      metal.push(strut([0.33, 0.76, 0], [0.37, 0.76, 0], 0.01, 8));
    }
    return parts;
  },
};

/** A thin sail bellying forward (+x) in front of a mast at x, from y0 to y1, w0 → w1 wide. */
function squareSail(
  x: number,
  y0: number,
  y1: number,
  w0: number,
  w1: number,
  belly: number,
): Solid {
  const sections: Vec3[][] = [];
  const steps = 6;
  const across = 8;
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const y = y0 + (y1 - y0) * t;
    const w = w0 + (w1 - w0) * t;
    const b = belly * Math.sin(Math.PI * (0.15 + 0.7 * t));
    const front: Vec3[] = [];
    const back: Vec3[] = [];
    for (let j = 0; j <= across; j++) {
      const s = -1 + (2 * j) / across;
      const bulge = b * (1 - s * s);
      front.push([x + 0.02 + bulge + 0.006, y, (s * w) / 2]);
      back.push([x + 0.02 + bulge - 0.006, y, (s * w) / 2]);
    }
    sections.push([...front, ...back.reverse()]);
  }
  return loft(sections, [0, across, across + 1, 2 * across + 1]);
}

const ship: Template = {
  name: 'ship',
  nouns: [
    'sailing ship',
    'ship',
    'sail ship',
    'galleon',
    'pirate ship',
    'tall ship',
    'schooner',
    'frigate',
    'clipper',
    'sailboat',
    'sailing boat',
    'boat',
    'yacht',
    'sloop',
  ],
  variants: {
    sailboat: 'sloop',
    'sailing boat': 'sloop',
    boat: 'sloop',
    yacht: 'sloop',
    sloop: 'sloop',
    'pirate ship': 'pirate',
  },
  main: 'hull',
  finishes: {
    hull: [
      { hex: '#7a4e2d', roughness: 0.7 },
      { hex: '#5d3a22', roughness: 0.7 },
      { hex: '#8a5a34', roughness: 0.7 },
    ],
    sails: { hex: '#f1e9d2', roughness: 0.9 },
    masts: { hex: '#4a2f1c', roughness: 0.8 },
    flag: [{ hex: '#c62828' }, { hex: '#1e5bc6' }, { hex: '#f6c915' }],
  },
  variantFinishes: {
    sloop: {
      hull: [
        { hex: '#f2f2f2', roughness: 0.3 },
        { hex: '#1a2a6c', roughness: 0.3 },
        { hex: '#c62828', roughness: 0.3 },
      ],
      masts: { hex: '#c9ccd1', metallic: 1, roughness: 0.3 },
    },
    pirate: { sails: { hex: '#2b2b2b', roughness: 0.9 }, flag: { hex: '#1c1c1c' } },
  },
  features: { sails: true, flag: true },
  featureRoles: { sails: 'sails', flag: 'flag' },
  build({ random, variant, features }) {
    const sloop = variant === 'sloop';
    // Hull: U-shaped sections from the flat stern (−x) to a sharp bow (+x).
    const L = 0.95;
    const x0 = -0.45;
    const beam = sloop ? between(random, 0.14, 0.16) : between(random, 0.17, 0.19);
    const deckAt = (t: number): number => 0.3 + (sloop ? 0.03 : 0.09) * ((t - 0.45) / 0.55) ** 2;
    const sections: Vec3[][] = [];
    const K = 8;
    const steps = 22;
    for (let i = 0; i <= steps; i++) {
      const t = i / steps;
      const x = x0 + L * t;
      const b =
        t < 0.4
          ? beam * (1 - 0.3 * ((0.4 - t) / 0.4) ** 2)
          : Math.max(0.006, beam * (1 - ((t - 0.4) / 0.6) ** 2) ** 0.7);
      const depth = (sloop ? 0.12 : 0.16) * (1 - 0.55 * t ** 3) * (t > 0.97 ? 0.8 : 1);
      const yd = deckAt(t);
      const loop: Vec3[] = [];
      for (let k = 0; k <= 2 * K; k++) {
        const a = -Math.PI / 2 + (Math.PI * k) / (2 * K);
        loop.push([x, yd - depth * Math.cos(a) ** 1.4, b * Math.sin(a)]);
      }
      sections.push(loop);
    }
    const hull: Solid[] = [loft(sections, [0, 2 * K])];
    const masts: Solid[] = [];
    const sails: Solid[] = [];
    const deck = deckAt(0.45);
    if (!sloop) {
      // A raised stern castle and a bowsprit.
      hull.push(
        cuboid(
          x0 + 0.005,
          deckAt(0.05) - 0.05,
          -beam * 0.66,
          x0 + 0.2,
          deckAt(0.05) + 0.07,
          beam * 0.66,
        ),
      );
      masts.push(strut([0.4, deckAt(0.9) - 0.02, 0], [0.62, deckAt(1) + 0.12, 0], 0.011, 8));
    }
    const mastXs = sloop ? [0.02] : [-0.18, 0.06, 0.28];
    const heights = sloop ? [1.05] : [0.85, 1, 0.82];
    let flagTop: Vec3 = [0, 0, 0];
    for (const [i, mx] of mastXs.entries()) {
      const top = heights[i]!;
      masts.push(translate(cylinder(0.014, 0.01, deck - 0.1, top, 12), mx, 0, 0));
      if (heights[i] === Math.max(...heights)) flagTop = [mx, top, 0];
      if (!features.has('sails')) continue;
      if (sloop) {
        // Mainsail behind the mast and a jib to the bow, both flat triangles.
        sails.push(
          prism(
            [
              [mx - 0.01, deck + 0.08],
              [mx - 0.36, deck + 0.09],
              [mx - 0.01, top - 0.04],
            ],
            0.008,
          ),
          prism(
            [
              [mx + 0.02, deck + 0.06],
              [0.44, deckAt(0.98) + 0.02],
              [mx + 0.02, top - 0.12],
            ],
            0.008,
          ),
        );
        masts.push(
          translate(
            rotateZ(cylinder(0.009, 0.009, 0, 0.37, 8), Math.PI / 2),
            mx + 0.005,
            deck + 0.085,
            0,
          ),
        );
      } else {
        const span = top - deck - 0.06;
        const w = beam * 2.4 * (i === 1 ? 1.1 : 0.95);
        const lowY0 = deck + 0.06;
        const lowY1 = lowY0 + span * 0.5;
        const highY1 = lowY1 + span * 0.4;
        sails.push(
          squareSail(mx, lowY0, lowY1, w, w * 0.9, 0.05),
          squareSail(mx, lowY1 + 0.02, highY1, w * 0.85, w * 0.65, 0.04),
        );
        for (const [y, yw] of [
          [lowY1 + 0.005, w * 0.95],
          [highY1 + 0.01, w * 0.7],
        ] as const) {
          masts.push(
            translate(
              rotateX(cylinder(0.008, 0.008, -yw / 2 - 0.02, yw / 2 + 0.02, 8), Math.PI / 2),
              mx + 0.03,
              y,
              0,
            ),
          );
        }
      }
    }
    const parts: Part[] = [...part('hull', ...hull), ...part('masts', ...masts)];
    if (sails.length) parts.push(...part('sails', ...sails));
    if (features.has('flag')) {
      const flag = prism(
        [
          [0, 0],
          [-0.12, -0.01],
          [-0.09, -0.035],
          [-0.12, -0.06],
          [0, -0.06],
        ],
        0.006,
      );
      parts.push(...part('flag', translate(flag, flagTop[0] - 0.006, flagTop[1] - 0.005, 0)));
    }
    return parts;
  },
};

export const MACHINES: readonly Template[] = [robot, bicycle, fireExtinguisher, ship];
