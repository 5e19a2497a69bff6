// Textures: resized to fit a size and re-encoded (WebP, PNG, JPEG with sharp; KTX2 with the
// Basis Universal encoder of the ktx2-encoder package, WASM, offline).
import type { Document } from '@gltf-transform/core';
import { textureCompress } from '@gltf-transform/functions';
import sharp from 'sharp';
import type { TextureFormat } from '../../contract/index.ts';

/** Texture slots that hold colours (sRGB); the others hold data (normals, roughness…). */
const COLOUR_SLOTS =
  /^(baseColorTexture|emissiveTexture|diffuseTexture|specularGlossinessTexture|sheenColorTexture|specularColorTexture)$/;

/** The largest power of two not above `n` (at least 4): sides Basis and every GPU like. */
function powerOfTwoBelow(n: number): number {
  return Math.max(4, 2 ** Math.floor(Math.log2(Math.max(1, n))));
}

/**
 * Straight 8-bit RGBA, resized to power-of-two sides, for the Basis encoder (so every mip
 * level's side is a multiple of 4 down to 4×4).
 */
async function decodeForBasis(
  bytes: Uint8Array,
): Promise<{ data: Uint8Array; width: number; height: number }> {
  const image = sharp(bytes);
  const { width = 0, height = 0 } = await image.metadata();
  const { data, info } = await image
    .resize(powerOfTwoBelow(width), powerOfTwoBelow(height), { fit: 'fill' })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
}

/**
 * Encodes every texture it can as KTX2: colours (sRGB) as ETC1S, then data as UASTC; a texture
 * it cannot encode is left as it was. The encoder prints through console.log as it goes. The
 * viewer's KTX2 fixture is made with it too.
 */
export async function encodeKtx2(doc: Document): Promise<void> {
  const { ktx2 } = await import('ktx2-encoder/gltf-transform');
  await doc.transform(
    ktx2({
      slots: COLOUR_SLOTS,
      isUASTC: false,
      qualityLevel: 128,
      compressionLevel: 2,
      generateMipmap: true,
      isPerceptual: true,
      isSetKTX2SRGBTransferFunc: true,
      imageDecoder: decodeForBasis,
    }),
  );
  await doc.transform(
    ktx2({
      isUASTC: true,
      needSupercompression: true,
      generateMipmap: true,
      isPerceptual: false,
      isSetKTX2SRGBTransferFunc: false,
      imageDecoder: decodeForBasis,
    }),
  );
}

// The Basis encoder's WASM prints a summary of every texture through console.log, bound when it
// loads: console.log is swapped for a sink while it runs (this runs on a worker thread, whose
// console is its own).
async function quietly<T>(run: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = () => {};
  try {
    return await run();
  } finally {
    console.log = log;
  }
}

/**
 * Resizes every texture to fit within `size` pixels a side (when given; never enlarged) and
 * encodes it as `format`. Returns notes on what could not be done as asked.
 */
export async function compressTextures(
  doc: Document,
  size: number | null,
  format: TextureFormat,
): Promise<string[]> {
  const notes: string[] = [];
  const textures = doc.getRoot().listTextures();
  if (textures.length === 0) return notes;
  const resize: [number, number] | undefined = size ? [size, size] : undefined;
  if (format === 'ktx2') {
    // Resized first (kept lossless), then encoded: colours as ETC1S in sRGB, data as UASTC.
    if (resize)
      await doc.transform(textureCompress({ encoder: sharp, resize, targetFormat: 'png' }));
    await quietly(() => encodeKtx2(doc));
    const left = textures.filter((t) => t.getMimeType() !== 'image/ktx2');
    if (left.length > 0)
      notes.push(
        `${left.length} texture${left.length === 1 ? '' : 's'} could not be encoded as KTX2 and stayed ${left.map((t) => t.getMimeType().replace('image/', '').toUpperCase()).join(', ')}.`,
      );
    return notes;
  }
  const targetFormat = format === 'keep' ? undefined : format;
  if (!resize && !targetFormat) return notes;
  await doc.transform(
    textureCompress({
      encoder: sharp,
      ...(targetFormat ? { targetFormat } : {}),
      ...(resize ? { resize } : {}),
      // The quality sharp picks for each format by default is meant for photos; colour maps of
      // models look the same at these settings and are smaller.
      ...(targetFormat === 'webp' || targetFormat === 'jpeg' ? { quality: 85 } : {}),
    }),
  );
  if (format === 'jpeg') {
    // textureCompress leaves textures that need their alpha channel as they were.
    const kept = textures.filter((t) => t.getMimeType() !== 'image/jpeg');
    if (kept.length > 0)
      notes.push(
        `${kept.length} texture${kept.length === 1 ? '' : 's'} stayed ${kept[0]!.getMimeType().replace('image/', '').toUpperCase()}: JPEG has no transparency, which ${kept.length === 1 ? 'it uses' : 'they use'}.`,
      );
  }
  return notes;
}
