// A share link's facts as the server wrote them into its page (src/server/share/first-paint.ts):
// read by the entry script to start the model, and by the page's query as its first answer.
// Without zod: the entry script reads it too.

import { FIRST_PAINT_ID, INLINE_SHARE_ID } from '../../contract/page-data.ts';

/** The token of a share page's address (`/s/{token}`, `/s/{token}/embed`), or null. */
export function shareTokenOf(pathname: string): string | null {
  return /^\/s\/([^/]+)(?:\/embed)?\/?$/.exec(pathname)?.[1] ?? null;
}

/**
 * The link's facts in the page, unparsed, when they are `token`'s and the page is its share page
 * (the SPA may have moved on to another page or link since), else undefined.
 */
export function inlineShare(
  token: string,
  doc: Pick<Document, 'getElementById'> = document,
  pathname: string = location.pathname,
): unknown {
  if (shareTokenOf(pathname) !== token) return undefined;
  const text = doc.getElementById(INLINE_SHARE_ID)?.textContent;
  if (!text) return undefined;
  try {
    const facts = JSON.parse(text) as { url?: unknown } | null;
    const own = typeof facts?.url === 'string' && facts.url.endsWith(`/s/${token}`);
    return own ? facts : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the page still shows the server's first paint of a share page (first-paint.ts). */
export const firstPaintShown = (doc: Pick<Document, 'getElementById'> = document) =>
  doc.getElementById(FIRST_PAINT_ID) !== null;

/**
 * Whether the server's first paint shows the model drawn (src/web/features/viewer/first-frame.ts),
 * which stays up until the page's viewer shows it too.
 */
export const firstFrameDrawn = (doc: Pick<Document, 'querySelector'> = document) =>
  doc.querySelector(`#${FIRST_PAINT_ID} .share-page__poster-frame--drawn`) !== null;

/** Removes the server's first paint: the SPA's page has been drawn in its place. */
export function dropFirstPaint(doc: Pick<Document, 'getElementById'> = document): void {
  doc.getElementById(FIRST_PAINT_ID)?.remove();
}
