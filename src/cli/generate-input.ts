// What `kiln generate` is asked to make, checked before anything is sent: one photo, 2–4 views
// or a prompt (files and --url addresses alike), a model that takes that input (the spec's table
// in src/contract/models.ts; a vendor's `meshy/…` model is checked by Kiln, which knows what the
// vendor's models take), a name Kiln would keep. Every refusal is a UsageError naming the flag or
// argument.
import {
  checkModelName,
  isModelAlias,
  LIMITS,
  MODEL_ALIASES,
  MODEL_INPUT,
  type InputKind,
  type ModelAlias,
} from '../contract/index.ts';
import { splitModelId } from '../contract/provider-ids.ts';
import { UsageError } from './exit.ts';
import { checkImageUrl, readPhotoFile, type Photo } from './inputs.ts';

/** The standard tier of each input, when --model is not given. */
const DEFAULT_MODEL: Readonly<Record<InputKind, ModelAlias>> = {
  image: 'beta',
  multiview: 'beta-multiview',
  text: 'beta-text',
};

/** "alpha, beta or gamma": the models that take `kind`. */
function modelsFor(kind: InputKind): string {
  const models = MODEL_ALIASES.filter((m) => MODEL_INPUT[m] === kind);
  return models.length > 1
    ? `${models.slice(0, -1).join(', ')} or ${models.at(-1)!}`
    : models.join('');
}

const INPUT_WORDS: Readonly<Record<InputKind, string>> = {
  image: 'one photo',
  multiview: '2–4 views (photos of one object: front, right, back, left)',
  text: 'a prompt (--prompt)',
};

/**
 * A spec alias that takes `kind`, or a vendor's model (`meshy/meshy-6`, `tripo/…`, `fal/…`), else
 * a UsageError naming --model with what takes what.
 */
export function checkModel(value: string | undefined, kind: InputKind): string {
  if (value === undefined) return DEFAULT_MODEL[kind];
  if (splitModelId(value)) return value;
  if (!isModelAlias(value))
    throw new UsageError(
      '--model',
      `must be one of ${MODEL_ALIASES.join(', ')} or a provider's model (meshy/…, tripo/…, fal/…), not "${value}".`,
    );
  if (MODEL_INPUT[value] !== kind)
    throw new UsageError(
      '--model',
      `${value} takes ${INPUT_WORDS[MODEL_INPUT[value]]}; for ${INPUT_WORDS[kind]} use ${modelsFor(kind)}.`,
    );
  return value;
}

/** A model's own name, trimmed, or a UsageError naming --name. */
export function checkName(value: string | undefined): string | null {
  if (value === undefined) return null;
  const checked = checkModelName(value);
  if (!checked.ok) throw new UsageError('--name', checked.message.replace(/^name /, ''));
  return checked.name;
}

export interface GenerateInput {
  kind: InputKind;
  /** A spec alias, or a vendor's `provider/model`. */
  model: string;
  /** Local photos, read and checked. */
  photos: Photo[];
  /** Image addresses (--url), in order after the photos. */
  urls: string[];
  prompt: string | null;
}

function checkPrompt(prompt: string): string {
  const text = prompt.trim();
  if (!text) throw new UsageError('--prompt', 'is empty: say what to make ("a red ceramic vase").');
  if ([...text].length > LIMITS.maxPromptLength)
    throw new UsageError('--prompt', `is longer than ${LIMITS.maxPromptLength} characters.`);
  return text;
}

/** The input and model, checked: photos read from `cwd`, addresses parsed, the model matched. */
export function generateInput(
  given: { prompt?: string | undefined; url?: string[] | undefined; model?: string | undefined },
  files: string[],
  cwd: string,
): GenerateInput {
  const urls = (given.url ?? []).map(checkImageUrl);
  const images = files.length + urls.length;
  if (given.prompt !== undefined) {
    if (images > 0)
      throw new UsageError('--prompt', 'give a prompt or photos (files, --url), not both.');
    const prompt = checkPrompt(given.prompt);
    return { kind: 'text', model: checkModel(given.model, 'text'), photos: [], urls, prompt };
  }
  if (images === 0)
    throw new UsageError('photo', 'is missing: give a photo, 2–4 views, --url or --prompt.');
  if (images > LIMITS.maxImages)
    throw new UsageError(
      'photos',
      `${images} given; a model takes at most ${LIMITS.maxImages} views.`,
    );
  const kind: InputKind = images === 1 ? 'image' : 'multiview';
  const model = checkModel(given.model, kind);
  const photos = files.map((f) => readPhotoFile(f, cwd, files.length === 1 ? 'photo' : 'photos'));
  return { kind, model, photos, urls, prompt: null };
}
