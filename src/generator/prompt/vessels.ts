/** Templates for things turned on a lathe: mug, cup, bowl, bottle, vase, barrel, candle, can. */
import {
  cylinder,
  flatShade,
  latheSolid,
  scale,
  translate,
  type ProfilePoint,
} from './geometry/index.ts';
import { between, handle, part, type Part, type Template } from './template.ts';

const SEGMENTS = 48;

/**
 * A hollow vessel: outer wall from `bottom` to `top` radius over `height`, a rounded rim of
 * thickness `wall`, and an inner wall down to a floor at `floor` (one closed surface).
 */
function hollowProfile(
  bottom: number,
  top: number,
  height: number,
  wall: number,
  floor: number,
): ProfilePoint[] {
  const rimY = height - wall / 2;
  const outerAt = (y: number): number => bottom + ((top - bottom) * y) / height;
  const profile: ProfilePoint[] = [
    { r: 0, y: 0 },
    { r: bottom - 0.015, y: 0, crease: true },
    { r: outerAt(0.015), y: 0.015, crease: true },
    { r: outerAt(rimY), y: rimY },
  ];
  for (let i = 1; i < 8; i++) {
    const a = (Math.PI * i) / 8;
    profile.push({
      r: outerAt(rimY) - wall / 2 + (wall / 2) * Math.cos(a),
      y: rimY + (wall / 2) * Math.sin(a),
    });
  }
  profile.push(
    { r: outerAt(rimY) - wall, y: rimY },
    { r: outerAt(floor) - wall, y: floor, crease: true },
    { r: 0, y: floor },
  );
  return profile;
}

const mug: Template = {
  name: 'mug',
  nouns: ['mug', 'tankard', 'stein', 'coffee mug'],
  main: 'body',
  finishes: { body: 'hashed', handle: 'main', coffee: { hex: '#3b2314', roughness: 0.15 } },
  features: { handle: true },
  featureRoles: { handle: 'handle' },
  build({ random, features }) {
    const height = between(random, 0.85, 1);
    const radius = height * between(random, 0.34, 0.42);
    const wall = 0.035;
    const floor = 0.06;
    const x = radius - wall / 2;
    const grip = handle(
      [x, height * between(random, 0.18, 0.28)],
      [x, height * between(random, 0.74, 0.82)],
      between(random, 0.2, 0.27),
      0.04,
    );
    const parts: Part[] = part(
      'body',
      latheSolid(hollowProfile(radius, radius, height, wall, floor), SEGMENTS),
    );
    if (features.has('handle')) parts.push(...part('handle', grip));
    if (random() < 0.5) {
      const r = radius - wall / 2;
      parts.push(
        ...part('coffee', cylinder(r, r, floor - 0.02, height * between(random, 0.7, 0.85))),
      );
    }
    return parts;
  },
};

const cup: Template = {
  name: 'cup',
  nouns: ['cup', 'teacup', 'tea cup', 'coffee cup', 'espresso'],
  main: 'body',
  finishes: {
    body: 'hashed',
    saucer: { hex: '#f4f1ea', roughness: 0.3 },
    tea: { hex: '#8a4a1c', roughness: 0.1 },
    handle: 'main',
  },
  features: { handle: true, saucer: true },
  featureRoles: { handle: 'handle', saucer: 'saucer' },
  build({ random, features }) {
    const rs = 0.45;
    const saucer = latheSolid(
      [
        { r: 0, y: 0 },
        { r: 0.2, y: 0, crease: true },
        { r: 0.22, y: 0.025, crease: true },
        { r: rs, y: 0.065, crease: true },
        { r: rs - 0.015, y: 0.08, crease: true },
        { r: 0.24, y: 0.05, crease: true },
        { r: 0, y: 0.05 },
      ],
      SEGMENTS,
    );
    const base = 0.045;
    const height = between(random, 0.42, 0.52);
    const bottom = between(random, 0.12, 0.15);
    const top = between(random, 0.26, 0.31);
    const wall = 0.025;
    const floor = 0.04;
    const body = translate(
      latheSolid(hollowProfile(bottom, top, height, wall, floor), SEGMENTS),
      0,
      base,
      0,
    );
    const outerAt = (y: number): number => bottom + ((top - bottom) * y) / height - wall / 2;
    const low = height * 0.2;
    const high = height * 0.78;
    const grip = handle(
      [outerAt(low), base + low],
      [outerAt(high), base + high],
      between(random, 0.11, 0.14),
      0.025,
    );
    const teaY = height * between(random, 0.65, 0.8);
    const tea = translate(cylinder(outerAt(floor), outerAt(teaY), floor - 0.01, teaY), 0, base, 0);
    const parts: Part[] = [...part('body', body), ...part('tea', tea)];
    if (features.has('handle')) parts.push(...part('handle', grip));
    if (features.has('saucer')) parts.push(...part('saucer', saucer));
    return parts;
  },
};

const bowl: Template = {
  name: 'bowl',
  nouns: ['bowl', 'basin', 'dish'],
  main: 'body',
  finishes: { body: 'hashed' },
  build({ random }) {
    const R = 0.5;
    const H = between(random, 0.36, 0.46);
    const wall = 0.03;
    const foot = between(random, 0.17, 0.22);
    const footH = 0.03;
    const floor = 0.075;
    const rimY = H - wall / 2;
    const s0 = foot / R;
    const profile: ProfilePoint[] = [
      { r: 0, y: 0 },
      { r: foot, y: 0, crease: true },
      { r: foot, y: footH, crease: true },
    ];
    for (let k = 1; k <= 16; k++) {
      const s = s0 + ((1 - s0) * k) / 16;
      profile.push({ r: R * s, y: footH + ((rimY - footH) * (s * s - s0 * s0)) / (1 - s0 * s0) });
    }
    for (let i = 1; i < 8; i++) {
      const a = (Math.PI * i) / 8;
      profile.push({
        r: R - wall / 2 + (wall / 2) * Math.cos(a),
        y: rimY + (wall / 2) * Math.sin(a),
      });
    }
    for (let k = 0; k <= 16; k++) {
      const s = 1 - k / 16;
      profile.push({ r: (R - wall) * s, y: floor + (rimY - floor) * s * s });
    }
    return part('body', latheSolid(profile, 64));
  },
};

const bottle: Template = {
  name: 'bottle',
  nouns: ['bottle', 'flask', 'wine bottle', 'beer bottle', 'beer'],
  main: 'glass',
  finishes: {
    glass: [
      { hex: '#2e7d4f', roughness: 0.1 },
      { hex: '#7a4a14', roughness: 0.1 },
      { hex: '#8fc6d4', roughness: 0.05 },
    ],
    cap: [
      { hex: '#c9ccd1', metallic: 1, roughness: 0.3 },
      { hex: '#c62828' },
      { hex: '#e3b23c', metallic: 1, roughness: 0.3 },
    ],
    label: { hex: '#f3ecd8', roughness: 0.8 },
  },
  build({ random }) {
    const R = between(random, 0.16, 0.2);
    const neck = between(random, 0.055, 0.07);
    const shoulder = between(random, 0.48, 0.6);
    const neckStart = shoulder + between(random, 0.12, 0.2);
    const top = 0.9;
    const profile: ProfilePoint[] = [
      { r: 0, y: 0 },
      { r: R - 0.02, y: 0, crease: true },
      { r: R, y: 0.02, crease: true },
      { r: R, y: shoulder },
    ];
    for (let k = 1; k <= 10; k++) {
      const t = k / 10;
      profile.push({
        r: neck + ((R - neck) * (1 + Math.cos(Math.PI * t))) / 2,
        y: shoulder + (neckStart - shoulder) * t,
      });
    }
    profile.push({ r: neck, y: top, crease: true }, { r: 0, y: top });
    const capR = neck + 0.012;
    return [
      ...part('glass', latheSolid(profile, SEGMENTS)),
      ...part('cap', cylinder(capR, capR, top - between(random, 0.06, 0.09), top + 0.05, 32)),
      ...part(
        'label',
        cylinder(
          R + 0.003,
          R + 0.003,
          shoulder * between(random, 0.2, 0.35),
          shoulder * between(random, 0.75, 0.9),
          SEGMENTS,
        ),
      ),
    ];
  },
};

/**
 * A vase: foot, round belly, narrow neck, flared lip, and an opening that goes down into
 * the body (the profile turns inward over the lip and ends on the axis inside). Base at y = 0.
 */
function vaseProfile(t: number): ProfilePoint[] {
  const belly = 0.3 + 0.08 * t;
  const neck = 0.12 + 0.04 * t;
  const lip = neck + 0.06;
  const outer: ProfilePoint[] = [
    { r: 0, y: 0 },
    { r: 0.16, y: 0, crease: true },
  ];
  // Smooth outer wall: belly bulge then neck then lip, sampled from a cosine blend.
  const steps = 20;
  for (let i = 1; i <= steps; i++) {
    const s = i / steps; // 0 = foot, 1 = lip
    const bulge = Math.sin(Math.PI * Math.min(1, s / 0.75)) * (belly - 0.16);
    const taper = 0.16 + (neck - 0.16) * Math.min(1, s / 0.75);
    const flare = s > 0.75 ? ((s - 0.75) / 0.25) ** 2 * (lip - neck) : 0;
    outer.push({ r: taper + Math.max(0, bulge) + flare, y: s * 0.98 });
  }
  outer[outer.length - 1]!.crease = true;
  const top = outer[outer.length - 1]!;
  return [
    ...outer,
    { r: top.r - 0.02, y: 1, crease: true },
    { r: neck - 0.025, y: 0.85 },
    { r: 0, y: 0.8 },
  ];
}

/** Outer radius of a profile at height y (linear between the points of its rising part). */
function radiusAt(profile: readonly ProfilePoint[], y: number): number {
  for (let i = 1; i < profile.length; i++) {
    const a = profile[i - 1]!;
    const b = profile[i]!;
    if (b.y < a.y) break;
    if (y >= a.y && y <= b.y && b.y > a.y) return a.r + ((b.r - a.r) * (y - a.y)) / (b.y - a.y);
  }
  return 0;
}

/** A band hugging a lathe profile between heights y0 and y1 (a closed ring profile). */
function bandProfile(profile: readonly ProfilePoint[], y0: number, y1: number): ProfilePoint[] {
  const steps = 8;
  const ys = Array.from({ length: steps + 1 }, (_, i) => y0 + ((y1 - y0) * i) / steps);
  const outer = ys.map((y, i) => ({
    r: radiusAt(profile, y) + 0.006,
    y,
    ...(i === 0 || i === steps ? { crease: true } : {}),
  }));
  const inner = [...ys].reverse().map((y, i) => ({
    r: radiusAt(profile, y) - 0.02,
    y,
    ...(i === 0 || i === steps ? { crease: true } : {}),
  }));
  return [...outer, ...inner];
}

const vase: Template = {
  name: 'vase',
  nouns: ['vase', 'urn', 'jar', 'pot', 'amphora', 'vessel', 'pitcher', 'flower vase'],
  variants: { amphora: 'amphora' },
  main: 'body',
  finishes: {
    body: 'hashed',
    band: { hex: '#e3b23c', metallic: 1, roughness: 0.3 },
    handle: 'main',
  },
  features: { handle: false },
  featureRoles: { handle: 'handle' },
  build({ random, variant, features }) {
    const profile = vaseProfile(random());
    const parts = part('body', latheSolid(profile, SEGMENTS));
    if (random() < 0.5) {
      const y = between(random, 0.3, 0.6);
      parts.push(...part('band', latheSolid(bandProfile(profile, y, y + 0.05), SEGMENTS, true)));
    }
    if (features.has('handle') || variant === 'amphora') {
      // Two loop handles from the shoulder up to the neck, either side (an amphora's).
      const low = between(random, 0.5, 0.58);
      const high = 0.86;
      const ring = handle(
        [radiusAt(profile, low) - 0.02, low],
        [radiusAt(profile, high) - 0.015, high],
        between(random, 0.12, 0.16),
        0.025,
      );
      parts.push(...part('handle', ring, scale(ring, -1, 1, 1)));
    }
    return parts;
  },
};

const barrel: Template = {
  name: 'barrel',
  nouns: ['barrel', 'keg', 'cask'],
  main: 'staves',
  finishes: {
    staves: { hex: '#8a5a34', roughness: 0.8 },
    hoops: { hex: '#4a4a4a', metallic: 1, roughness: 0.5 },
  },
  build({ random }) {
    const segments = 18;
    const H = 1;
    const R0 = between(random, 0.3, 0.34);
    const bulge = between(random, 0.04, 0.07);
    const radius = (y: number): number => R0 + bulge * Math.sin((Math.PI * y) / H);
    const chime = 0.025;
    const profile: ProfilePoint[] = [
      { r: 0, y: chime },
      { r: R0 - chime, y: chime, crease: true },
      { r: R0 - chime, y: 0, crease: true },
      { r: R0, y: 0, crease: true },
    ];
    for (let k = 1; k < 12; k++) profile.push({ r: radius((H * k) / 12), y: (H * k) / 12 });
    profile.push(
      { r: R0, y: H, crease: true },
      { r: R0 - chime, y: H, crease: true },
      { r: R0 - chime, y: H - chime, crease: true },
      { r: 0, y: H - chime },
    );
    const hoops = [0.1, 0.3, 0.7, 0.9].map((f) => {
      const [y0, y1] = [H * f - 0.025, H * f + 0.025];
      const r = Math.max(radius(y0), radius(y1));
      return flatShade(
        latheSolid(
          [
            { r: r - 0.02, y: y0, crease: true },
            { r: r + 0.008, y: y0, crease: true },
            { r: r + 0.008, y: y1, crease: true },
            { r: r - 0.02, y: y1, crease: true },
          ],
          segments,
          true,
        ),
      );
    });
    return [
      ...part('staves', flatShade(latheSolid(profile, segments))),
      ...part('hoops', ...hoops),
    ];
  },
};

const candle: Template = {
  name: 'candle',
  nouns: ['candle', 'candlestick', 'taper'],
  main: 'wax',
  finishes: {
    wax: { hex: '#f3ecd8', roughness: 0.5 },
    holder: { hex: '#b08d57', metallic: 1, roughness: 0.35 },
    wick: { hex: '#1c1c1c', roughness: 0.9 },
    flame: { hex: '#ffb52e', roughness: 1 },
  },
  build({ random }) {
    const holder = latheSolid(
      [
        { r: 0, y: 0 },
        { r: 0.26, y: 0, crease: true },
        { r: 0.3, y: 0.06, crease: true },
        { r: 0.28, y: 0.065, crease: true },
        { r: 0.24, y: 0.025, crease: true },
        { r: 0, y: 0.025 },
      ],
      SEGMENTS,
    );
    const rc = between(random, 0.09, 0.13);
    const hc = between(random, 0.6, 0.72);
    const wax = latheSolid(
      [
        { r: 0, y: 0.015 },
        { r: rc, y: 0.015, crease: true },
        { r: rc, y: hc - 0.015 },
        { r: rc - 0.015, y: hc, crease: true },
        { r: 0, y: hc - 0.01 },
      ],
      SEGMENTS,
    );
    const wick = cylinder(0.008, 0.006, hc - 0.03, hc + 0.05, 12);
    const length = between(random, 0.16, 0.22);
    const width = between(random, 0.035, 0.045);
    const flameProfile: ProfilePoint[] = [];
    for (let k = 0; k <= 16; k++) {
      const t = k / 16;
      flameProfile.push({
        r: k === 0 || k === 16 ? 0 : width * Math.sin(Math.PI * t ** 0.65),
        y: hc + 0.035 + length * t,
      });
    }
    return [
      ...part('holder', holder),
      ...part('wax', wax),
      ...part('wick', wick),
      ...part('flame', latheSolid(flameProfile, 24)),
    ];
  },
};

const can: Template = {
  name: 'can',
  nouns: ['can', 'tin', 'soda', 'soda can', 'tin can'],
  main: 'label',
  finishes: {
    label: 'hashed',
    metal: { hex: '#c9ccd1', metallic: 1, roughness: 0.3 },
  },
  build({ random }) {
    const r = between(random, 0.26, 0.32);
    const h = 1;
    const metal = latheSolid(
      [
        { r: 0, y: 0.015 },
        { r: r * 0.8, y: 0.015, crease: true },
        { r: r * 0.84, y: 0, crease: true },
        { r: r * 0.9, y: 0, crease: true },
        { r, y: 0.07, crease: true },
        { r, y: h - 0.08, crease: true },
        { r: r * 0.86, y: h - 0.015, crease: true },
        { r: r * 0.88, y: h, crease: true },
        { r: r * 0.8, y: h, crease: true },
        { r: r * 0.78, y: h - 0.015, crease: true },
        { r: 0, y: h - 0.015 },
      ],
      SEGMENTS,
    );
    const label = cylinder(r + 0.003, r + 0.003, 0.1, h - 0.11, SEGMENTS);
    return [...part('metal', metal), ...part('label', label)];
  },
};

export const VESSELS: readonly Template[] = [mug, cup, bowl, bottle, vase, barrel, candle, can];
