// What a model's link (`/s/{token}`, share/routes.ts) and a collection's link (`/c/{token}`,
// collections/routes.ts) answer alike: the public page shell with its meta, the public files,
// the link preview picture, and the 404 of a link that is gone.
import { Hono, type Context } from 'hono';
import { createHash } from 'node:crypto';
import { ERROR_CODES } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { FRAMEABLE_CSP } from '../security.ts';
import { serveBlob } from '../serve-blob.ts';
import {
  beforeScripts,
  stylesheetTags,
  withMeta,
  withoutAppPreloads,
  withPreloads,
} from '../spa-shell.ts';
import { withFirstPaintBody } from './first-paint.ts';
import type { BlobStore } from '../storage/blobs.ts';
import { PREVIEW_HEIGHT, PREVIEW_TYPE, PREVIEW_WIDTH } from './preview.ts';
import { isShareToken } from './service.ts';

/** Every public answer: never listed by search engines. */
const NOINDEX = { 'X-Robots-Tag': 'noindex, nofollow' } as const;

export const NO_STORE = { 'Cache-Control': 'no-store' } as const;

/** The origin links are made on: PUBLIC_URL, else the request's own. */
export function baseOf(c: { req: { url: string } }, publicUrl: string | undefined): string {
  return (publicUrl ?? new URL(c.req.url).origin).replace(/\/+$/, '');
}

/** What a link that is gone says: never made, or its owner stopped sharing it. */
const goneMessage = (what: 'model' | 'collection') =>
  `There is no ${what} at this link: it was never made, or its owner stopped sharing it.`;

/**
 * The same 404 for an unknown token, a revoked one, and (for a model) one whose model is gone:
 * `what` is what the link showed.
 */
export const linkGone = (what: 'model' | 'collection') => () =>
  new ApiError(
    404,
    { code: ERROR_CODES.shareNotFound, message: goneMessage(what) },
    { headers: { ...NOINDEX, ...NO_STORE } },
  );

/**
 * What a live link shows, or `missing()`: a token not shaped like one is unknown without a
 * database read.
 */
export async function resolveLink<T>(
  token: string,
  resolve: (token: string) => Promise<T | undefined>,
  missing: () => Error,
): Promise<T> {
  const found = isShareToken(token) ? await resolve(token) : undefined;
  if (found === undefined) throw missing();
  return found;
}

/**
 * Serves a link's preview picture (a model's or a collection's), made at most once per key: a
 * request whose key matches the remembered one reads the stored JPEG; otherwise it is rendered,
 * stored in the blob store (`thumbnails/…jpg`) and remembered with the link. Requests that
 * arrive together while it is being made (a chat app's fetchers, many members of a group) wait
 * for the one render in this process.
 */
export function previewServer(blobs: BlobStore) {
  const making = new Map<string, Promise<string>>();
  const blob = (sha256: string) =>
    ({ kind: 'thumbnails', sha256, ext: 'jpg', contentType: PREVIEW_TYPE }) as const;
  return {
    async serve(
      c: Context,
      link: {
        token: string;
        key: string;
        remembered: { key: string; sha256: string } | null;
        missing: () => Error;
        render: () => Promise<Uint8Array>;
        remember: (preview: { key: string; sha256: string }) => Promise<void>;
      },
    ): Promise<Response> {
      if (link.remembered?.key === link.key) {
        try {
          return await servePublicBlob(
            c,
            blobs,
            link.token,
            blob(link.remembered.sha256),
            link.missing,
          );
        } catch (err) {
          // The picture was remembered but its file is gone: made again below.
          if (!(err instanceof ApiError && err.status === 404)) throw err;
        }
      }
      const flight = `${link.token}\n${link.key}`;
      let made = making.get(flight);
      if (!made) {
        made = (async () => {
          const stored = await blobs.put('thumbnails', await link.render(), 'jpg');
          await link.remember({ key: link.key, sha256: stored.sha256 });
          return stored.sha256;
        })().finally(() => making.delete(flight));
        making.set(flight, made);
      }
      return servePublicBlob(c, blobs, link.token, blob(await made), link.missing);
    },
  };
}

export type PublicBlob = Omit<Parameters<typeof serveBlob>[2], 'etag' | 'cacheControl'>;

/** A shared model's GLB, as a link serves it. */
export const glbBlob = (sha256: string): PublicBlob => ({
  kind: 'assets',
  sha256,
  ext: 'glb',
  contentType: 'model/gltf-binary',
});

/** A shared model's picture, as a link serves it. */
export const thumbnailBlob = (sha256: string): PublicBlob => ({
  kind: 'thumbnails',
  sha256,
  ext: 'webp',
  contentType: 'image/webp',
});

/**
 * A link's file from the blob store (ranged, conditional), revalidated on every use: a revoked
 * link stops serving at once, and a live one costs a 304. `linkKey` is what the ETag is made of
 * with the file's hash (the token, and for a collection the model's place in it).
 */
async function servePublicBlob(
  c: Context,
  blobs: BlobStore,
  linkKey: string,
  blob: PublicBlob,
  missing: () => Error,
): Promise<Response> {
  // The ETag is the link's own (it does not tell the file's hash): nothing a share sends
  // names anything that still opens the file once the link is revoked (decision 0077).
  const etag = createHash('sha256').update(`${linkKey}\n${blob.sha256}`).digest('base64url');
  const res = await serveBlob(c, blobs, { ...blob, etag });
  if (!res) throw missing();
  res.headers.set('Cache-Control', 'private, no-cache');
  res.headers.set('X-Robots-Tag', NOINDEX['X-Robots-Tag']);
  return res;
}

/**
 * Route handlers for a live link's files: `find` is what the request's link shows (or throws
 * `missing()`), `pick` names the file in it (null: the link's 404 too).
 */
export function linkFiles<T>(
  blobs: BlobStore,
  find: (c: Context) => Promise<T>,
  missing: () => Error,
) {
  return (pick: (found: T) => PublicBlob | null) => async (c: Context) => {
    const blob = pick(await find(c));
    if (!blob) throw missing();
    return servePublicBlob(c, blobs, c.req.param('token') ?? '', blob, missing);
  };
}

/** What a link shows anyone, as JSON: never listed, never kept. */
export const publicAnswer = (c: Context, body: object) =>
  c.json(body, 200, { ...NOINDEX, ...NO_STORE });

/** What a page's first frame needs, named in its <head> (see first-paint.ts). */
export interface FirstPaint {
  tags: string;
  modules: readonly string[];
  /** Tags for the head's top, before the page's scripts (what is fetched first). */
  lead?: string;
  /** The page as the SPA draws it first, drawn here (before the SPA's root). */
  body?: string;
  /** The modules whose stylesheets `body` needs (linked in the <head>). */
  stylesheets?: readonly string[];
  /**
   * The page asks for the app's code only once its first frame is drawn (src/web/early.ts): the
   * shell does not name it (index.html's APP_PRELOAD_ATTRIBUTE tags are left out).
   */
  appAfterFirstFrame?: boolean;
}

/** Which page of a link is asked for, and in what language. */
export interface PageAsked {
  embed: boolean;
  /** The request's `Accept-Language`. */
  languages: string | undefined;
}

/**
 * `html` with a first paint: its lead tags and stylesheets before the page's scripts, its tags
 * and module preloads at the head's end, and its body.
 */
function withFirstPaint(html: string, manifest: unknown, first: FirstPaint): string {
  let page = withPreloads(
    first.appAfterFirstFrame ? withoutAppPreloads(html) : html,
    manifest,
    first.modules,
  );
  page = page.replace(/\s*<\/head>/, () => `${first.tags}\n  </head>`);
  const styles = first.body ? stylesheetTags(page, manifest, first.stylesheets ?? []) : '';
  page = beforeScripts(page, `${first.lead ?? ''}${styles}`);
  return first.body ? withFirstPaintBody(page, first.body) : page;
}

/** What a public page's shell needs: the built index.html and Vite's manifest. */
export interface PublicPageDeps {
  publicUrl?: string | undefined;
  indexHtml: string;
  manifest: unknown;
}

/**
 * `/{token}` (a link's public page) and `/{token}/embed` (the same for an `<iframe>` on any
 * site): the SPA's shell with Open Graph and Twitter tags rendered here, so a chat app's
 * preview shows the link's title and picture (always the link preview picture). An unknown or
 * revoked token is a 404 with the "gone" shell (the SPA then says the link is gone). Only the
 * embed may be framed.
 */
export function publicPageRoutes<T>(
  deps: PublicPageDeps,
  link: {
    /** What the link shows, named in the "gone" page. */
    what: 'model' | 'collection';
    /** The modules the page needs first (preloaded). */
    modules: readonly string[];
    resolve: (token: string) => Promise<T | undefined>;
    /** The page's title, description and address, and its picture's address and words. */
    meta: (
      base: string,
      token: string,
      found: T,
    ) => { title: string; description: string; url: string; image: { url: string; alt: string } };
    /**
     * What the page's first frame needs, for its <head>: tags, and modules to preload
     * (first-paint.ts). A failure costs the page only its hints.
     */
    firstPaint?: (base: string, token: string, found: T, page: PageAsked) => Promise<FirstPaint>;
  },
) {
  const app = new Hono();
  const shell = withPreloads(deps.indexHtml, deps.manifest, link.modules);
  const gone = withMeta(deps.indexHtml, {
    title: 'Link not found',
    description: goneMessage(link.what),
    noindex: true,
  });

  const page = (embed: boolean) => async (c: Context) => {
    const token = c.req.param('token') ?? '';
    const headers: Record<string, string> = { ...NOINDEX, ...NO_STORE };
    if (embed) {
      headers['Content-Security-Policy'] = FRAMEABLE_CSP;
      headers['Cross-Origin-Resource-Policy'] = 'cross-origin';
    }
    const found = isShareToken(token) ? await link.resolve(token) : undefined;
    if (found === undefined) return c.html(gone, 404, headers);
    const meta = link.meta(baseOf(c, deps.publicUrl), token, found);
    const html = withMeta(shell, {
      ...meta,
      image: { ...meta.image, type: PREVIEW_TYPE, width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT },
      noindex: true,
    });
    const first = await link
      .firstPaint?.(baseOf(c, deps.publicUrl), token, found, {
        embed,
        languages: c.req.header('Accept-Language'),
      })
      .catch(() => null);
    return c.html(first ? withFirstPaint(html, deps.manifest, first) : html, 200, headers);
  };

  app.get('/:token', page(false));
  app.get('/:token/embed', page(true));
  return app;
}
