import {
  modelTitle,
  parseCreateRequest,
  type CreateGenerationInput,
  type Credits,
} from '../../../contract/index.ts';
import type { ModelChoice } from '../../api/tasks.ts';
import { fieldMessage, type ShownError } from '../../lib/describe-error.ts';
import type { Draft } from '../../lib/draft.ts';
import type { ImageItem } from './use-image-items.ts';

/** The images of a draft ("Try again"), each named as the form shows it. */
export function draftImages(draft: Draft | null): { url: string; name: string }[] {
  const urls = draft?.body.image_urls ?? (draft?.body.image_url ? [draft.body.image_url] : []);
  return urls.map((url) => ({
    url,
    name: draft?.names?.[url] ?? (url.includes('/api/uploads/') ? 'photo from the last try' : url),
  }));
}

/** What the form holds, as the create request it sends. */
export function requestBody(
  model: ModelChoice,
  inputs: { prompt: string; items: readonly ImageItem[]; wait: boolean },
): CreateGenerationInput {
  const id = model.id as CreateGenerationInput['model'];
  const mode = inputs.wait ? 'sync' : 'async';
  if (model.input === 'text') return { model: id, prompt: inputs.prompt, mode };
  const urls = inputs.items.map((i) => i.url ?? '');
  return model.input === 'multiview'
    ? { model: id, image_urls: urls, mode }
    : { model: id, ...(urls[0] !== undefined ? { image_url: urls[0] } : {}), mode };
}

/**
 * Why the form cannot send yet, at the field it concerns, or null: uploads still running or
 * failed, a photo no tier can model (refused before anything is charged, `refusedAt` its place,
 * -1 for none), then the request as the contract reads it.
 */
export function inputProblem(
  kind: ModelChoice['input'],
  items: readonly ImageItem[],
  refusedAt: number,
  req: CreateGenerationInput,
): ShownError | null {
  const imagesAt = kind === 'multiview' ? 'image_urls' : 'image_url';
  if (items.some((i) => i.status === 'checking' || i.status === 'uploading'))
    return { at: 'form', message: 'Wait for the uploads to finish.' };
  if (items.some((i) => i.status === 'error'))
    return { at: imagesAt, message: 'Remove the images that could not be used.' };
  if (refusedAt >= 0)
    return {
      at: imagesAt,
      message:
        kind === 'multiview'
          ? `View ${refusedAt + 1} cannot be modelled: choose another photo. Nothing was charged.`
          : 'This photo cannot be modelled: choose another photo. Nothing was charged.',
    };
  const local = parseCreateRequest(req);
  if (local.ok) return null;
  const at = (local.error.param ?? 'form').replace(/\[\d+\]$/, '');
  return { at, message: fieldMessage(local.error, { count: items.length }) };
}

/** What a request makes, as the task list says it (the one title rule, `modelTitle`). */
export function subjectOf(req: CreateGenerationInput): string {
  return modelTitle({ prompt: req.prompt, photos: req.image_urls?.length ?? 1 });
}

/** What the balance can buy of the models, against the one chosen. */
export interface Shortfall {
  balance: number | null;
  /** False when the balance is an estimate ("about"). */
  exact: boolean;
  /** Credits the chosen model costs beyond the balance; 0 when it is affordable or unknown. */
  shortBy: number;
  /** The models the balance pays for. */
  affordable: ModelChoice[];
}

export function shortfallOf(
  model: ModelChoice,
  choices: readonly ModelChoice[],
  credits: Pick<Credits, 'balance' | 'exact'> | undefined,
): Shortfall {
  const balance = credits?.balance ?? null;
  const shortBy =
    balance !== null && model.credits !== null && balance < model.credits
      ? model.credits - balance
      : 0;
  const affordable =
    balance === null ? [] : choices.filter((m) => m.credits !== null && m.credits <= balance);
  return { balance, exact: credits?.exact !== false, shortBy, affordable };
}
