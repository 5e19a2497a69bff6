// Data the server writes into a page it serves, for the SPA to read before and as it renders.
// Without zod: the SPA's entry script reads it (src/web/lib/inline-share.ts).

/** The id of the `<script type="application/json">` holding a share page's link facts. */
export const INLINE_SHARE_ID = 'kiln-share';

/**
 * The id of a share page's first paint, written by the server before the SPA's root (the page's
 * top, title and poster as the SPA draws them first); the SPA removes it when its page is drawn.
 */
export const FIRST_PAINT_ID = 'kiln-first-paint';
