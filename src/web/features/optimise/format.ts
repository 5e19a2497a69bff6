// Words and numbers for the optimise page: sizes, counts, changes, textures, dimensions.
import type { OptimiseFacts, OptimisePlan } from '../../../contract/index.ts';

/** "30,000" */
export const formatCount = (n: number): string => n.toLocaleString('en');

/** "−84%", "+12%", "same" (rounded; a change under 0.5% is the same). */
export function formatChange(before: number, after: number): string {
  if (before === 0) return after === 0 ? 'same' : 'new';
  const pct = Math.round(((after - before) / before) * 100);
  if (pct === 0) return 'same';
  return pct < 0 ? `−${-pct}%` : `+${pct}%`;
}

const MIME_NAMES: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'image/ktx2': 'KTX2',
  'image/avif': 'AVIF',
};

/** "none", "1024 × 1024 WebP", "2 × 2048 × 2048 PNG, 512 × 512 JPEG" (alike ones counted). */
export function describeTextures(textures: OptimiseFacts['textures']): string {
  if (textures.length === 0) return 'none';
  const groups = new Map<string, number>();
  for (const t of textures) {
    const name = MIME_NAMES[t.mime_type] ?? t.mime_type;
    const key = t.width && t.height ? `${t.width} × ${t.height} ${name}` : name;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return [...groups].map(([key, n]) => (n > 1 ? `${n} × ${key}` : key)).join(', ');
}

/** The largest side of any texture, for "≤ 1024 px" checks; 0 with none. */
export const largestTexture = (textures: OptimiseFacts['textures']): number =>
  textures.reduce((m, t) => Math.max(m, t.width, t.height), 0);

const round = (n: number, digits: number) => {
  const s = n.toFixed(digits);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
};

/**
 * The box: "0.57 × 0.37 × 1 m (w × d × h)", or in millimetres "68 × 44 × 120 mm" (a print). The
 * facts give x, y (up), z; people read width, depth, height.
 */
export function describeSize(size: OptimiseFacts['size_m'], unit: 'm' | 'mm'): string {
  const [x, y, z] = unit === 'mm' ? size.map((v) => v * 1000) : size;
  const digits = unit === 'mm' ? 1 : 2;
  return `${round(x!, digits)} × ${round(z!, digits)} × ${round(y!, digits)} ${unit}`;
}

const EXTENSION_WORDS: Record<string, string> = {
  EXT_meshopt_compression: 'Meshopt',
  KHR_draco_mesh_compression: 'Draco',
  KHR_mesh_quantization: 'quantized',
  EXT_texture_webp: 'WebP textures',
  KHR_texture_basisu: 'KTX2 textures',
};

/** "Meshopt, quantized, WebP textures" or "none" (what a loader needs to support). */
export function describeExtensions(extensions: readonly string[]): string {
  const words = extensions.map((e) => EXTENSION_WORDS[e]).filter((w): w is string => Boolean(w));
  return words.length > 0 ? words.join(', ') : 'none';
}

/** The download's name: the model's own name with what it was made for ("…-web.glb"). */
export function resultFileName(modelFileName: string, plan: OptimisePlan): string {
  const base = modelFileName.replace(/\.glb$/i, '');
  const suffix =
    plan.preset === 'print'
      ? `print-${round((plan.height_m ?? 0) * 1000, 1)}mm`
      : plan.preset === 'custom'
        ? 'optimised'
        : plan.preset;
  return `${base}-${suffix}.${plan.output}`;
}

const PRESET_NAMES = { web: 'Web / AR', game: 'Game engine', print: '3D print', custom: 'Custom' };

/** What an optimised copy is for, as people read it ("Web / AR"). */
export function presetName(plan: Pick<OptimisePlan, 'preset'>): string {
  return PRESET_NAMES[plan.preset];
}

/** What a plan does, in one line: "Web / AR: ≤ 50,000 triangles, textures ≤ 1024 px WebP, …". */
export function describePlan(plan: OptimisePlan): string {
  const parts: string[] = [];
  if (plan.output === 'stl')
    parts.push(`binary STL ${round((plan.height_m ?? 0) * 1000, 1)} mm tall, Z up, watertight`);
  if (plan.triangles !== null) parts.push(`≤ ${formatCount(plan.triangles)} triangles`);
  if (plan.output === 'glb') {
    const format =
      plan.texture_format === 'keep' ? '' : ` ${MIME_NAMES[`image/${plan.texture_format}`]}`;
    if (plan.texture_size !== null) parts.push(`textures ≤ ${plan.texture_size} px${format}`);
    else if (format) parts.push(`textures as${format}`);
    if (plan.compression !== 'none')
      parts.push(plan.compression === 'draco' ? 'Draco geometry' : 'Meshopt geometry');
    if (plan.pivot !== 'keep')
      parts.push(plan.pivot === 'bottom' ? 'pivot at the bottom centre' : 'pivot at the centre');
    if (plan.height_m !== null) parts.push(`${round(plan.height_m, 3)} m tall`);
  }
  return `${PRESET_NAMES[plan.preset]}: ${parts.length > 0 ? parts.join(', ') : 'as it is'}.`;
}
