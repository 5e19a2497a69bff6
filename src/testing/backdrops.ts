// Backdrops for the generator's segmentation tests: each alpha fixture photo composited over
// backdrops like those artists shoot on, its alpha channel the ground truth. Tests and benches.
import sharp from 'sharp';

export const BACKDROPS = [
  'vertical-gradient',
  'radial-vignette',
  'two-tone-horizon',
  'wall-with-shadow',
  'wood-grain',
  'jpeg-70',
  'darker-than-object',
  'close-hue',
] as const;
export type BackdropName = (typeof BACKDROPS)[number];

type Rgb = [number, number, number];

/** A small deterministic noise (so tests see the same pixels every run). */
function noise(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) / 2 ** 32) * 2 - 1;
  };
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

function paint(width: number, height: number, colour: (x: number, y: number) => Rgb): Buffer {
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const c = colour(x / (width - 1), y / (height - 1));
      const p = (y * width + x) * 3;
      out[p] = Math.max(0, Math.min(255, Math.round(c[0])));
      out[p + 1] = Math.max(0, Math.min(255, Math.round(c[1])));
      out[p + 2] = Math.max(0, Math.min(255, Math.round(c[2])));
    }
  return out;
}

/** The mean colour of a photo's opaque pixels. */
async function objectColour(photo: Uint8Array): Promise<Rgb> {
  const { data } = await sharp(photo).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let [r, g, b, n] = [0, 0, 0, 0];
  for (let i = 0; i < data.length; i += 4)
    if (data[i + 3]! > 200) {
      r += data[i]!;
      g += data[i + 1]!;
      b += data[i + 2]!;
      n++;
    }
  return n ? [r / n, g / n, b / n] : [128, 128, 128];
}

/**
 * A soft shadow under the object: its alpha squashed to a thin ellipse at its base, blurred,
 * as a studio light from above casts it. Returns per-pixel darkening (0..1).
 */
async function shadowOf(photo: Uint8Array, width: number, height: number): Promise<Float32Array> {
  const alpha = await sharp(photo).ensureAlpha().extractChannel(3).raw().toBuffer();
  let bottom = 0;
  let left = width;
  let right = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (alpha[y * width + x]! > 128) {
        bottom = Math.max(bottom, y);
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
  const cx = (left + right) / 2;
  const rx = Math.max(8, ((right - left) / 2) * 1.1);
  const ry = Math.max(4, rx * 0.12);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const d = ((x - cx) / rx) ** 2 + ((y - bottom) / ry) ** 2;
      out[y * width + x] = 0.45 * Math.exp(-d * 1.5);
    }
  return out;
}

/** The backdrop's RGB pixels, `width` × `height`. */
async function backdrop(
  name: BackdropName,
  photo: Uint8Array,
  width: number,
  height: number,
): Promise<Buffer> {
  const rand = noise(width * 7 + height);
  switch (name) {
    case 'vertical-gradient':
      return paint(width, height, (_, y) => mix([236, 236, 238], [150, 152, 158], y));
    case 'radial-vignette':
      return paint(width, height, (x, y) => {
        const r = Math.hypot(x - 0.5, y - 0.45) / 0.7;
        return mix([232, 222, 205], [120, 105, 90], Math.min(1, r * r));
      });
    case 'two-tone-horizon':
      return paint(width, height, (x, y) =>
        y < 0.66
          ? mix([196, 214, 224], [176, 196, 208], y)
          : mix([164, 128, 96], [140, 106, 78], y),
      );
    case 'wall-with-shadow': {
      const shadow = await shadowOf(photo, width, height);
      const wall: Rgb = [120, 168, 140];
      return paint(width, height, (x, y) => {
        const s = shadow[Math.round(y * (height - 1)) * width + Math.round(x * (width - 1))]!;
        return mix(wall, [0, 0, 0], s);
      });
    }
    case 'wood-grain':
      return paint(width, height, (x, y) => {
        const grain = Math.sin(y * 90 + Math.sin(x * 7) * 3) * 0.5 + 0.5;
        const fine = rand() * 0.5;
        return mix([196, 160, 118], [168, 128, 88], grain * 0.7 + fine * 0.3);
      });
    case 'jpeg-70':
      return paint(width, height, (_, y) => mix([228, 228, 228], [200, 200, 204], y));
    case 'darker-than-object':
      return paint(width, height, () => [28 + rand() * 3, 28 + rand() * 3, 30 + rand() * 3]);
    case 'close-hue': {
      const c = await objectColour(photo);
      // The object's hue, paler: close in hue, apart in lightness and saturation.
      return paint(width, height, () => mix(c, [235, 235, 235], 0.62));
    }
  }
}

/**
 * The photo composited over the backdrop, as an opaque PNG (a JPEG at quality 70 for
 * `jpeg-70`), with the photo's own alpha as the ground truth.
 */
export async function composite(photo: Uint8Array, name: BackdropName): Promise<Uint8Array> {
  const { width = 0, height = 0 } = await sharp(photo).metadata();
  const base = await backdrop(name, photo, width, height);
  const image = sharp(base, { raw: { width, height, channels: 3 } })
    .composite([{ input: Buffer.from(photo) }])
    .removeAlpha();
  const out = name === 'jpeg-70' ? image.jpeg({ quality: 70 }) : image.png();
  return new Uint8Array(await out.toBuffer());
}

/**
 * Scenes with something behind or beside the object that is no backdrop the border shows
 * (issue 32): a brown disc behind it on textured paper, a blue wall panel behind it, a blue wall
 * meeting a light floor, a green woven cloth, and neighbours the frame cuts (a watermelon in a
 * corner, a yellow box at the left edge).
 */
export const SCENES = [
  'disc-behind',
  'panel-behind',
  'blue-wall',
  'woven-cloth',
  'neighbours',
] as const;
export type SceneName = (typeof SCENES)[number];

function sceneSvg(name: SceneName, w: number, h: number): string {
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">`;
  switch (name) {
    case 'disc-behind':
      return `${open}<defs><filter id="n"><feTurbulence baseFrequency="0.8" numOctaves="2" seed="4"/>
        <feColorMatrix values="0 0 0 0 0.9 0 0 0 0 0.9 0 0 0 0 0.88 0 0 0 0.15 0"/></filter></defs>
        <rect width="${w}" height="${h}" fill="#e8e4dc"/><rect width="${w}" height="${h}" filter="url(#n)"/>
        <circle cx="${w * 0.5}" cy="${h * 0.42}" r="${w * 0.36}" fill="#7a4a26"/></svg>`;
    case 'panel-behind':
      return `${open}<rect width="${w}" height="${h}" fill="#e6e6e2"/>
        <rect x="${w * 0.12}" y="${h * 0.06}" width="${w * 0.76}" height="${h * 0.6}" fill="#2f5fb8"/></svg>`;
    case 'blue-wall':
      return `${open}<rect width="${w}" height="${h}" fill="#d8d2c6"/>
        <rect width="${w}" height="${h * 0.7}" fill="#3a68c0"/></svg>`;
    case 'woven-cloth':
      return `${open}<defs><pattern id="p" width="6" height="6" patternUnits="userSpaceOnUse">
        <rect width="6" height="6" fill="#4d7a52"/><rect width="3" height="3" fill="#55855a"/>
        <rect x="3" y="3" width="3" height="3" fill="#46704b"/></pattern></defs>
        <rect width="${w}" height="${h}" fill="url(#p)"/></svg>`;
    case 'neighbours':
      return `${open}<rect width="${w}" height="${h}" fill="#ecebe8"/>
        <circle cx="${w}" cy="${h * 0.9}" r="${w * 0.16}" fill="#3b8a3a"/>
        <circle cx="${w}" cy="${h * 0.9}" r="${w * 0.13}" fill="#d83a3a"/>
        <rect x="0" y="${h * 0.05}" width="${w * 0.07}" height="${h * 0.2}" fill="#d9a020"/></svg>`;
  }
}

/** The photo in front of a scene, as an opaque PNG; the photo's alpha is the truth. */
export async function inScene(photo: Uint8Array, name: SceneName): Promise<Uint8Array> {
  const { width = 0, height = 0 } = await sharp(photo).metadata();
  const base = await sharp(Buffer.from(sceneSvg(name, width, height)))
    .removeAlpha()
    .png()
    .toBuffer();
  return new Uint8Array(
    await sharp(base)
      .composite([{ input: Buffer.from(photo) }])
      .removeAlpha()
      .png()
      .toBuffer(),
  );
}
