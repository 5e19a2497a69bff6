/**
 * Text a store cannot hold: U+0000 (PostgreSQL's text refuses it) and lone UTF-16 surrogates
 * (no UTF-8 encoding exists; they would be replaced silently). Kiln refuses such text at its
 * boundary, naming the field, before anything is charged or written (decision 0075).
 */
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/**
 * The path of the first string (or object key) in a JSON value that a store cannot hold, as
 * `param` names fields (`prompt`, `image_urls[1]`, `ids[3]`); undefined when all can be held.
 */
export function unstorableTextAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path || 'body';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextAt(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) return here;
      const found = unstorableTextAt(v, here);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The sentence of the 400 for text a store cannot hold. */
export function unstorableTextMessage(param: string): string {
  return `${param} holds a character Kiln cannot store (U+0000, or half of a UTF-16 pair). Remove it and send again.`;
}

/**
 * Directional formatting characters (embeddings, overrides, isolates: U+202A–U+202E,
 * U+2066–U+2069) and the marks U+200E, U+200F, U+061C: a title that holds them can show its
 * words in another order than they were written, or reorder what is printed after it.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text fit for a title or a preview: without directional controls, nor other control characters. */
export function neutraliseBidi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(BIDI_CONTROLS, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}
