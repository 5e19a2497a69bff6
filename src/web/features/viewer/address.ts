// Which addresses the /viewer page opens from its query string.
/**
 * Only paths on this origin are opened by address ("/api/assets/x.glb"), never another site's
 * URL (nor a protocol-relative "//host/x" or a backslash trick that browsers read as one).
 */
export function sameOriginPath(value: string | null): string | null {
  if (!value) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  return value;
}

/** The models a /viewer query string names: `?src=` (or `?a=`) and, to compare, `?b=`. */
export function modelQuery(search: string): { a: string | null; b: string | null } {
  const params = new URLSearchParams(search);
  return { a: params.get('a') ?? params.get('src'), b: params.get('b') };
}

/** The same, keeping only what may be opened (see sameOriginPath). */
export function modelPathsFromQuery(search: string): { a: string | null; b: string | null } {
  const { a, b } = modelQuery(search);
  return { a: sameOriginPath(a), b: sameOriginPath(b) };
}
