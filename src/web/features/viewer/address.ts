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
