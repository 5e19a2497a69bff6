/**
 * File names for downloaded models: `kiln-{model}-{slug}-{yyyy-mm-dd}.glb`.
 * Pure functions, shared by the gallery, the task page and anyone else who offers a download.
 */

/** How long a slug may grow before it is cut at a word boundary. */
export const MAX_SLUG_LENGTH = 40;

/**
 * A lowercase ASCII slug of `text`: accents dropped, anything else that is not a letter or a
 * digit becomes a single `-`, cut at a word boundary to at most `maxLength` characters.
 * Returns '' when nothing usable is left (e.g. only emoji or non-Latin script).
 */
export function slugify(text: string, maxLength: number = MAX_SLUG_LENGTH): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[æ]/g, 'ae')
    .replace(/[ø]/g, 'o')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= maxLength) return slug;
  const cut = slug.slice(0, maxLength + 1);
  const lastDash = cut.lastIndexOf('-');
  // Cut at the last whole word; a single over-long word is cut hard.
  return (lastDash > 0 ? cut.slice(0, lastDash) : slug.slice(0, maxLength)).replace(/-+$/, '');
}

/** `yyyy-mm-dd` of a date in the local time zone (the day the user saw it happen). */
export function isoDay(date: Date): string {
  const y = String(date.getFullYear()).padStart(4, '0');
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

export interface FileNameSource {
  /** The model alias, e.g. `beta-text`. */
  model: string;
  /** The text prompt of a text task; null or empty for photo tasks. */
  prompt?: string | null | undefined;
  /** Unix seconds (a library entry's or a task's `created`). */
  created: number;
}

/**
 * The download name of a task's GLB, e.g. `kiln-beta-text-a-red-vase-2025-01-05.glb`,
 * or `kiln-gamma-photo-2025-01-05.glb` for a photo task.
 */
export function glbFileName(source: FileNameSource): string {
  const model = slugify(source.model) || 'model';
  const prompt = source.prompt?.trim();
  // A prompt with nothing sluggable (only emoji, say) still is not a photo.
  const subject = prompt ? slugify(prompt) || 'prompt' : 'photo';
  const created = Number.isFinite(source.created) ? new Date(source.created * 1000) : new Date();
  const day = Number.isNaN(created.getTime()) ? isoDay(new Date()) : isoDay(created);
  return `kiln-${model}-${subject}-${day}.glb`;
}
