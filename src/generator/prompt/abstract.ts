/**
 * Abstract forms for prompts that name no known object: a smooth shape whose family and
 * parameters all come from the prompt's seeded random numbers, so different prompts give
 * visibly different forms and the same prompt always gives the same one.
 */
import { between, type Random } from './finish.ts';
import {
  flatShade,
  latheSolid,
  polarDirection,
  polarSurface,
  rotateY,
  rotateZ,
  type Solid,
  type Vec3,
} from './geometry/index.ts';

export type AbstractFamily = 'blob' | 'spindle' | 'twist' | 'crystals';

export const ABSTRACT_FAMILIES: readonly AbstractFamily[] = [
  'blob',
  'spindle',
  'twist',
  'crystals',
];

interface Wave {
  amplitude: number;
  direction: Vec3;
  frequency: number;
  phase: number;
}

function randomDirection(random: Random): Vec3 {
  const y = between(random, -1, 1);
  const a = between(random, 0, 2 * Math.PI);
  const r = Math.sqrt(1 - y * y);
  return [r * Math.cos(a), y, r * Math.sin(a)];
}

/** A sphere displaced by a few seeded low-frequency waves, then stretched. */
function blob(random: Random): Solid {
  const waves: Wave[] = Array.from({ length: 4 }, () => ({
    amplitude: between(random, 0.06, 0.16),
    direction: randomDirection(random),
    frequency: between(random, 1.5, 3.5),
    phase: between(random, 0, 2 * Math.PI),
  }));
  const stretch = between(random, 0.8, 1.35);
  return polarSurface(40, 64, (u, v) => {
    const d = polarDirection(u, v);
    let r = 1;
    for (const w of waves) {
      const dot = d[0] * w.direction[0] + d[1] * w.direction[1] + d[2] * w.direction[2];
      r += w.amplitude * Math.sin(w.frequency * dot + w.phase);
    }
    r = 0.5 * Math.max(0.45, r);
    return [r * d[0], r * d[1] * stretch, r * d[2]];
  });
}

/** A lathe-like body with a seeded wavy profile, optionally fluted. */
function spindle(random: Random): Solid {
  const base = between(random, 0.2, 0.3);
  const terms = Array.from({ length: 3 }, (_, k) => ({
    amplitude: between(random, 0.03, 0.12) / (k + 1),
    frequency: k + 1 + random(),
    phase: between(random, 0, 2 * Math.PI),
  }));
  const flutes = random() < 0.5 ? 0 : 3 + Math.floor(random() * 6);
  const fluteDepth = between(random, 0.03, 0.08);
  const flat = between(random, 0.2, 0.5);
  return polarSurface(48, 64, (u, v) => {
    const phi = 2 * Math.PI * v;
    let r = base;
    for (const t of terms) r += t.amplitude * Math.sin(2 * Math.PI * t.frequency * u + t.phase);
    r = Math.max(0.06, r) * Math.sin(Math.PI * u) ** flat;
    if (flutes) r *= 1 + fluteDepth * Math.cos(flutes * phi);
    return [r * Math.cos(phi), u, r * Math.sin(phi)];
  });
}

/** A twisted, tapered column with a superellipse cross-section and rounded ends. */
function twist(random: Random): Solid {
  const p = between(random, 2.5, 6);
  const a = between(random, 0.25, 0.4);
  const b = between(random, 0.15, 0.3);
  const turns = between(random, -2.5, 2.5);
  const taper = between(random, -0.4, 0.5);
  const height = 1;
  const edge = 0.15;
  return polarSurface(48, 64, (u, v) => {
    const phi = 2 * Math.PI * v;
    let scale: number;
    let y: number;
    if (u < edge) {
      const al = (u / edge) * (Math.PI / 2);
      scale = Math.sin(al);
      y = 0.06 * (1 - Math.cos(al));
    } else if (u > 1 - edge) {
      const al = ((1 - u) / edge) * (Math.PI / 2);
      scale = Math.sin(al);
      y = height - 0.06 * (1 - Math.cos(al));
    } else {
      scale = 1;
      y = 0.06 + ((height - 0.12) * (u - edge)) / (1 - 2 * edge);
    }
    const c = Math.cos(phi);
    const s = Math.sin(phi);
    const x0 = a * Math.sign(c) * Math.abs(c) ** (2 / p);
    const z0 = b * Math.sign(s) * Math.abs(s) ** (2 / p);
    const k = scale * (1 - taper * (y / height));
    const rot = turns * (y / height);
    return [
      k * (x0 * Math.cos(rot) - z0 * Math.sin(rot)),
      y,
      k * (x0 * Math.sin(rot) + z0 * Math.cos(rot)),
    ];
  });
}

/** A cluster of faceted hexagonal crystals leaning out from a common base. */
function crystals(random: Random): Solid[] {
  const n = 3 + Math.floor(random() * 4);
  const out: Solid[] = [];
  for (let i = 0; i < n; i++) {
    const w = between(random, 0.06, 0.12);
    const length = i === 0 ? 0.85 : between(random, 0.35, 0.7);
    const tip = w * between(random, 1.2, 2);
    const crystal = latheSolid(
      [
        { r: 0, y: 0 },
        { r: w, y: 0, crease: true },
        { r: w, y: length, crease: true },
        { r: 0, y: length + tip },
      ],
      6,
    );
    const lean = i === 0 ? between(random, -0.1, 0.1) : between(random, 0.3, 0.8);
    out.push(flatShade(rotateY(rotateZ(crystal, lean), between(random, 0, 2 * Math.PI))));
  }
  return out;
}

/** The solids of the abstract form for a prompt's random numbers, and its family. */
export function abstractForm(random: Random): { family: AbstractFamily; solids: Solid[] } {
  const family = ABSTRACT_FAMILIES[Math.floor(random() * ABSTRACT_FAMILIES.length)]!;
  switch (family) {
    case 'blob':
      return { family, solids: [blob(random)] };
    case 'spindle':
      return { family, solids: [spindle(random)] };
    case 'twist':
      return { family, solids: [twist(random)] };
    case 'crystals':
      return { family, solids: crystals(random) };
  }
}
