// Public links to a model: tokens, addresses, the embed snippet, and what a link shows anyone.
// Pure functions over what the share store gives; the routes (routes.ts) do the HTTP.
import { randomBytes } from 'node:crypto';
import {
  SHARE_TOKEN,
  modelTitle,
  neutraliseBidi,
  type PublicShare,
  type Share,
} from '../../contract/index.ts';
import { escapeHtml } from '../spa-shell.ts';
import type { ShareRow, SharedModel } from '../storage/shares.ts';

/**
 * A new link's secret: 144 bits from the system's CSPRNG, base64url (24 characters, no
 * padding). Random, so never derivable from the owner, the key or the task.
 */
export function newShareToken(): string {
  return randomBytes(18).toString('base64url');
}

/** True for a string shaped like a token (anything else is unknown without a database read). */
export function isShareToken(token: string): boolean {
  return SHARE_TOKEN.test(token);
}

/** Where a link's page and its frameable variant are, under `base` (an origin, no slash). */
export function shareUrls(base: string, token: string) {
  const page = `${base}/s/${token}`;
  return { page, embed: `${page}/embed` };
}

/** What a link shows, as its embed's title ends: one model, or a collection of them. */
type LinkKind = 'model' | 'collection';
const EMBED_TITLE_END: Record<LinkKind, string> = {
  model: '3D model on Kiln',
  collection: 'a collection of 3D models on Kiln',
};

/** The `<iframe>` to paste into a page: 4:3 like the gallery's pictures, no border, lazy. */
function embedSnippet(embedUrl: string, title: string, kind: LinkKind): string {
  return (
    `<iframe src="${escapeHtml(embedUrl)}" title="${escapeHtml(`${title} — ${EMBED_TITLE_END[kind]}`)}" ` +
    `width="640" height="480" style="border:0;max-width:100%" ` +
    `loading="lazy"></iframe>`
  );
}

/** What a model was made from, in words: "a text prompt", "a photo", "3 photos". */
function madeFrom(model: Pick<SharedModel, 'prompt' | 'photos'>): string {
  return model.prompt?.trim()
    ? 'a text prompt'
    : model.photos > 1
      ? `${model.photos} photos`
      : 'a photo';
}

/**
 * One sentence for link previews (og:description): a named model's prompt comes first (its
 * title is the name, so the prompt is said nowhere else), then what it was made from and with.
 */
export function shareDescription(
  model: Pick<SharedModel, 'prompt' | 'photos' | 'model'> & Partial<Pick<SharedModel, 'name'>>,
) {
  const prompt = model.prompt && neutraliseBidi(model.prompt).trim().replace(/\s+/g, ' ');
  const quoted =
    model.name?.trim() && prompt
      ? `“${prompt.length > 140 ? `${prompt.slice(0, 139)}…` : prompt}”: `
      : '';
  const sentence = `a 3D model made with Kiln from ${madeFrom(model)} (model ${model.model}). Turn it around in your browser, or see it in AR on a phone.`;
  return quoted ? `${quoted}${sentence}` : `${sentence[0]!.toUpperCase()}${sentence.slice(1)}`;
}

/**
 * The line under the title on the link preview picture: a named model's prompt, else what it
 * was made from and with (a prompt's or a photo's title already says the rest).
 */
export function previewSubtitle(
  model: Pick<SharedModel, 'prompt' | 'photos' | 'model' | 'name'>,
): string {
  const prompt = model.prompt && neutraliseBidi(model.prompt).trim().replace(/\s+/g, ' ');
  if (model.name?.trim() && prompt) return `“${prompt}”`;
  if (model.name?.trim() || prompt)
    return `A 3D model from ${madeFrom(model)}, made with ${model.model}`;
  return 'Turn it around in 3D in your browser, or see it in AR on a phone';
}

/**
 * The owner's view of a link (a model's or a collection's): what to copy. `urls` are its page
 * and embed, `title` names it in the embed snippet.
 */
export function linkView(
  urls: { page: string; embed: string },
  link: { token: string; createdMs: number },
  title: string,
  kind: LinkKind = 'model',
): Share {
  return {
    object: 'share',
    token: link.token,
    url: urls.page,
    embed_url: urls.embed,
    embed_html: embedSnippet(urls.embed, title, kind),
    created_ms: link.createdMs,
  };
}

/** The owner's view of a model's link. */
export function ownerView(base: string, row: ShareRow, title: string): Share {
  return {
    ...linkView(shareUrls(base, row.token), row, title),
    usdz_url: row.usdzSha256 ? sharedFiles(row.token).usdz : null,
  };
}

/** Where a link's files are served (same origin, relative). */
export function sharedFiles(token: string) {
  return {
    model: `/api/shares/${token}/model.glb`,
    thumbnail: `/api/shares/${token}/thumbnail.webp`,
    /** The link preview picture (og:image), made on the first request (preview.ts). */
    preview: `/api/shares/${token}/preview.jpg`,
    usdz: `/api/shares/${token}/model.usdz`,
  };
}

/**
 * A shared model's title: the one rule (`modelTitle`), from its public facts only (a photo's
 * name stays private, decision 0067), saying with what and when when nothing else names it.
 */
export function publicTitle(
  model: Pick<SharedModel, 'name' | 'prompt' | 'photos' | 'model' | 'created'>,
): string {
  return modelTitle({
    name: model.name,
    prompt: model.prompt,
    photos: model.photos,
    made: { model: model.model, created: model.created },
  });
}

/**
 * The public facts of a shared model, as a model's link and a collection's page show them
 * alike; `files` are where its GLB and picture are served.
 */
export function publicModelFacts(model: SharedModel, files: { model: string; thumbnail: string }) {
  return {
    title: publicTitle(model),
    name: neutraliseBidi(model.name ?? '').trim() || null,
    model: model.model,
    input: model.prompt?.trim()
      ? ('prompt' as const)
      : model.photos > 1
        ? ('photos' as const)
        : ('photo' as const),
    prompt: model.prompt,
    created: model.created,
    model_url: files.model,
    thumbnail_url: model.thumbnailSha256 ? files.thumbnail : null,
  };
}

/** What anyone with the link sees: built from public facts only (no owner, key or task id). */
export function publicView(base: string, token: string, model: SharedModel): PublicShare {
  const files = sharedFiles(token);
  return {
    object: 'shared_model',
    ...publicModelFacts(model, files),
    usdz_url: model.usdzSha256 ? files.usdz : null,
    url: shareUrls(base, token).page,
  };
}
