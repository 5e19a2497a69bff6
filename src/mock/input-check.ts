// Mock-only endpoints, not part of the spec: what the demo generator will model of the photos a
// create would send, asked before anything is charged (issue 32, items 2 and 4).
//   GET /v1/mock/cutout?image_url=<url or data: URI>
//   GET /v1/mock/views-check?image_url=…&image_url=… (2–4, front, right, back, left)
// They need the key (they fetch and decode images) and cost nothing.
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { ERROR_CODES, VIEW_SIDES, type CutoutCheck, type ViewsCheck } from '../contract/index.ts';
import {
  viewsAgreement,
  type PhotoCutout,
  type UsableCutout,
  type ViewPair,
} from '../generator/index.ts';
import { ApiError } from '../http/index.ts';
import type { Generator } from './engine-deps.ts';
import { ImageFetchError } from './fetch-image.ts';

export interface InputCheckDeps {
  generator: Pick<Generator, 'cutout'>;
  fetchImage: (url: string, signal: AbortSignal) => Promise<Uint8Array>;
}

/** Cut-outs kept, by image address, so that a views check after each photo's cut-out is cheap. */
const CACHE_ENTRIES = 32;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the cut-out says, in words. */
function cutoutWords(cutout: UsableCutout): Pick<CutoutCheck, 'message' | 'warning'> {
  const also: string[] = [];
  if (cutout.panelDropped) also.push('the plain surface behind it');
  if (cutout.partsDropped > 0)
    also.push(plural(cutout.partsDropped, 'thing apart from it', 'things apart from it'));
  const message =
    'Kiln will model the part left clear; the darkened backdrop is left out' +
    (also.length ? `, and so is what is shown in red: ${also.join(' and ')}.` : '.');
  const warning = cutout.panelSuspected
    ? 'Kiln cannot separate this object cleanly: much of its outline is one plain surface that may be a backdrop (a wall, a board, a disc), and it will be modelled with the object. If it is not part of the object, choose a photo on a plainer backdrop.'
    : null;
  return { message, warning };
}

function cutoutBody(cutout: PhotoCutout): CutoutCheck {
  if (!cutout.usable)
    return {
      object: 'mock.cutout',
      usable: false,
      message: cutout.message,
      warning: null,
      reason: cutout.reason === 'not_an_image' ? 'not_an_image' : 'no_subject',
      overlay: null,
      kept_share: null,
      panel_dropped: false,
      panel_suspected: false,
      parts_dropped: 0,
    };
  return {
    object: 'mock.cutout',
    usable: true,
    ...cutoutWords(cutout),
    reason: null,
    overlay: cutout.overlayPng
      ? `data:image/png;base64,${Buffer.from(cutout.overlayPng).toString('base64')}`
      : null,
    kept_share: Math.round(cutout.keptShare * 1000) / 1000,
    panel_dropped: cutout.panelDropped,
    panel_suspected: cutout.panelSuspected,
    parts_dropped: cutout.partsDropped,
  };
}

const sideOf = (i: number) => `the ${VIEW_SIDES[i]} (image ${i + 1})`;

/** The views check in one sentence, before the task and after it. */
function viewsWords(
  pairs: readonly ViewPair[],
  refused: number[],
): Pick<ViewsCheck, 'message' | 'made_message'> {
  if (refused.length) {
    const which = refused.map((i) => `Image ${i + 1}`).join(' and ');
    return {
      message: `${which} cannot be modelled: choose another photo.`,
      made_message: `${which} could not be modelled.`,
    };
  }
  if (pairs.length === 0)
    return {
      message: 'These look like views of one object.',
      made_message: 'The views showed one object.',
    };
  const reasons = pairs
    .map((p) =>
      p.differs.includes('outline')
        ? `${sideOf(p.b)} does not mirror the outline of ${sideOf(p.a)}`
        : `${sideOf(p.a)} and ${sideOf(p.b)} differ in colour`,
    )
    .join('; ');
  return {
    message: `These may not be views of one object: ${reasons}. Kiln would carve them into one model that is none of them.`,
    made_message: `The views did not show one object (${reasons}), so this model mixes them.`,
  };
}

function badUrls(urls: string[], max: number): never | void {
  if (urls.length === 0)
    throw new ApiError(400, {
      code: ERROR_CODES.missingField,
      message: 'image_url is required: send the image to check as ?image_url=….',
      param: 'image_url',
    });
  if (urls.length > max)
    throw new ApiError(400, {
      code: ERROR_CODES.invalidImageCount,
      message: `image_url: at most ${max} images can be checked at once; got ${urls.length}.`,
      param: 'image_url',
    });
  if (urls.some((u) => u.trim() === ''))
    throw new ApiError(400, {
      code: ERROR_CODES.missingField,
      message: 'image_url is empty: send the image to check as ?image_url=….',
      param: 'image_url',
    });
}

/** Routes relative to the v1 base, behind the key check. */
export function inputCheckRoutes(deps: InputCheckDeps) {
  const cache = new Map<string, Promise<PhotoCutout>>();
  const cutoutAt = (url: string, signal: AbortSignal): Promise<PhotoCutout> => {
    const key = createHash('sha256').update(url).digest('hex');
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const made = (async () => deps.generator.cutout(await deps.fetchImage(url, signal)))();
    cache.set(key, made);
    // A failed fetch is asked again next time; the oldest entries make room.
    made.catch(() => cache.delete(key));
    while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    return made;
  };
  const fetched = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof ImageFetchError)) throw err;
      throw new ApiError(400, {
        code: ERROR_CODES.imageDownloadFailed,
        message: err.message,
        param: 'image_url',
      });
    }
  };

  const app = new Hono();
  app.get('/mock/cutout', async (c) => {
    const urls = c.req.queries('image_url') ?? [];
    badUrls(urls, 1);
    const cutout = await fetched(() => cutoutAt(urls[0]!, c.req.raw.signal));
    return c.json(cutoutBody(cutout));
  });
  app.get('/mock/views-check', async (c) => {
    const urls = c.req.queries('image_url') ?? [];
    badUrls(urls, VIEW_SIDES.length);
    if (urls.length < 2)
      throw new ApiError(400, {
        code: ERROR_CODES.invalidImageCount,
        message: `image_url: send 2 to ${VIEW_SIDES.length} views to compare; got ${urls.length}.`,
        param: 'image_url',
      });
    const cutouts = await fetched(() =>
      Promise.all(urls.map((u) => cutoutAt(u, c.req.raw.signal))),
    );
    const refused = cutouts.flatMap((cut, i) => (cut.usable ? [] : [i]));
    const agreement = refused.length
      ? undefined
      : viewsAgreement(cutouts.filter((cut): cut is UsableCutout & PhotoCutout => cut.usable));
    const disagreeing = agreement?.disagreeing ?? [];
    const body: ViewsCheck = {
      object: 'mock.views_check',
      agree: refused.length === 0 && disagreeing.length === 0,
      ...viewsWords(disagreeing, refused),
      views: cutouts.map((cut, i) => ({
        side: VIEW_SIDES[i]!,
        usable: cut.usable,
        problem: cut.usable ? null : cut.message,
      })),
      disagreeing: disagreeing.map(({ a, b, differs }) => ({ a, b, differs })),
    };
    return c.json(body);
  });
  return app;
}
