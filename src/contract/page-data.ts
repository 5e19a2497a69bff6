// Data the server writes into a page it serves, for the SPA to read before and as it renders.
// Without zod: the SPA's entry script reads it (src/web/lib/inline-share.ts).

/** The id of the `<script type="application/json">` holding a share page's link facts. */
export const INLINE_SHARE_ID = 'kiln-share';
