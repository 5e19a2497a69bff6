/** Templates for made things: car, sword, rocket, chess pawn, wheel, ring, donut. */
import { cuboid, cylinder, latheSolid, prism, sphere, torus } from './geometry/index.ts';
import { flatShade, rotateX, rotateY, rotateZ, scale, translate } from './geometry/index.ts';
import type { ProfilePoint, Solid } from './geometry/index.ts';
import type { Random } from './finish.ts';
import { between, offsetPolygon, part, randomAngle, type Template } from './template.ts';

type Polygon = [number, number][];

/** A tyre (rounded-rectangle ring) and a hub filling its hole; axis along Z, centred at the origin. */
function wheel(
  radius: number,
  width: number,
  hubRadius: number,
  segments = 32,
): { tyre: Solid; hub: Solid } {
  const hw = width / 2;
  const c = Math.min(radius * 0.18, hw * 0.5);
  const inner = hubRadius * 0.96;
  const tyre = latheSolid(
    [
      { r: inner, y: -hw, crease: true },
      { r: radius - c, y: -hw },
      { r: radius, y: -hw + c },
      { r: radius, y: hw - c },
      { r: radius - c, y: hw },
      { r: inner, y: hw, crease: true },
    ],
    segments,
    true,
  );
  const hub = latheSolid(
    [
      { r: 0, y: -hw * 0.8 },
      { r: hubRadius, y: -hw * 0.8, crease: true },
      { r: hubRadius, y: hw * 0.8, crease: true },
      { r: hubRadius * 0.4, y: hw * 0.9, crease: true },
      { r: 0, y: hw * 0.9 },
    ],
    segments,
  );
  return { tyre: rotateX(tyre, Math.PI / 2), hub: rotateX(hub, Math.PI / 2) };
}

/** The x of the line through a and b at height y. */
function xAt(a: readonly [number, number], b: readonly [number, number], y: number): number {
  return a[0] + ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]);
}

/**
 * Glass for a cabin outline (a trapezoid: rear-bottom, front-bottom, front-top, rear-top):
 * windscreen and rear window as a slab just proud of the sloped faces but narrower than the
 * cabin, and side windows as an inset slab just proud of the sides.
 */
function cabinGlass(cab: Polygon, width: number): Solid[] {
  const [rb, fb, ft, rt] = cab as [
    [number, number],
    [number, number],
    [number, number],
    [number, number],
  ];
  const yTop = ft[1] - 0.025;
  const lowered: Polygon = [rb, fb, [xAt(fb, ft, yTop), yTop], [xAt(rb, rt, yTop), yTop]];
  const screens = prism(offsetPolygon(lowered, 0.004), width - 0.05);
  const sides = prism(offsetPolygon(cab, -0.022), width + 0.01);
  return [screens, sides];
}

const car: Template = {
  name: 'car',
  nouns: [
    'car',
    'sedan',
    'automobile',
    'taxi',
    'coupe',
    'vehicle',
    'jeep',
    'hatchback',
    'truck',
    'pickup',
    'lorry',
    'van',
    'minivan',
    'bus',
    'camper',
  ],
  variants: {
    truck: 'truck',
    pickup: 'truck',
    lorry: 'truck',
    van: 'van',
    minivan: 'van',
    bus: 'van',
    camper: 'van',
  },
  main: 'body',
  finishes: {
    body: 'hashed',
    glass: { hex: '#25313d', roughness: 0.1 },
    tyre: { hex: '#1c1c1c', roughness: 0.9 },
    hub: { hex: '#c9ccd1', metallic: 1, roughness: 0.3 },
    headlight: { hex: '#fff3c4', roughness: 0.2 },
    taillight: { hex: '#b71c1c', roughness: 0.3 },
    wings: 'main',
  },
  features: { wheels: true, wings: false },
  featureRoles: { wheels: 'tyre', wings: 'wings' },
  build({ random, variant, features }) {
    const W = between(random, 0.4, 0.46);
    const rw = between(random, 0.09, 0.11);
    const yb = rw * 0.6;
    const yt = between(random, 0.24, 0.28);
    const wb = between(random, 0.28, 0.33);
    const { body, glass, front } =
      variant === 'van' ? vanBody(random, W, yb) : cabBody(random, variant, W, yb, yt);
    const tyres: Solid[] = [];
    const hubs: Solid[] = [];
    for (const x of [-wb, wb]) {
      for (const z of [-1, 1]) {
        const { tyre, hub } = wheel(rw, 0.075, rw * 0.55);
        tyres.push(translate(tyre, x, rw, z * (W / 2 - 0.03)));
        hubs.push(translate(hub, x, rw, z * (W / 2 - 0.03)));
      }
    }
    const lights = (x0: number, x1: number): Solid[] =>
      [-1, 1].map((s) => cuboid(x0, front - 0.04, s * W * 0.25, x1, front, s * W * 0.4));
    const parts = [
      ...part('body', ...body),
      ...part('glass', ...glass),
      ...part('headlight', ...lights(0.49, 0.506)),
      ...part('taillight', ...lights(-0.506, -0.49)),
    ];
    // Without wheels it hovers: the body keeps its height.
    if (features.has('wheels')) parts.push(...part('tyre', ...tyres), ...part('hub', ...hubs));
    if (features.has('wings')) {
      // A flying car: swept wings from the sills.
      const wing = prism(
        [
          [0.16, 0],
          [-0.16, 0],
          [-0.27, 0.42],
          [-0.08, 0.42],
        ],
        0.02,
      );
      for (const side of [-1, 1])
        parts.push(
          ...part(
            'wings',
            translate(
              rotateX(wing, side * (Math.PI / 2 - 0.12)),
              0,
              yt - 0.07,
              side * (W / 2 - 0.06),
            ),
          ),
        );
    }
    return parts;
  },
};

/** A car's body and windows, and the height its lights go at. */
interface CarBody {
  body: Solid[];
  glass: Solid[];
  front: number;
}

/**
 * A car body's side outline extruded `W` wide (along Z): the sills every body has, bottom at
 * `yb`, then `upper`, from the front end round over the top to the back.
 */
function shell(yb: number, upper: Polygon, W: number): Solid {
  return prism([[-0.5, yb + 0.03], [-0.47, yb], [0.47, yb], [0.5, yb + 0.04], ...upper], W);
}

/** A car's body: a van's one tall box with a sloping front, its windows, and where the lights go. */
function vanBody(random: Random, W: number, yb: number): CarBody {
  const body: Solid[] = [];
  const glass: Solid[] = [];
  const roof = between(random, 0.48, 0.54);
  const nose = between(random, 0.3, 0.34);
  const slopeTop: [number, number] = [between(random, 0.32, 0.38), roof];
  const slopeBottom: [number, number] = [0.5, nose];
  body.push(shell(yb, [slopeBottom, slopeTop, [-0.48, roof], [-0.5, roof - 0.02]], W));
  const [y0, y1] = [nose + 0.025, roof - 0.03];
  const screen: Polygon = [
    [xAt(slopeBottom, slopeTop, y0) - 0.1, y0],
    [xAt(slopeBottom, slopeTop, y0), y0],
    [xAt(slopeBottom, slopeTop, y1), y1],
    [xAt(slopeBottom, slopeTop, y1) - 0.1, y1],
  ];
  glass.push(prism(offsetPolygon(screen, 0.004), W - 0.06));
  const xFront = xAt(slopeBottom, slopeTop, y1) - 0.04;
  glass.push(cuboid(-0.42, y0, -W / 2 - 0.005, xFront, y1, W / 2 + 0.005));
  for (const x of [-0.2, 0.05])
    body.push(cuboid(x - 0.02, y0 - 0.01, -W / 2 - 0.008, x + 0.02, y1 + 0.01, W / 2 + 0.008));
  return { body, glass, front: nose - 0.03 };
}

/** A car's body: a sedan's (or a truck's) low box with a cabin on it, and its windows. */
function cabBody(
  random: Random,
  variant: string | null,
  W: number,
  yb: number,
  yt: number,
): CarBody {
  const body: Solid[] = [];
  const glass: Solid[] = [];
  body.push(
    shell(
      yb,
      [
        [0.5, yt - 0.05],
        [0.46, yt],
        [-0.47, yt],
        [-0.5, yt - 0.03],
      ],
      W,
    ),
  );
  const ch = between(random, 0.15, 0.19);
  const cw = W - 0.06;
  const cab: Polygon =
    variant === 'truck'
      ? [
          [0.08, yt - 0.01],
          [0.42, yt - 0.01],
          [0.34, yt + ch + 0.03],
          [0.08, yt + ch + 0.03],
        ]
      : [
          [-0.33, yt - 0.01],
          [between(random, 0.18, 0.24), yt - 0.01],
          [between(random, 0.04, 0.1), yt + ch],
          [-0.25, yt + ch],
        ];
  body.push(prism(cab, cw));
  if (variant === 'truck') {
    // Windscreen only at the front; the cab's back is a wall.
    const [, fb, ft] = cab as [unknown, [number, number], [number, number]];
    const yTop = ft[1] - 0.025;
    const screen: Polygon = [
      [fb[0] - 0.12, fb[1]],
      fb,
      [xAt(fb, ft, yTop), yTop],
      [xAt(fb, ft, yTop) - 0.12, yTop],
    ];
    glass.push(prism(offsetPolygon(screen, 0.004), cw - 0.05));
    glass.push(prism(offsetPolygon(cab, -0.025), cw + 0.01));
    const bed = yt + between(random, 0.08, 0.11);
    // The side walls end inside the tailgate (touching walls would share edges).
    body.push(
      cuboid(-0.49, yt - 0.01, W / 2 - 0.02, 0.08, bed, W / 2),
      cuboid(-0.49, yt - 0.01, -W / 2, 0.08, bed, -W / 2 + 0.02),
      cuboid(-0.5, yt - 0.01, -W / 2, -0.48, bed, W / 2),
    );
  } else {
    glass.push(...cabinGlass(cab, cw));
    const mid = (cab[0]![0] + cab[1]![0]) / 2 - 0.02;
    body.push(
      cuboid(mid - 0.02, yt - 0.01, -cw / 2 - 0.008, mid + 0.02, yt + ch - 0.005, cw / 2 + 0.008),
    );
  }
  return { body, glass, front: yt - 0.05 };
}

const sword: Template = {
  name: 'sword',
  nouns: [
    'sword',
    'sabre',
    'saber',
    'katana',
    'rapier',
    'longsword',
    'broadsword',
    'blade',
    'cutlass',
    'dagger',
    'knife',
    'knives',
  ],
  variants: { dagger: 'short', knife: 'short', knives: 'short' },
  main: 'blade',
  finishes: {
    blade: { hex: '#c9ccd1', metallic: 1, roughness: 0.25 },
    guard: { hex: '#b8902f', metallic: 1, roughness: 0.35 },
    grip: { hex: '#5b3a29', roughness: 0.8 },
  },
  build({ random, variant }) {
    const gripTop = between(random, 0.2, 0.24);
    const pommel = between(random, 0.03, 0.04);
    const gw = between(random, 0.1, 0.15);
    const gy0 = gripTop - 0.01;
    const gy1 = gy0 + 0.035;
    const top = variant === 'short' ? between(random, 0.6, 0.7) : 1;
    const hw = between(random, 0.025, 0.036);
    const tip = between(random, 0.07, 0.14) * (variant === 'short' ? 0.8 : 1);
    const blade = flatShade(
      scale(
        latheSolid(
          [
            { r: 0, y: gy1 - 0.01 },
            { r: 1, y: gy1 - 0.01, crease: true },
            { r: between(random, 0.8, 0.95), y: top - tip, crease: true },
            { r: 0, y: top },
          ],
          4,
        ),
        hw,
        1,
        0.008,
      ),
    );
    const guard = [
      cuboid(-gw, gy0, -0.022, gw, gy1, 0.022),
      sphere(0.022, -gw, (gy0 + gy1) / 2, 0, 8, 12),
      sphere(0.022, gw, (gy0 + gy1) / 2, 0, 8, 12),
      sphere(pommel, 0, pommel, 0, 12, 16),
    ];
    const grip = cylinder(0.02, 0.023, pommel * 1.5, gy0 + 0.005, 16);
    return [...part('blade', blade), ...part('guard', ...guard), ...part('grip', grip)];
  },
};

const rocket: Template = {
  name: 'rocket',
  nouns: [
    'rocket',
    'spaceship',
    'spacecraft',
    'missile',
    'shuttle',
    'starship',
    'space ship',
    'space rocket',
  ],
  main: 'body',
  finishes: {
    body: { hex: '#f2f2f2', roughness: 0.4 },
    accent: [{ hex: '#c62828' }, { hex: '#1e5bc6' }, { hex: '#1c1c1c' }, { hex: '#ef6c00' }],
    window: { hex: '#6fb7e0', roughness: 0.1 },
    engine: { hex: '#4a4a4a', metallic: 1, roughness: 0.5 },
  },
  build({ random }) {
    const R = between(random, 0.1, 0.13);
    const noseBase = between(random, 0.6, 0.68);
    const bottom = 0.12;
    const body = latheSolid(
      [
        { r: 0, y: bottom },
        { r: R * 0.8, y: bottom, crease: true },
        { r: R, y: bottom + 0.04 },
        { r: R, y: noseBase + 0.02, crease: true },
        { r: 0, y: noseBase + 0.02 },
      ],
      40,
    );
    const noseProfile: ProfilePoint[] = [
      { r: 0, y: noseBase },
      { r: R, y: noseBase, crease: true },
    ];
    const sharp = between(random, 0.5, 0.9);
    for (let k = 1; k <= 12; k++) {
      const t = k / 12;
      noseProfile.push({
        r: k === 12 ? 0 : R * (1 - t * t) ** sharp,
        y: noseBase + (1 - noseBase) * t,
      });
    }
    const n = random() < 0.5 ? 3 : 4;
    const finW = between(random, 0.12, 0.17);
    const finTop = between(random, 0.36, 0.45);
    const fin = prism(
      [
        [R * 0.5, finTop],
        [R * 0.5, bottom + 0.04],
        [R + finW, 0],
        [R + finW, between(random, 0.08, 0.14)],
      ],
      0.022,
    );
    const fins = Array.from({ length: n }, (_, k) =>
      rotateY(fin, (2 * Math.PI * k) / n + Math.PI / 2),
    );
    const window = translate(
      rotateX(cylinder(0.042, 0.042, 0, 0.03, 24), Math.PI / 2),
      0,
      noseBase - 0.13,
      R - 0.02,
    );
    const nozzle = cylinder(R * 0.75, R * 0.55, 0.03, bottom + 0.02, 32);
    return [
      ...part('body', body),
      ...part('accent', latheSolid(noseProfile, 40), ...fins),
      ...part('window', window),
      ...part('engine', nozzle),
    ];
  },
};

const pawn: Template = {
  name: 'pawn',
  nouns: ['pawn', 'chess piece', 'chess pawn', 'chessman', 'chess'],
  main: 'body',
  finishes: {
    body: [
      { hex: '#f3ecd8', roughness: 0.3 },
      { hex: '#1c1c1c', roughness: 0.3 },
    ],
  },
  build({ random }) {
    const head = between(random, 0.14, 0.16);
    const neck = between(random, 0.08, 0.1);
    const collarY = between(random, 0.55, 0.6);
    const profile: ProfilePoint[] = [
      { r: 0, y: 0 },
      { r: 0.34, y: 0, crease: true },
      { r: 0.34, y: 0.05 },
      { r: 0.3, y: 0.09, crease: true },
      { r: 0.25, y: 0.1, crease: true },
      { r: 0.24, y: 0.14 },
      { r: 0.2, y: 0.16, crease: true },
    ];
    for (let k = 1; k <= 10; k++) {
      const t = k / 10;
      profile.push({
        r: neck + (0.19 - neck) * (1 - t) ** 2,
        y: 0.16 + (collarY - 0.18 - 0.16) * t,
      });
    }
    profile[profile.length - 1]!.crease = true;
    const cy = collarY + 0.03 + Math.sqrt(head * head - (neck * 0.9) ** 2);
    profile.push(
      { r: 0.18, y: collarY - 0.16, crease: true },
      { r: 0.18, y: collarY - 0.12, crease: true },
      { r: neck * 0.9, y: collarY + 0.03, crease: true },
    );
    const a0 = Math.asin(-Math.sqrt(head * head - (neck * 0.9) ** 2) / head);
    for (let k = 1; k <= 14; k++) {
      const a = a0 + ((Math.PI / 2 - a0) * k) / 14;
      profile.push({ r: k === 14 ? 0 : head * Math.cos(a), y: cy + head * Math.sin(a) });
    }
    return part('body', latheSolid(profile, 48));
  },
};

const wheelTemplate: Template = {
  name: 'wheel',
  nouns: ['wheel', 'tire', 'tyre'],
  main: 'hub',
  finishes: {
    hub: { hex: '#c9ccd1', metallic: 1, roughness: 0.3 },
    tyre: { hex: '#1c1c1c', roughness: 0.9 },
  },
  build({ random }) {
    const { tyre, hub } = wheel(0.5, between(random, 0.26, 0.36), between(random, 0.3, 0.36), 64);
    return [...part('tyre', translate(tyre, 0, 0.5, 0)), ...part('hub', translate(hub, 0, 0.5, 0))];
  },
};

const ring: Template = {
  name: 'ring',
  nouns: ['ring', 'engagement ring', 'wedding ring'],
  main: 'band',
  finishes: {
    band: { hex: '#e3b23c', metallic: 1, roughness: 0.3 },
    gem: [
      { hex: '#dff4ff', roughness: 0.05 },
      { hex: '#c0143c', roughness: 0.1 },
      { hex: '#1f9d63', roughness: 0.1 },
      { hex: '#1e4fc6', roughness: 0.1 },
    ],
  },
  build({ random }) {
    const R = 0.4;
    const thick = between(random, 0.03, 0.045);
    const width = between(random, 0.05, 0.09);
    const profile: ProfilePoint[] = Array.from({ length: 24 }, (_, i) => {
      const t = (2 * Math.PI * i) / 24;
      return { r: R + thick * Math.cos(t), y: width * Math.sin(t) };
    });
    const band = translate(rotateX(latheSolid(profile, 64, true), Math.PI / 2), 0, R + thick, 0);
    const top = 2 * (R + thick);
    const gr = between(random, 0.09, 0.12);
    const setting = cylinder(gr * 0.5, gr * 0.85, top - 0.02, top + 0.05, 24);
    const gem = flatShade(
      latheSolid(
        [
          { r: 0, y: top + 0.0 },
          { r: gr, y: top + 0.07, crease: true },
          { r: gr, y: top + 0.085, crease: true },
          { r: gr * 0.6, y: top + 0.13, crease: true },
          { r: 0, y: top + 0.13 },
        ],
        8,
      ),
    );
    return [...part('band', band, setting), ...part('gem', gem)];
  },
};

const donut: Template = {
  name: 'donut',
  nouns: ['donut', 'doughnut', 'bagel'],
  variants: { bagel: 'plain' },
  main: 'icing',
  finishes: {
    dough: { hex: '#d9a25f', roughness: 0.8 },
    icing: { hex: '#ec6fa5', roughness: 0.35 },
    sprinkles: { hex: '#f6c915', roughness: 0.5 },
    sprinkles2: { hex: '#1e5bc6', roughness: 0.5 },
  },
  build({ random, variant }) {
    const r = between(random, 0.16, 0.19);
    const R = 0.5 - r;
    const dough = translate(torus(R, r, 24, 64), 0, r, 0);
    if (variant === 'plain') return part('dough', dough);
    const outer = r + 0.012;
    const inner = r - 0.03;
    const [a0, a1] = [(-25 * Math.PI) / 180, (205 * Math.PI) / 180];
    const profile: ProfilePoint[] = [];
    const steps = 20;
    for (let k = 0; k <= steps; k++) {
      const a = a0 + ((a1 - a0) * k) / steps;
      profile.push({
        r: R + outer * Math.cos(a),
        y: outer * Math.sin(a),
        ...(k === 0 || k === steps ? { crease: true } : {}),
      });
    }
    for (let k = steps; k >= 0; k--) {
      const a = a0 + ((a1 - a0) * k) / steps;
      profile.push({
        r: R + inner * Math.cos(a),
        y: inner * Math.sin(a),
        ...(k === 0 || k === steps ? { crease: true } : {}),
      });
    }
    const icing = translate(latheSolid(profile, 64, true), 0, r, 0);
    const sprinkles: Solid[][] = [[], []];
    const count = 30 + Math.floor(random() * 20);
    for (let i = 0; i < count; i++) {
      const a = between(random, 0.35, Math.PI - 0.35);
      const phi = randomAngle(random);
      const bar = rotateY(
        rotateZ(cylinder(0.011, 0.011, -0.025, 0.025, 6), Math.PI / 2),
        randomAngle(random),
      );
      const radial = R + (outer - 0.004) * Math.cos(a);
      const y = r + (outer - 0.004) * Math.sin(a);
      sprinkles[i % 2]!.push(translate(bar, radial * Math.cos(phi), y, radial * Math.sin(phi)));
    }
    return [
      ...part('dough', dough),
      ...part('icing', icing),
      ...part('sprinkles', ...sprinkles[0]!),
      ...part('sprinkles2', ...sprinkles[1]!),
    ];
  },
};

export const THINGS: readonly Template[] = [car, sword, rocket, pawn, wheelTemplate, ring, donut];
