// Data the server writes into a page it serves, for the SPA to read before and as it renders.
// Without zod: the SPA's entry script reads it (src/web/lib/inline-share.ts).

/** The id of the `<script type="application/json">` holding a share page's link facts. */
export const INLINE_SHARE_ID = 'kiln-share';

/**
 * The id of a share page's first paint, written by the server before the SPA's root (the page's
 * top, title and poster as the SPA draws them first); the SPA removes it when its page is drawn.
 */
export const FIRST_PAINT_ID = 'kiln-first-paint';

/**
 * The attribute the build puts on index.html's `<link rel="modulepreload">` tags for the app's
 * own code (src/web/boot.tsx and what it imports; vite.config.ts), which the entry asks for
 * after it has run. A share page leaves them out: it asks for the app once its first frame is
 * drawn (src/web/early.ts).
 */
export const APP_PRELOAD_ATTRIBUTE = 'data-kiln-app';
