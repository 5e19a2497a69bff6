import sharp from 'sharp';
import {
  SHARP_INPUT_OPTIONS,
  asBuffer,
  mapDecodeError,
  probeImage,
  type ImageInfo,
} from '../photo/decode-image.ts';

/** 8-bit sRGB pixels, 4 channels (RGBA), rows top to bottom. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A coarse per-sample view of a raster: straight (not premultiplied) colour and alpha. */
export interface SampleGrid {
  width: number;
  height: number;
  /** RGB in 0..255, 3 values per sample. */
  rgb: Float32Array;
  /** Alpha in 0..1. */
  alpha: Float32Array;
}

export interface LoadedImage {
  info: ImageInfo;
  /** The upright image, long side at most `maxSide`. */
  raster: Raster;
}

/**
 * Decodes an image (validated by content first) into an upright RGBA raster whose long side
 * is at most `maxSide`. Decode failures become GeneratorInputError.
 */
export async function loadImage(
  bytes: Uint8Array,
  maxSide: number,
  imageIndex?: number,
): Promise<LoadedImage> {
  const info = await probeImage(bytes, imageIndex);
  try {
    const { data, info: out } = await sharp(asBuffer(bytes), SHARP_INPUT_OPTIONS)
      .autoOrient()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (out.channels !== 4) throw new Error(`unexpected channel count ${out.channels}`);
    const raster = {
      width: out.width,
      height: out.height,
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    };
    return { info, raster };
  } catch (error) {
    throw mapDecodeError(error, info.format, imageIndex);
  }
}

/** True when some pixels are clearly transparent, i.e. the alpha channel carries a mask. */
export function hasUsefulAlpha(raster: Raster): boolean {
  const { data } = raster;
  let transparent = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i]! < 128) transparent++;
  // A handful of stray pixels is not a mask; 0.1% of the image is.
  return transparent > (raster.width * raster.height) / 1000;
}

/**
 * Box-filters the raster down to `width` × `height` samples (colour weighted by alpha, so
 * transparent pixels do not darken edges). Sample (i, j) covers the raster area
 * [i/width, (i+1)/width) × [j/height, (j+1)/height); its centre is ((i+.5)/width, (j+.5)/height).
 */
export function sampleGrid(raster: Raster, width: number, height: number): SampleGrid {
  const { data, width: rw, height: rh } = raster;
  const rgb = new Float32Array(width * height * 3);
  const alpha = new Float32Array(width * height);
  for (let j = 0; j < height; j++) {
    const y0 = Math.floor((j * rh) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((j + 1) * rh) / height));
    for (let i = 0; i < width; i++) {
      const x0 = Math.floor((i * rw) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((i + 1) * rw) / width));
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let y = y0; y < y1; y++) {
        let p = (y * rw + x0) * 4;
        for (let x = x0; x < x1; x++, p += 4) {
          const w = data[p + 3]!;
          r += data[p]! * w;
          g += data[p + 1]! * w;
          b += data[p + 2]! * w;
          a += w;
        }
      }
      const s = j * width + i;
      const n = (x1 - x0) * (y1 - y0);
      alpha[s] = a / (255 * n);
      if (a > 0) {
        rgb[s * 3] = r / a;
        rgb[s * 3 + 1] = g / a;
        rgb[s * 3 + 2] = b / a;
      }
    }
  }
  return { width, height, rgb, alpha };
}

/** One level of the bleed pyramid: premultiplied RGB sums and coverage, averaged per pixel. */
interface Level {
  w: number;
  h: number;
  /** Premultiplied RGB (0..255 scale), 3 per pixel. */
  c: Float32Array;
  /** Coverage 0..1. */
  a: Float32Array;
}

/** Halves a level (2×2 averages; an odd last row/column is averaged with itself). */
function halve(src: Level): Level {
  const w = Math.ceil(src.w / 2);
  const h = Math.ceil(src.h / 2);
  const c = new Float32Array(w * h * 3);
  const a = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const r0 = 2 * y * src.w;
    const r1 = Math.min(2 * y + 1, src.h - 1) * src.w;
    for (let x = 0; x < w; x++) {
      const x0 = 2 * x;
      const x1 = Math.min(x0 + 1, src.w - 1);
      const p = r0 + x0;
      const q = r0 + x1;
      const r = r1 + x0;
      const s = r1 + x1;
      const o = y * w + x;
      a[o] = (src.a[p]! + src.a[q]! + src.a[r]! + src.a[s]!) * 0.25;
      for (let k = 0; k < 3; k++) {
        c[o * 3 + k] =
          (src.c[p * 3 + k]! + src.c[q * 3 + k]! + src.c[r * 3 + k]! + src.c[s * 3 + k]!) * 0.25;
      }
    }
  }
  return { w, h, c, a };
}

/**
 * Returns a copy whose (mostly) transparent pixels take the colour of nearby opaque pixels
 * ("push-pull" over an image pyramid). Texture filtering and mipmaps then never blend the
 * object's edge with the arbitrary colour (often black) stored under transparent pixels.
 * Alpha is unchanged.
 */
export function bleedTransparent(raster: Raster): Raster {
  const { width, height, data } = raster;
  // Level 1 (half size) straight from the bytes; level 0 is only read when writing back.
  const w1 = Math.ceil(width / 2);
  const h1 = Math.ceil(height / 2);
  const first: Level = {
    w: w1,
    h: h1,
    c: new Float32Array(w1 * h1 * 3),
    a: new Float32Array(w1 * h1),
  };
  for (let y = 0; y < h1; y++) {
    const r0 = 2 * y * width;
    const r1 = Math.min(2 * y + 1, height - 1) * width;
    for (let x = 0; x < w1; x++) {
      const x0 = 2 * x;
      const x1 = Math.min(x0 + 1, width - 1);
      const p = (r0 + x0) * 4;
      const q = (r0 + x1) * 4;
      const s = (r1 + x0) * 4;
      const t = (r1 + x1) * 4;
      const pa = data[p + 3]!;
      const qa = data[q + 3]!;
      const sa = data[s + 3]!;
      const ta = data[t + 3]!;
      const r = data[p]! * pa + data[q]! * qa + data[s]! * sa + data[t]! * ta;
      const g = data[p + 1]! * pa + data[q + 1]! * qa + data[s + 1]! * sa + data[t + 1]! * ta;
      const b = data[p + 2]! * pa + data[q + 2]! * qa + data[s + 2]! * sa + data[t + 2]! * ta;
      const al = pa + qa + sa + ta;
      const o = y * w1 + x;
      // Sums of colour × alpha(0..255) over 4 pixels → average premultiplied colour.
      first.c[o * 3] = r / 1020;
      first.c[o * 3 + 1] = g / 1020;
      first.c[o * 3 + 2] = b / 1020;
      first.a[o] = al / 1020;
    }
  }
  const levels: Level[] = [first];
  while (levels[levels.length - 1]!.w > 1 || levels[levels.length - 1]!.h > 1) {
    levels.push(halve(levels[levels.length - 1]!));
  }
  // Pull: make the coarsest level opaque, then composite each level over the one above it.
  const top = levels[levels.length - 1]!;
  if (top.a[0]! > 0) for (let k = 0; k < 3; k++) top.c[k] = top.c[k]! / top.a[0]!;
  for (let l = levels.length - 2; l >= 0; l--) {
    const cur = levels[l]!;
    const up = levels[l + 1]!;
    for (let y = 0; y < cur.h; y++) {
      const upRow = (y >> 1) * up.w;
      for (let x = 0; x < cur.w; x++) {
        const o = y * cur.w + x;
        const u = (upRow + (x >> 1)) * 3;
        const rest = 1 - Math.min(1, cur.a[o]!);
        cur.c[o * 3] = cur.c[o * 3]! + rest * up.c[u]!;
        cur.c[o * 3 + 1] = cur.c[o * 3 + 1]! + rest * up.c[u + 1]!;
        cur.c[o * 3 + 2] = cur.c[o * 3 + 2]! + rest * up.c[u + 2]!;
      }
    }
  }
  // Write back: pixels under half opacity take the filled colour of their level-1 parent,
  // composited under whatever colour they have. Mostly opaque pixels keep their true colour.
  const out = new Uint8Array(data);
  const fill = first.c;
  for (let y = 0; y < height; y++) {
    const parentRow = (y >> 1) * w1;
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      const pa = data[p + 3]!;
      if (pa >= 128) continue;
      const f = (parentRow + (x >> 1)) * 3;
      const t = pa / 255;
      out[p] = Math.round(data[p]! * t + fill[f]! * (1 - t));
      out[p + 1] = Math.round(data[p + 1]! * t + fill[f + 1]! * (1 - t));
      out[p + 2] = Math.round(data[p + 2]! * t + fill[f + 2]! * (1 - t));
    }
  }
  return { width, height, data: out };
}

export interface EncodedTexture {
  bytes: Uint8Array;
  mimeType: 'image/png' | 'image/jpeg';
}

/**
 * The smallest power of two at least `n`, at most `max`: a texture is never scaled down to reach
 * a power of two (724 px stays sharp at 1024 rather than losing detail at 512).
 */
export function powerOfTwoAtLeast(n: number, max = 2048): number {
  return Math.min(max, 2 ** Math.max(0, Math.ceil(Math.log2(Math.max(1, n)) - 1e-9)));
}

/**
 * Encodes the raster, resized to power-of-two sides (mipmaps and texture wrapping work on
 * every GPU; texture coordinates are relative, so the stretch cancels out on the model):
 * PNG keeping the alpha channel, or JPEG without it.
 */
export async function encodeTexture(raster: Raster, withAlpha: boolean): Promise<EncodedTexture> {
  const width = powerOfTwoAtLeast(raster.width);
  const height = powerOfTwoAtLeast(raster.height);
  let input = sharp(asBuffer(raster.data), {
    raw: { width: raster.width, height: raster.height, channels: 4 },
  });
  if (width !== raster.width || height !== raster.height) {
    input = input.resize({ width, height, fit: 'fill', kernel: 'lanczos3' });
  }
  if (withAlpha) {
    const bytes = await input.png({ compressionLevel: 6 }).toBuffer();
    return { bytes: new Uint8Array(bytes), mimeType: 'image/png' };
  }
  const bytes = await input.removeAlpha().jpeg({ quality: 88 }).toBuffer();
  return { bytes: new Uint8Array(bytes), mimeType: 'image/jpeg' };
}

/** A texture holding two pictures, one above the other: where each lies, as v ranges. */
export interface EncodedAtlas extends EncodedTexture {
  /** Rows of the first picture: v from `top[0]` to `top[1]`. */
  top: [number, number];
  /** Rows of the second picture: v from `bottom[0]` to `bottom[1]`. */
  bottom: [number, number];
}

/** Rows between the two pictures, repeating the second's first row (texture filtering reach). */
const ATLAS_GUTTER = 4;

/**
 * Encodes two pictures in one power-of-two texture, `top` above `bottom` (each stretched to the
 * full width; texture coordinates are relative). `top` keeps the power-of-two height it would
 * have alone when twice that fits under `maxSide`, and `bottom` gets as many rows; otherwise the
 * texture is `maxSide` high and `bottom` takes its last eighth (it should be a picture that
 * needs little detail). PNG keeping the alpha channel, or JPEG without it.
 */
export async function encodeAtlas(
  top: Raster,
  bottom: Raster,
  maxSide: number,
  withAlpha: boolean,
): Promise<EncodedAtlas> {
  const width = powerOfTwoAtLeast(top.width, maxSide);
  const alone = powerOfTwoAtLeast(top.height, maxSide);
  const height = 2 * alone <= maxSide ? 2 * alone : alone;
  const topRows = 2 * alone <= maxSide ? alone : height - Math.max(8, height / 8);
  const bottomRows = height - topRows - ATLAS_GUTTER;
  const resized = (raster: Raster, rows: number) =>
    sharp(asBuffer(raster.data), {
      raw: { width: raster.width, height: raster.height, channels: 4 },
    })
      .resize({ width, height: rows, fit: 'fill', kernel: 'lanczos3' })
      .raw()
      .toBuffer();
  const [a, b] = await Promise.all([resized(top, topRows), resized(bottom, bottomRows)]);
  const data = Buffer.alloc(width * height * 4);
  a.copy(data, 0);
  const rowBytes = width * 4;
  for (let g = 0; g < ATLAS_GUTTER; g++) b.copy(data, (topRows + g) * rowBytes, 0, rowBytes);
  b.copy(data, (topRows + ATLAS_GUTTER) * rowBytes);
  const image = sharp(data, { raw: { width, height, channels: 4 } });
  const place = {
    top: [0, topRows / height] as [number, number],
    bottom: [(topRows + ATLAS_GUTTER) / height, 1] as [number, number],
  };
  if (withAlpha) {
    const bytes = await image.png({ compressionLevel: 6 }).toBuffer();
    return { bytes: new Uint8Array(bytes), mimeType: 'image/png', ...place };
  }
  const bytes = await image.removeAlpha().jpeg({ quality: 88 }).toBuffer();
  return { bytes: new Uint8Array(bytes), mimeType: 'image/jpeg', ...place };
}
