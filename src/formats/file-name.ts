/**
 * File names for downloaded models: `kiln-{model}-{subject}-{yyyy-mm-dd}-{id}.glb`, the subject
 * being the model's own name when it has one (decision 0085), else the prompt or the photo's
 * own name, the id the task's last six characters.
 * Pure functions, shared by the gallery, the task page, the batch board and the server's zip of
 * models (`GET /api/library/download.zip`), so a model has one name wherever it is downloaded.
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
  /** The task id: its last characters tell two downloads of one day apart. */
  id?: string | undefined;
  /** The model alias, e.g. `beta-text`. */
  model: string;
  /** The task's photos; the first one's file name names a photo task. */
  images?: readonly { name?: string | null | undefined }[] | undefined;
  /** The model's own name, given by its owner; it names the file when set. */
  name?: string | null | undefined;
  /** The text prompt of a text task; null or empty for photo tasks. */
  prompt?: string | null | undefined;
  /** Unix seconds (a library entry's or a task's `created`). */
  created: number;
}

/**
 * The download name of a task's GLB, e.g. `kiln-beta-text-a-red-vase-2025-01-05-9f3a2c.glb`,
 * `kiln-gamma-chair-2025-01-05-1b2c3d.glb` for a photo uploaded as chair.png, or
 * `kiln-gamma-photo-…` when the photo's name is not known; a named model is named by its name
 * (`kiln-beta-text-blue-teapot-2025-01-05-9f3a2c.glb`) when that leaves a slug.
 */
export function glbFileName(source: FileNameSource): string {
  const model = slugify(source.model) || 'model';
  const prompt = source.prompt?.trim();
  const photo = source.images?.[0]?.name?.replace(/\.[a-z0-9]{2,5}$/i, '');
  // A prompt with nothing sluggable (only emoji, say) still is not a photo.
  const named = source.name ? slugify(source.name) : '';
  const subject =
    named || (prompt ? slugify(prompt) || 'prompt' : (photo && slugify(photo)) || 'photo');
  const created = Number.isFinite(source.created) ? new Date(source.created * 1000) : new Date();
  const day = Number.isNaN(created.getTime()) ? isoDay(new Date()) : isoDay(created);
  const id = source.id ? slugify(source.id).replace(/-/g, '').slice(-6) : '';
  return `kiln-${model}-${subject}-${day}${id ? `-${id}` : ''}.glb`;
}
