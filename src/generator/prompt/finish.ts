/** Surface finishes (colour words and defaults), and the prompt's hash and random numbers. */

/** A surface: sRGB hex colour plus PBR metallic/roughness (defaults 0 and 0.6). */
export interface Finish {
  hex: string;
  metallic?: number;
  roughness?: number;
}

/** Colour words; the first one outside a "with …" clause colours the main part. */
export const COLOUR_WORDS: Readonly<Record<string, Finish>> = {
  red: { hex: '#c62828' },
  crimson: { hex: '#a3142c' },
  scarlet: { hex: '#e0301e' },
  maroon: { hex: '#6b1a1f' },
  orange: { hex: '#ef6c00' },
  amber: { hex: '#f0a020' },
  yellow: { hex: '#f6c915' },
  green: { hex: '#2e7d32' },
  lime: { hex: '#8bc34a' },
  olive: { hex: '#6b6b2a' },
  emerald: { hex: '#1f9d63' },
  mint: { hex: '#98e0c0' },
  teal: { hex: '#00897b' },
  cyan: { hex: '#00acc1' },
  turquoise: { hex: '#30c5b5' },
  blue: { hex: '#1e5bc6' },
  navy: { hex: '#1a2a6c' },
  indigo: { hex: '#3f3a9e' },
  purple: { hex: '#6a1b9a' },
  violet: { hex: '#7e57c2' },
  lavender: { hex: '#b39ddb' },
  lilac: { hex: '#c8a2c8' },
  pink: { hex: '#ec6fa5' },
  magenta: { hex: '#c2185b' },
  brown: { hex: '#6d4c41' },
  tan: { hex: '#c8a57a' },
  beige: { hex: '#d8c8a8' },
  cream: { hex: '#f3e9cf' },
  white: { hex: '#f2f2f2' },
  ivory: { hex: '#f3ecd8' },
  black: { hex: '#1c1c1c' },
  grey: { hex: '#808080' },
  gray: { hex: '#808080' },
};

/**
 * A material: PBR metallic/roughness, and its own colour where it has one (wood, stone, gold);
 * materials of any colour (ceramic, plastic, fabric) keep the part's colour.
 */
export interface MaterialFinish {
  hex?: string;
  metallic: number;
  roughness: number;
  /**
   * See-through in life (glass, crystal, ice): the model takes its colour and shine only, since
   * every model the generator makes is opaque; said to the person who asked.
   */
  clear?: true;
}

/** Materials by canonical name; the first one outside a "with …" clause makes the main part. */
export const MATERIALS: Readonly<Record<string, MaterialFinish>> = {
  ceramic: { metallic: 0, roughness: 0.2 },
  porcelain: { hex: '#f4f1ea', metallic: 0, roughness: 0.15 },
  stone: { hex: '#8d8a84', metallic: 0, roughness: 0.9 },
  granite: { hex: '#77736e', metallic: 0, roughness: 0.8 },
  marble: { hex: '#e8e4dc', metallic: 0, roughness: 0.25 },
  concrete: { hex: '#9e9e98', metallic: 0, roughness: 0.95 },
  wood: { hex: '#9a6b3f', metallic: 0, roughness: 0.7 },
  oak: { hex: '#a87c4f', metallic: 0, roughness: 0.7 },
  pine: { hex: '#d2a86e', metallic: 0, roughness: 0.7 },
  walnut: { hex: '#5d3a22', metallic: 0, roughness: 0.6 },
  mahogany: { hex: '#6b2f1f', metallic: 0, roughness: 0.55 },
  bamboo: { hex: '#c9ab6b', metallic: 0, roughness: 0.6 },
  metal: { hex: '#a8adb3', metallic: 1, roughness: 0.35 },
  steel: { hex: '#9aa0a6', metallic: 1, roughness: 0.35 },
  iron: { hex: '#6e6e6e', metallic: 1, roughness: 0.5 },
  chrome: { hex: '#dfe3e8', metallic: 1, roughness: 0.1 },
  aluminium: { hex: '#c4c8cc', metallic: 1, roughness: 0.3 },
  tin: { hex: '#b7bcc2', metallic: 1, roughness: 0.35 },
  silver: { hex: '#c9ccd1', metallic: 1, roughness: 0.25 },
  gold: { hex: '#e3b23c', metallic: 1, roughness: 0.3 },
  copper: { hex: '#c0784a', metallic: 1, roughness: 0.35 },
  bronze: { hex: '#a97142', metallic: 1, roughness: 0.4 },
  brass: { hex: '#c9a94a', metallic: 1, roughness: 0.35 },
  glass: { hex: '#cfe6ee', metallic: 0, roughness: 0.05, clear: true },
  crystal: { hex: '#e6f2f7', metallic: 0, roughness: 0.02, clear: true },
  plastic: { metallic: 0, roughness: 0.35 },
  rubber: { metallic: 0, roughness: 0.55 },
  clay: { hex: '#b86b47', metallic: 0, roughness: 0.85 },
  terracotta: { hex: '#c1693c', metallic: 0, roughness: 0.85 },
  leather: { hex: '#7b4a2a', metallic: 0, roughness: 0.55 },
  fabric: { metallic: 0, roughness: 0.95 },
  wool: { metallic: 0, roughness: 1 },
  paper: { hex: '#efe9dc', metallic: 0, roughness: 0.9 },
  cardboard: { hex: '#b5894f', metallic: 0, roughness: 0.9 },
  ice: { hex: '#cfeaf5', metallic: 0, roughness: 0.1, clear: true },
  jade: { hex: '#3f9b6f', metallic: 0, roughness: 0.25 },
  chocolate: { hex: '#5a3320', metallic: 0, roughness: 0.45 },
};

/** Words naming a material, as written → its canonical name in MATERIALS. */
export const MATERIAL_WORDS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.keys(MATERIALS).map((m) => [m, m])),
  ceramics: 'ceramic',
  glazed: 'ceramic',
  pottery: 'ceramic',
  earthenware: 'ceramic',
  stoneware: 'ceramic',
  china: 'porcelain',
  stony: 'stone',
  wooden: 'wood',
  timber: 'wood',
  metallic: 'metal',
  aluminum: 'aluminium',
  golden: 'gold',
  gilded: 'gold',
  glassy: 'glass',
  plastics: 'plastic',
  cloth: 'fabric',
  felt: 'fabric',
  cotton: 'fabric',
  linen: 'fabric',
  velvet: 'fabric',
  plush: 'fabric',
  woollen: 'wool',
  woolen: 'wool',
  knitted: 'wool',
  icy: 'ice',
};

/** Linear RGB with PBR factors, ready for a material. */
export interface LinearFinish {
  colour: [number, number, number];
  metallic: number;
  roughness: number;
}

function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** sRGB (0..1) from HSL. */
function hslToSrgb(h: number, s: number, l: number): [number, number, number] {
  const f = (n: number): number => {
    const k = (n + h * 12) % 12;
    return l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}

/** A finish in linear RGB. */
export function linearFinish(finish: Finish): LinearFinish {
  const n = parseInt(finish.hex.slice(1), 16);
  const srgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return {
    colour: srgb.map((v) => srgbToLinear(v / 255)) as [number, number, number],
    metallic: finish.metallic ?? 0,
    roughness: finish.roughness ?? 0.6,
  };
}

/** A saturated colour whose hue comes from a hash, for a main part the prompt gives no colour. */
export function hashedFinish(hash: number): LinearFinish {
  const srgb = hslToSrgb(((hash >>> 8) % 360) / 360, 0.55, 0.55);
  return {
    colour: srgb.map(srgbToLinear) as [number, number, number],
    metallic: 0,
    roughness: 0.6,
  };
}

/** "dark red": a darker shade; "light"/"pale" blue: mixed towards white (linear RGB). */
export function shade(finish: LinearFinish, modifier: 'dark' | 'light'): LinearFinish {
  const colour = finish.colour.map((c) => (modifier === 'dark' ? c * 0.3 : c + (1 - c) * 0.5));
  return { ...finish, colour: colour as [number, number, number] };
}

/** 32-bit FNV-1a over UTF-16 code units. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A deterministic random number generator (mulberry32) returning values in [0, 1). */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value in [lo, hi) from the generator. */
export function between(random: Random, lo: number, hi: number): number {
  return lo + (hi - lo) * random();
}
