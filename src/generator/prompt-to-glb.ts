import { GeneratorInputError } from './errors.ts';
import { writeGlb, type MaterialSpec } from './glb.ts';
import type { MeshData } from './mesh.ts';
import { box, circleProfile, lathe, sphereProfile, type ProfilePoint } from './shapes.ts';

export type ShapeKind = 'cube' | 'box' | 'sphere' | 'cylinder' | 'cone' | 'torus' | 'vase';

/** Shapes a prompt without a shape word can get (by hash). */
const HASHED_SHAPES: readonly ShapeKind[] = ['box', 'sphere', 'cylinder', 'cone', 'torus', 'vase'];
const ALL_SHAPES: readonly ShapeKind[] = ['cube', ...HASHED_SHAPES];

/** Words that pick a shape; the first such word in the prompt wins. */
const SHAPE_WORDS: Record<ShapeKind, readonly string[]> = {
  cube: ['cube', 'dice', 'die'],
  box: [
    'box',
    'crate',
    'block',
    'brick',
    'dice',
    'die',
    'chest',
    'cabinet',
    'house',
    'building',
    'book',
    'fridge',
  ],
  sphere: [
    'ball',
    'sphere',
    'orb',
    'globe',
    'planet',
    'moon',
    'apple',
    'pearl',
    'marble',
    'bubble',
    'head',
  ],
  cylinder: [
    'cylinder',
    'can',
    'tube',
    'pipe',
    'pillar',
    'column',
    'barrel',
    'drum',
    'log',
    'tower',
    'candle',
    'battery',
  ],
  cone: ['cone', 'pyramid', 'tree', 'spike', 'horn', 'hat', 'volcano', 'spire'],
  torus: [
    'ring',
    'donut',
    'doughnut',
    'torus',
    'tire',
    'tyre',
    'wheel',
    'bagel',
    'hoop',
    'halo',
    'bracelet',
  ],
  vase: [
    'vase',
    'pot',
    'jar',
    'urn',
    'bottle',
    'cup',
    'mug',
    'bowl',
    'goblet',
    'chalice',
    'vessel',
    'amphora',
    'teapot',
  ],
};

interface Finish {
  /** sRGB hex. */
  hex: string;
  metallic?: number;
  roughness?: number;
}

/** Colour (and finish) words; the first such word in the prompt wins. */
const COLOUR_WORDS: Record<string, Finish> = {
  red: { hex: '#c62828' },
  crimson: { hex: '#a3142c' },
  scarlet: { hex: '#e0301e' },
  orange: { hex: '#ef6c00' },
  yellow: { hex: '#f6c915' },
  green: { hex: '#2e7d32' },
  lime: { hex: '#8bc34a' },
  emerald: { hex: '#1f9d63' },
  teal: { hex: '#00897b' },
  cyan: { hex: '#00acc1' },
  turquoise: { hex: '#30c5b5' },
  blue: { hex: '#1e5bc6' },
  navy: { hex: '#1a2a6c' },
  purple: { hex: '#6a1b9a' },
  violet: { hex: '#7e57c2' },
  lavender: { hex: '#b39ddb' },
  pink: { hex: '#ec6fa5' },
  magenta: { hex: '#c2185b' },
  brown: { hex: '#6d4c41' },
  wooden: { hex: '#9a6b3f', roughness: 0.7 },
  wood: { hex: '#9a6b3f', roughness: 0.7 },
  beige: { hex: '#d8c8a8' },
  white: { hex: '#f2f2f2' },
  ivory: { hex: '#f3ecd8' },
  black: { hex: '#1c1c1c' },
  grey: { hex: '#808080' },
  gray: { hex: '#808080' },
  gold: { hex: '#e3b23c', metallic: 1, roughness: 0.3 },
  golden: { hex: '#e3b23c', metallic: 1, roughness: 0.3 },
  silver: { hex: '#c9ccd1', metallic: 1, roughness: 0.25 },
  copper: { hex: '#c0784a', metallic: 1, roughness: 0.35 },
  bronze: { hex: '#a97142', metallic: 1, roughness: 0.4 },
  chrome: { hex: '#dfe3e8', metallic: 1, roughness: 0.1 },
  steel: { hex: '#9aa0a6', metallic: 1, roughness: 0.35 },
  iron: { hex: '#6e6e6e', metallic: 1, roughness: 0.5 },
  metal: { hex: '#a8adb3', metallic: 1, roughness: 0.35 },
  metallic: { hex: '#a8adb3', metallic: 1, roughness: 0.35 },
};

/** 32-bit FNV-1a over UTF-16 code units. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The prompt's words, lower-cased. */
function words(prompt: string): string[] {
  return prompt.toLowerCase().match(/[a-z]+/g) ?? [];
}

function lookup<T>(word: string, table: (w: string) => T | undefined): T | undefined {
  return (
    table(word) ??
    (word.endsWith('es') ? table(word.slice(0, -2)) : undefined) ??
    (word.endsWith('s') ? table(word.slice(0, -1)) : undefined)
  );
}

function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function hexToLinear(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => srgbToLinear(v / 255)) as [
    number,
    number,
    number,
  ];
}

/** sRGB (0..1) from HSL; used for a hash-derived colour when the prompt names none. */
function hslToSrgb(h: number, s: number, l: number): [number, number, number] {
  const f = (n: number): number => {
    const k = (n + h * 12) % 12;
    return l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}

export interface PromptPlan {
  shape: ShapeKind;
  /** Linear RGB. */
  colour: [number, number, number];
  metallic: number;
  roughness: number;
  /** 0..1, varies the proportions deterministically. */
  variation: number;
}

/** Reads shape and colour from the prompt's words, falling back to a hash of the prompt. */
export function planPrompt(prompt: string): PromptPlan {
  const normalised = prompt.trim().toLowerCase().replace(/\s+/g, ' ');
  const h = hash(normalised);
  const tokens = words(normalised);

  let shape: ShapeKind | undefined;
  let finish: Finish | undefined;
  for (const word of tokens) {
    shape ??= lookup(word, (w) => ALL_SHAPES.find((kind) => SHAPE_WORDS[kind].includes(w)));
    finish ??= lookup(word, (w) => (Object.hasOwn(COLOUR_WORDS, w) ? COLOUR_WORDS[w] : undefined));
  }
  shape ??= HASHED_SHAPES[h % HASHED_SHAPES.length]!;
  const colour = finish
    ? hexToLinear(finish.hex)
    : (hslToSrgb(((h >>> 8) % 360) / 360, 0.55, 0.55).map(srgbToLinear) as [
        number,
        number,
        number,
      ]);
  return {
    shape,
    colour,
    metallic: finish?.metallic ?? 0,
    roughness: finish?.roughness ?? 0.6,
    variation: ((h >>> 20) % 1000) / 999,
  };
}

/** The solid for a plan, about 1 unit tall (flat shapes: 1 unit across), centred at the origin. */
function buildShape(shape: ShapeKind, t: number): MeshData {
  const segments = 48;
  switch (shape) {
    case 'cube':
      return box(1, 1, 1);
    case 'box': {
      const w = 0.7 + 0.3 * t;
      return box(w, 1, 0.6 + 0.4 * (1 - t));
    }
    case 'sphere':
      return lathe(sphereProfile(0.5, 24), segments);
    case 'cylinder': {
      const r = 0.25 + 0.15 * t;
      const profile: ProfilePoint[] = [
        { r: 0, y: -0.5 },
        { r, y: -0.5, crease: true },
        { r, y: 0.5, crease: true },
        { r: 0, y: 0.5 },
      ];
      return lathe(profile, segments);
    }
    case 'cone': {
      const r = 0.3 + 0.15 * t;
      return lathe(
        [
          { r: 0, y: -0.5 },
          { r, y: -0.5, crease: true },
          { r: 0, y: 0.5 },
        ],
        segments,
      );
    }
    case 'torus': {
      // Lying flat; tube radius varies from slim ring to fat doughnut.
      const tube = 0.09 + 0.09 * t;
      return lathe(circleProfile(0.5 - tube, tube, 24), segments, true);
    }
    case 'vase':
      return lathe(vaseProfile(t), segments);
  }
}

/**
 * A vase: foot, round belly, narrow neck, flared lip, and an opening that goes down into
 * the body (the profile turns inward over the lip and ends on the axis inside).
 */
function vaseProfile(t: number): ProfilePoint[] {
  const belly = 0.3 + 0.08 * t;
  const neck = 0.12 + 0.04 * t;
  const lip = neck + 0.06;
  const outer: ProfilePoint[] = [
    { r: 0, y: -0.5 },
    { r: 0.16, y: -0.5, crease: true },
  ];
  // Smooth outer wall: belly bulge then neck then lip, sampled from a cosine blend.
  const steps = 20;
  for (let i = 1; i <= steps; i++) {
    const s = i / steps; // 0 = foot, 1 = lip
    const y = -0.5 + s * 0.98;
    const bulge = Math.sin(Math.PI * Math.min(1, s / 0.75)) * (belly - 0.16);
    const taper = 0.16 + (neck - 0.16) * Math.min(1, s / 0.75);
    const flare = s > 0.75 ? ((s - 0.75) / 0.25) ** 2 * (lip - neck) : 0;
    outer.push({ r: taper + Math.max(0, bulge) + flare, y });
  }
  outer[outer.length - 1]!.crease = true;
  const top = outer[outer.length - 1]!;
  return [
    ...outer,
    { r: top.r - 0.02, y: 0.5, crease: true },
    { r: neck - 0.025, y: 0.35 },
    { r: 0, y: 0.3 },
  ];
}

/**
 * Turns a text prompt into a simple coloured solid: the shape comes from a word such as
 * "cube", "ball", "can", "cone", "ring" or "vase", the colour from a word such as "red" or
 * "gold"; missing choices come from a hash of the prompt, so the same prompt always gives
 * the same model.
 *
 * @throws GeneratorInputError when the prompt is empty.
 */
export async function promptToGlb(prompt: string): Promise<Uint8Array> {
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    throw new GeneratorInputError('The prompt is empty; describe the object to generate.');
  }
  const plan = planPrompt(prompt);
  const mesh = buildShape(plan.shape, plan.variation);
  const material: MaterialSpec = {
    name: `${plan.shape}-material`,
    baseColor: [...plan.colour, 1],
    metallic: plan.metallic,
    roughness: plan.roughness,
  };
  return writeGlb(`kiln-${plan.shape}`, [{ mesh, material }]);
}
