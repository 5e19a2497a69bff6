import { isStorableText } from './text.ts';

/**
 * A model's own name (`PATCH /api/library/{id}` with `name`, decision 0085): what the gallery
 * card, the viewer, the download's file name, the zip, the credits history and the share page
 * show. Shared by the server (which refuses a bad name with a 400 naming `name`) and the SPA
 * (which says the same at the field before sending it).
 */

/** The longest name, in characters (code points), after trimming. */
export const MODEL_NAME_MAX = 120;

/** Direction overrides, embeddings and isolates (U+202A–U+202E, U+2066–U+2069). */
const DIRECTION_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

export type ModelNameCheck =
  | { ok: true; /** The name to keep (trimmed), or null to clear it. */ name: string | null }
  | { ok: false; /** What is wrong, in a sentence that names `name`. */ message: string };

/**
 * A name as sent, checked: trimmed, and `null` or `""` clears it. Refused: not text, over
 * {@link MODEL_NAME_MAX} characters, control characters (line breaks, tabs, NUL), direction
 * overrides or isolates, and lone UTF-16 surrogates.
 */
export function checkModelName(value: unknown): ModelNameCheck {
  if (value === null) return { ok: true, name: null };
  if (typeof value !== 'string')
    return {
      ok: false,
      message: `name must be text (1 to ${MODEL_NAME_MAX} characters), or null to clear it.`,
    };
  const name = value.trim();
  if (!isStorableText(name))
    return {
      ok: false,
      message:
        'name holds a character Kiln cannot store (U+0000, or half of a UTF-16 pair). Remove it and send again.',
    };
  if (/\p{Cc}/u.test(name))
    return {
      ok: false,
      message: 'name must not hold control characters (line breaks, tabs and the like).',
    };
  if (DIRECTION_CONTROLS.test(name))
    return {
      ok: false,
      message:
        'name must not hold direction overrides or isolates (U+202A–U+202E, U+2066–U+2069): they would show its words in another order.',
    };
  const length = [...name].length;
  if (length > MODEL_NAME_MAX)
    return {
      ok: false,
      message: `name must be at most ${MODEL_NAME_MAX} characters (this one has ${length}).`,
    };
  return { ok: true, name: name === '' ? null : name };
}
