import { writeGlb, type MaterialSpec } from '../core/glb.ts';
import type { GenerateHooks } from '../core/hooks.ts';
import type { Mask } from './mask.ts';
import { extractSubmesh } from '../core/mesh.ts';
import { buildRelief } from './relief.ts';
import { simplifyIndices } from '../core/simplify.ts';
import { loadSubject, textureOf, SUBJECT_DEFAULTS, type Subject } from './subject.ts';

/** Options of {@link imageToGlb}; every field has a default. */
export interface ImageToGlbOptions extends GenerateHooks {
  /** Long side of the silhouette grid, in samples: the outline's resolution. Default 160. */
  gridLongSide?: number;
  /** Long side of the embedded texture, in pixels (a power of two). Default 1024. */
  textureMaxSide?: number;
  /** Triangle budget after simplification. Default 12 000. */
  maxTriangles?: number;
  /** Height of the model, in metres. Default 1. */
  height?: number;
}

export const IMAGE_TO_GLB_DEFAULTS = {
  gridLongSide: SUBJECT_DEFAULTS.gridLongSide,
  textureMaxSide: SUBJECT_DEFAULTS.textureMaxSide,
  maxTriangles: 12_000,
  height: 1,
} as const;

type Resolved = Required<Omit<ImageToGlbOptions, 'onPhase'>> & GenerateHooks;

/** Simplification may move the surface by at most this fraction of the model's size. */
const SIMPLIFY_MAX_ERROR = 0.002;
/** The model is at least this deep, as a fraction of its width. */
const MIN_DEPTH_OVER_WIDTH = 0.3;

const MESH_NAME = 'kiln-relief';

/** Texture coordinates of a mask sample's centre. */
function sampleUv(mask: Mask, sample: number): [number, number] {
  const x = sample % mask.width;
  const y = (sample - x) / mask.width;
  return [(x + 0.5) / mask.width, (y + 0.5) / mask.height];
}

function concat(...parts: Uint32Array[]): Uint32Array {
  const out = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

function scaled(positions: Float32Array, factor: number): Float32Array {
  if (factor === 1) return positions;
  return positions.map((v) => v * factor);
}

/** The inflated, simplified, textured mesh of one subject. */
async function reliefGlb(subject: Subject, options: Resolved) {
  const { mask, raster } = subject;
  const [texture, mesh] = await Promise.all([
    textureOf(subject),
    (async () => {
      const relief = buildRelief(mask, {
        pixelWidth: raster.width,
        pixelHeight: raster.height,
        minDepthOverWidth: MIN_DEPTH_OVER_WIDTH,
      });
      options.onPhase?.('processing');
      const indices = await simplifyIndices(
        relief.positions,
        concat(relief.front, relief.back, relief.walls),
        { targetTriangles: options.maxTriangles, maxError: SIMPLIFY_MAX_ERROR },
      );
      return extractSubmesh(relief.positions, relief.normals, indices, (v) =>
        sampleUv(mask, relief.sampleOf[v]!),
      );
    })(),
  ]);
  mesh.positions = scaled(mesh.positions, options.height);
  const material: MaterialSpec = {
    name: 'photo',
    baseColorTexture: texture,
    metallic: 0,
    roughness: 0.8,
  };
  return writeGlb(MESH_NAME, [{ mesh, material }]);
}

/**
 * Turns one photo into a textured, closed "inflated silhouette": the object's outline (from
 * the alpha channel, or from the difference to a plain backdrop, soft shadows excluded) is
 * inflated into a rounded volume whose front and back surfaces meet at a shared rim, so thin
 * parts become tubes and broad parts domes. Holes through the object stay holes. The photo
 * textures the front, and continues mirrored over the back; backdrop pixels are bled away so
 * none show on the surface. Y-up, metres, standing on the ground plane, `height` tall (or 2 ×
 * `height` wide for wide objects), at least 30 % as deep as it is wide.
 *
 * @throws GeneratorInputError when the bytes are not a decodable PNG, JPEG, WebP or GIF image,
 *   or the image shows no object (too small, fully transparent, blank, no plain backdrop).
 */
export async function imageToGlb(
  image: Uint8Array,
  options: ImageToGlbOptions = {},
): Promise<Uint8Array> {
  const resolved: Resolved = { ...IMAGE_TO_GLB_DEFAULTS, ...options };
  const subject = await loadSubject(image, {
    gridLongSide: resolved.gridLongSide,
    textureMaxSide: resolved.textureMaxSide,
  });
  return reliefGlb(subject, resolved);
}
