/** Templates for animals and beasts: cat (and dog), rubber duck, dragon. */
import {
  capsule,
  cylinder,
  ellipsoid,
  flatShade,
  along,
  placeIn,
  polarDirection,
  polarSurface,
  prism,
  rotateX,
  rotateY,
  rotateZ,
  scale,
  smoothPath,
  sphere,
  translate,
  tube,
  type Solid,
  type Vec3,
} from './geometry/index.ts';
import { between, part, type Part, type Template } from './template.ts';

/** A point on an ellipsoid (centre c, radii r) in direction d, pushed in by `sink`. */
function onEllipsoid(c: Vec3, r: Vec3, d: Vec3, sink = 0): Vec3 {
  const len = Math.hypot(d[0] / r[0], d[1] / r[1], d[2] / r[2]);
  const k = 1 / len;
  const n = Math.hypot(...d);
  return [
    c[0] + d[0] * k - (sink * d[0]) / n,
    c[1] + d[1] * k - (sink * d[1]) / n,
    c[2] + d[2] * k - (sink * d[2]) / n,
  ];
}

/** A flat, pointed ear (a four-sided pyramid squashed front to back), base at the origin. */
function ear(width: number, height: number, depth: number): Solid {
  return flatShade(scale(rotateY(cylinder(1, 0, 0, 1, 4), Math.PI / 4), width, height, depth));
}

/** A small top hat, brim at the origin. */
function topHat(r: number): Solid[] {
  return [cylinder(r * 1.6, r * 1.6, 0, r * 0.12, 32), cylinder(r, r * 0.95, 0.01, r * 1.3, 32)];
}

/** A feathered wing in the plane of local x (back) and y (out), centred in z. */
function featherWing(length: number, thickness: number): Solid {
  const outline: [number, number][] = [
    [-0.05, 0],
    [0.05, 0.55],
    [0.3, 1],
    [0.45, 0.8],
    [0.5, 0.85],
    [0.6, 0.6],
    [0.66, 0.62],
    [0.72, 0.35],
    [0.8, 0.36],
    [0.7, 0.1],
    [0.55, 0],
  ];
  return prism(
    outline.map(([x, y]) => [x * length, y * length] as [number, number]),
    thickness,
  );
}

/**
 * A pair of feathered wings at `shoulder` (mirrored across the axis `across`, 0 = x or 2 = z),
 * spread sideways and lifted by `lift` radians. `flat` wings lie in the plane of the spread and
 * the `back` direction (a bird's); otherwise they stand in the plane across (an angel's).
 */
function wingPair(
  shoulder: Vec3,
  length: number,
  lift: number,
  across: 0 | 2,
  back: Vec3 | null,
): Solid[] {
  return [1, -1].map((side) => {
    const span: Vec3 = [0, Math.sin(lift), 0];
    span[across] = side * Math.cos(lift);
    let chord: Vec3;
    if (back) chord = back;
    else {
      chord = [0, -Math.cos(lift), 0];
      chord[across] = side * Math.sin(lift);
    }
    const at: Vec3 = [...shoulder];
    at[across] = side * shoulder[across];
    return placeIn(featherWing(length, 0.014), chord, span, at);
  });
}

/** A cat's (or fox's) pointed ears with their pink insides, or a dog's floppy ones. */
function catEars(
  fur: Solid[],
  parts: Part[],
  dog: boolean,
  fox: boolean,
  headC: Vec3,
  headR: Vec3,
): void {
  for (const side of [-1, 1]) {
    if (dog) {
      // Floppy ears hanging at the sides of the head.
      fur.push(
        translate(
          rotateZ(ellipsoid(0.045, 0.1, 0.025, 0, 0, 0, 10, 16), side * 0.25),
          side * 0.15,
          0.66,
          headC[2] - 0.01,
        ),
      );
    } else {
      const h = fox ? 0.16 : 0.12;
      fur.push(
        translate(
          rotateZ(ear(0.075, h, 0.035), -side * 0.3),
          side * 0.095,
          headC[1] + headR[1] * 0.62,
          headC[2] - 0.01,
        ),
      );
      parts.push(
        ...part(
          'nose',
          translate(
            rotateZ(ear(0.045, h * 0.7, 0.02), -side * 0.3),
            side * 0.097,
            headC[1] + headR[1] * 0.62 + 0.01,
            headC[2] + 0.004,
          ),
        ),
      );
    }
  }
}

/** Three whiskers a side of a muzzle whose front is at `muzzleZ`. */
function whiskers(muzzleZ: number): Solid[] {
  const out: Solid[] = [];
  for (const side of [-1, 1])
    for (const dy of [-0.015, 0, 0.015]) {
      const from: Vec3 = [side * 0.05, 0.63 + dy * 0.5, muzzleZ + 0.015];
      const to: Vec3 = [side * 0.19, 0.63 + dy * 2.2, muzzleZ - 0.01];
      out.push(along(cylinder(0.0035, 0.002, 0, 0.15, 6), from, to));
    }
  return out;
}

const cat: Template = {
  name: 'cat',
  nouns: ['cat', 'kitten', 'kitty', 'tabby', 'dog', 'puppy', 'doggy', 'fox'],
  variants: { dog: 'dog', puppy: 'dog', doggy: 'dog', fox: 'fox' },
  main: 'fur',
  finishes: {
    fur: [
      { hex: '#d9822b', roughness: 0.9 },
      { hex: '#8a8a8a', roughness: 0.9 },
      { hex: '#2a2a2a', roughness: 0.85 },
      { hex: '#efefef', roughness: 0.9 },
      { hex: '#9c7a54', roughness: 0.9 },
    ],
    eyes: [
      { hex: '#9ccf3a', roughness: 0.1 },
      { hex: '#f0a020', roughness: 0.1 },
    ],
    pupils: { hex: '#111111', roughness: 0.1 },
    nose: { hex: '#e58a9a', roughness: 0.5 },
    whiskers: { hex: '#f5f5f5', roughness: 0.6 },
    hat: { hex: '#1c1c1c', roughness: 0.5 },
    wings: { hex: '#f7f7f7', roughness: 0.8 },
  },
  variantFinishes: {
    dog: {
      fur: [
        { hex: '#c8964f', roughness: 0.9 },
        { hex: '#7a4e2d', roughness: 0.9 },
        { hex: '#2a2a2a', roughness: 0.85 },
        { hex: '#efe6d6', roughness: 0.9 },
      ],
      eyes: { hex: '#4a2a14', roughness: 0.1 },
      nose: { hex: '#1c1c1c', roughness: 0.3 },
    },
    fox: { fur: { hex: '#d9622b', roughness: 0.9 }, eyes: { hex: '#f0a020', roughness: 0.1 } },
  },
  features: { tail: true, hat: false, wings: false },
  featureRoles: { hat: 'hat', wings: 'wings', tail: 'fur' },
  build({ random, variant, features }) {
    const dog = variant === 'dog';
    const fox = variant === 'fox';
    const fur: Solid[] = [];
    const parts: Part[] = [];
    // Body: an egg leaning back; haunches either side; front legs and paws.
    const bodyC: Vec3 = [0, 0.3, -0.03];
    fur.push(
      translate(
        rotateX(
          ellipsoid(between(random, 0.18, 0.21), 0.3, 0.21, 0, 0, 0, 16, 28),
          between(random, -0.24, -0.12),
        ),
        ...bodyC,
      ),
      ellipsoid(0.11, 0.14, 0.19, 0.13, 0.14, -0.07, 12, 20),
      ellipsoid(0.11, 0.14, 0.19, -0.13, 0.14, -0.07, 12, 20),
    );
    const legR = dog ? 0.052 : 0.045;
    for (const x of [-0.075, 0.075]) {
      fur.push(capsule([x, 0.06, 0.13], [x * 0.9, 0.4, 0.06], legR, 14));
      fur.push(ellipsoid(0.055, 0.035, 0.075, x, 0.035, 0.16, 10, 16));
    }
    // Head, cheeks (muzzle), nose, eyes, ears.
    const headC: Vec3 = [0, 0.68, 0.06];
    const headScale = between(random, 0.95, 1.08);
    const headR: Vec3 = [0.165 * headScale, 0.145 * headScale, 0.15 * headScale];
    fur.push(ellipsoid(...headR, ...headC, 16, 28));
    const snout = dog ? 0.13 : fox ? 0.1 : 0.035;
    const muzzleZ = headC[2] + headR[2] - 0.04 + snout * 0.6;
    if (dog || fox) {
      fur.push(
        along(
          scale(cylinder(1, 0.8, 0, 1, 20), 0.07, snout + 0.08, 0.058),
          [0, 0.63, headC[2] + 0.08],
          [0, 0.63, headC[2] + 0.16 + snout],
        ),
      );
    } else {
      for (const x of [-0.04, 0.04]) fur.push(sphere(0.05, x, 0.63, muzzleZ - 0.01, 10, 14));
    }
    const noseZ = dog || fox ? headC[2] + 0.16 + snout : muzzleZ + 0.035;
    parts.push(
      ...part(
        'nose',
        ellipsoid(
          dog ? 0.03 : 0.02,
          dog ? 0.02 : 0.013,
          0.016,
          0,
          dog || fox ? 0.655 : 0.66,
          noseZ,
        ),
      ),
    );
    const eyes: Solid[] = [];
    const pupils: Solid[] = [];
    for (const x of [-0.062, 0.062]) {
      const p = onEllipsoid(headC, headR, [x, 0.035, 0.14], 0.008);
      eyes.push(ellipsoid(0.03, 0.034, 0.016, ...p, 10, 14));
      pupils.push(
        ellipsoid(dog ? 0.016 : 0.008, dog ? 0.016 : 0.026, 0.008, p[0], p[1], p[2] + 0.011, 8, 12),
      );
    }
    parts.push(...part('eyes', ...eyes), ...part('pupils', ...pupils));
    catEars(fur, parts, dog, fox, headC, headR);
    if (!dog) parts.push(...part('whiskers', ...whiskers(muzzleZ)));
    if (features.has('tail')) {
      // Around the body on the ground, its tip coming forward on the right.
      const bushy = fox ? 1.5 : 1;
      const path = smoothPath(
        [
          [0, 0.12, -0.2],
          [0.12, 0.045, -0.25],
          [0.24, 0.045, -0.12],
          [0.25, 0.045, 0.04],
          [0.19, 0.05, 0.15],
        ],
        6,
      );
      fur.push(
        tube(
          path,
          (t) => (t >= 1 ? 0 : 0.036 * bushy * (1 - 0.25 * t) * Math.min(1, (1 - t) * 12)),
          12,
        ),
      );
    }
    if (features.has('hat')) {
      const top = headC[1] + headR[1] - 0.02;
      parts.push(
        ...part(
          'hat',
          ...topHat(0.06).map((s) => translate(rotateZ(s, 0.15), -0.02, top, headC[2] - 0.02)),
        ),
      );
    }
    if (features.has('wings'))
      parts.push(...part('wings', ...wingPair([0.06, 0.5, -0.14], 0.4, 0.85, 0, null)));
    return [...part('fur', ...fur), ...parts];
  },
};

const duck: Template = {
  name: 'duck',
  nouns: ['duck', 'rubber duck', 'rubber ducky', 'ducky', 'duckling', 'bath duck', 'chick'],
  main: 'body',
  finishes: {
    body: { hex: '#f6c915', roughness: 0.45 },
    beak: { hex: '#ef6c00', roughness: 0.4 },
    eyes: { hex: '#1c1c1c', roughness: 0.2 },
    hat: { hex: '#1c1c1c', roughness: 0.5 },
  },
  features: { wings: true, hat: false },
  featureRoles: { hat: 'hat', wings: 'body' },
  build({ random, features }) {
    const tail = between(random, 0.1, 0.16);
    // Body: an ellipsoid with a flattened bottom and a tail raised at the back (−x).
    const body = polarSurface(28, 40, (u, v) => {
      const d = polarDirection(u, v);
      const back = Math.max(0, -d[0]);
      const up = Math.max(0, d[1]);
      return [
        0.3 * d[0] - 0.05 * back ** 3 * up,
        0.2 + (d[1] < 0 ? 0.13 : 0.2) * d[1] + tail * back ** 4 * (0.4 + up),
        0.24 * d[2] * (1 - 0.3 * back ** 3),
      ];
    });
    const headC: Vec3 = [0.14, 0.5, 0];
    const headR = between(random, 0.15, 0.17);
    const parts: Part[] = part('body', body, sphere(headR, ...headC, 18, 28));
    parts.push(
      ...part(
        'beak',
        ellipsoid(0.1, 0.03, 0.085, headC[0] + headR * 0.95, headC[1] - 0.03, 0, 10, 16),
        ellipsoid(0.08, 0.02, 0.065, headC[0] + headR * 0.9, headC[1] - 0.06, 0, 10, 16),
      ),
    );
    const eyes: Solid[] = [];
    for (const side of [-1, 1]) {
      const d: Vec3 = [0.62, 0.42, side * 0.66];
      const len = Math.hypot(...d);
      const p = d.map((c, k) => headC[k]! + (c / len) * (headR - 0.008)) as Vec3;
      eyes.push(sphere(0.026, ...p, 10, 14));
    }
    parts.push(...part('eyes', ...eyes));
    if (features.has('wings')) {
      for (const side of [-1, 1]) {
        parts.push(
          ...part(
            'body',
            translate(
              rotateZ(ellipsoid(0.15, 0.085, 0.045, 0, 0, 0, 10, 16), 0.25),
              -0.04,
              0.25,
              side * 0.215,
            ),
          ),
        );
      }
    }
    if (features.has('hat'))
      parts.push(
        ...part(
          'hat',
          ...topHat(0.065).map((s) =>
            translate(rotateZ(s, -0.2), headC[0] - 0.02, headC[1] + headR - 0.02, 0),
          ),
        ),
      );
    // Facing a little towards the viewer (front is +z).
    return parts.map((p) => ({ role: p.role, solid: rotateY(p.solid, -0.6) }));
  },
};

/** A bat-like wing in local x (back) and y (out): bones and a membrane between them. */
function dragonWing(size: number): { membrane: Solid; bones: Solid[] } {
  const elbow: [number, number] = [0.02, 0.32];
  const tips: [number, number][] = [
    [0.34, 0.58],
    [0.46, 0.36],
    [0.44, 0.16],
  ];
  const outline: [number, number][] = [
    [-0.04, 0],
    elbow,
    tips[0]!,
    [0.34, 0.43],
    tips[1]!,
    [0.36, 0.25],
    tips[2]!,
    [0.28, 0.08],
    [0.24, 0],
  ];
  const s = (p: [number, number]): Vec3 => [p[0] * size, p[1] * size, 0];
  const membrane = prism(
    outline.map(([x, y]) => [x * size, y * size] as [number, number]),
    0.01,
  );
  const bones = [
    tube([s([0, 0]), s(elbow)], (t) => 0.024 - 0.008 * t, 8),
    ...tips.map((tip) => tube([s(elbow), s(tip)], (t) => (t >= 1 ? 0 : 0.014 * (1 - 0.6 * t)), 8)),
  ];
  return { membrane, bones };
}

const dragon: Template = {
  name: 'dragon',
  nouns: ['dragon', 'wyvern', 'drake', 'dragon figurine'],
  main: 'scales',
  finishes: {
    scales: [
      { hex: '#3f7d3a', roughness: 0.5 },
      { hex: '#a3261e', roughness: 0.5 },
      { hex: '#5b3a8a', roughness: 0.5 },
      { hex: '#2b5d9a', roughness: 0.5 },
      { hex: '#2b2b2b', roughness: 0.45 },
    ],
    wings: { main: 0.55 },
    spikes: { main: 0.45 },
    horns: { hex: '#e8dfc8', roughness: 0.5 },
    eyes: { hex: '#f6c915', roughness: 0.15 },
  },
  features: { wings: true, horns: true, tail: true },
  featureRoles: { wings: 'wings', horns: 'horns' },
  build({ random, features }) {
    const scales: Solid[] = [];
    const parts: Part[] = [];
    // The spine, from the tail's tip to the back of the head, and its thickness along the way.
    const tailPoints: Vec3[] = features.has('tail')
      ? [
          [-0.62, 0.06, 0.3],
          [-0.72, 0.05, 0.08],
          [-0.52, 0.14, -0.04],
        ]
      : [];
    const spine: Vec3[] = [
      ...tailPoints,
      [-0.3, 0.34, 0],
      [-0.05, 0.4, 0],
      [0.14, 0.42, 0],
      [0.26, 0.56, 0],
      [0.32, 0.74, 0],
    ];
    const path = smoothPath(spine, 8);
    const tailShare = tailPoints.length / (spine.length - 1);
    const radius = (t: number): number => {
      if (t < tailShare) return t < 0.005 ? 0 : 0.012 + (0.14 - 0.012) * (t / tailShare) ** 1.4;
      const s = (t - tailShare) / (1 - tailShare);
      if (s < 0.5) return 0.14 + 0.025 * Math.sin(Math.PI * (s / 0.5));
      return 0.14 - 0.08 * Math.min(1, (s - 0.5) / 0.3);
    };
    scales.push(tube(path, radius, 16));
    // Without a tail, the rump is rounded off.
    if (!features.has('tail')) scales.push(sphere(0.138, -0.3, 0.34, 0, 14, 22));
    // Head, snout, eyes, horns.
    const headC: Vec3 = [0.4, 0.8, 0];
    scales.push(
      translate(rotateZ(ellipsoid(0.12, 0.085, 0.09, 0, 0, 0, 14, 22), -0.15), ...headC),
      translate(rotateZ(ellipsoid(0.11, 0.055, 0.065, 0, 0, 0, 12, 18), -0.2), 0.5, 0.76, 0),
    );
    parts.push(
      ...part('eyes', ...[-1, 1].map((side) => sphere(0.02, 0.44, 0.83, side * 0.068, 8, 12))),
    );
    if (features.has('horns')) {
      const horns = [-1, 1].map((side) =>
        tube(
          smoothPath(
            [
              [0.36, 0.84, side * 0.05],
              [0.28, 0.93, side * 0.07],
              [0.2, 0.96, side * 0.09],
            ],
            5,
          ),
          (t) => (t >= 1 ? 0 : 0.028 * (1 - t) + 0.004),
          10,
        ),
      );
      parts.push(...part('horns', ...horns));
    }
    // Legs: thigh, shin and foot; hind legs at the hips, front legs at the chest.
    const legs: [Vec3, Vec3, Vec3][] = [
      [
        [-0.25, 0.33, 0.11],
        [-0.16, 0.17, 0.15],
        [-0.24, 0.04, 0.15],
      ],
      [
        [0.13, 0.36, 0.09],
        [0.17, 0.19, 0.12],
        [0.15, 0.04, 0.12],
      ],
    ];
    for (const [hip, knee, ankle] of legs) {
      for (const side of [-1, 1]) {
        const m = (p: Vec3): Vec3 => [p[0], p[1], side * p[2]];
        scales.push(
          capsule(m(hip), m(knee), 0.055, 12),
          capsule(m(knee), m(ankle), 0.04, 12),
          ellipsoid(0.075, 0.03, 0.045, ankle[0] + 0.04, 0.03, side * ankle[2], 8, 14),
        );
      }
    }
    // Spikes along the back, from the neck to the tail.
    const spikes: Solid[] = [];
    for (let i = 2; i < path.length - 6; i += 3) {
      const t = i / (path.length - 1);
      const r = radius(t);
      if (r < 0.03) continue;
      const p = path[i]!;
      const h = 0.03 + r * 0.35;
      spikes.push(
        flatShade(
          along(
            scale(cylinder(1, 0, 0, 1, 4), r * 0.28, h, r * 0.18),
            [p[0], p[1] + r * 0.75, p[2]],
            [p[0] - 0.2, p[1] + 1, p[2]],
          ),
        ),
      );
    }
    parts.push(...part('spikes', ...spikes));
    if (features.has('wings')) {
      const size = between(random, 0.95, 1.1);
      const lift = between(random, 0.75, 0.95);
      const wings: Solid[] = [];
      for (const side of [1, -1]) {
        const { membrane, bones } = dragonWing(size);
        const y: Vec3 = [0.15, Math.sin(lift), side * Math.cos(lift)];
        const len = Math.hypot(...y);
        const yy = y.map((c) => c / len) as Vec3;
        // x: backwards, made orthogonal to y.
        const back: Vec3 = [-1, 0, 0];
        const dot = back[0] * yy[0];
        const xx = [back[0] - dot * yy[0], -dot * yy[1], -dot * yy[2]] as Vec3;
        const xl = Math.hypot(...xx);
        const x = xx.map((c) => c / xl) as Vec3;
        const shoulder: Vec3 = [0.02, 0.5, side * 0.08];
        wings.push(placeIn(membrane, x, yy, shoulder));
        scales.push(...bones.map((b) => placeIn(b, x, yy, shoulder)));
      }
      parts.push(...part('wings', ...wings));
    }
    return [...part('scales', ...scales), ...parts].map((p) => ({
      role: p.role,
      solid: rotateY(p.solid, -0.5),
    }));
  },
};

export const CREATURES: readonly Template[] = [cat, duck, dragon];
