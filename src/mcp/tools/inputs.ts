// What `generate` is made from: exactly one of a local photo (stdio only), a photo's address, a
// photo as a data URI, 2–4 views (local files or addresses), or a prompt; checked against the
// model, then turned into the addresses of Kiln uploads (every photo goes through `api.upload`
// or `api.uploadFromUrl`, so the library keeps it and its name).
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, resolve } from 'node:path';
import type { CreateBody } from '../../client/kiln/index.ts';
import { formatBytes, IMAGE_MAX_BYTES, imageKind, KIND_DESCRIPTIONS } from '../../formats/index.ts';
import { isModelAlias, MODEL_ALIASES, MODEL_INPUT, type InputKind } from '../../contract/index.ts';
import type { McpContext } from '../context.ts';
import { ToolInputError } from '../results.ts';

type PhotoField = 'image_path' | 'image_url' | 'image_data';
type ViewsField = 'image_paths' | 'image_urls';

export type GenerateInput =
  | { kind: 'photo'; field: PhotoField; value: string }
  | { kind: 'views'; field: ViewsField; values: string[] }
  | { kind: 'prompt'; field: 'prompt'; value: string };

export interface InputArgs {
  image_path?: string | undefined;
  image_url?: string | undefined;
  image_data?: string | undefined;
  image_paths?: string[] | undefined;
  image_urls?: string[] | undefined;
  prompt?: string | undefined;
}

const LOCAL_FIELDS = ['image_path', 'image_paths'] as const;
const ALL_FIELDS = [
  'image_path',
  'image_url',
  'image_data',
  'image_paths',
  'image_urls',
  'prompt',
] as const;

const orList = (items: readonly string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;

/** The field the input was given in (the first, when several were), for Kiln's refusals of it. */
export function inputField(args: InputArgs): string {
  return ALL_FIELDS.find((f) => args[f] !== undefined) ?? 'image_url';
}

/** The one input of a call; none or several is a refusal naming the fields. */
export function oneInput(args: InputArgs, localFiles: boolean): GenerateInput {
  const fields = ALL_FIELDS.filter(
    (f) => localFiles || !(LOCAL_FIELDS as readonly string[]).includes(f),
  );
  const given = fields.filter((f) => args[f] !== undefined);
  if (given.length === 0)
    throw new ToolInputError(
      orList(fields),
      'give one input: a photo, 2 to 4 views of one object, or a prompt.',
    );
  if (given.length > 1)
    throw new ToolInputError(
      given.join(', '),
      `give one input, not ${given.length}: a photo, 2 to 4 views of one object, or a prompt.`,
    );
  const field = given[0]!;
  if (field === 'prompt') return { kind: 'prompt', field, value: args.prompt! };
  if (field === 'image_paths' || field === 'image_urls')
    return { kind: 'views', field, values: args[field]! };
  return { kind: 'photo', field, value: args[field]! };
}

const KIND_OF_INPUT: Readonly<Record<InputKind, GenerateInput['kind']>> = {
  image: 'photo',
  multiview: 'views',
  text: 'prompt',
};
const SAID: Readonly<Record<GenerateInput['kind'], string>> = {
  photo: 'one photo',
  views: '2 to 4 views',
  prompt: 'a prompt',
};

/** A spec alias given the wrong kind of input is refused before anything is uploaded. */
export function checkModelTakes(model: string, input: GenerateInput): void {
  if (!isModelAlias(model)) return;
  const takes = KIND_OF_INPUT[MODEL_INPUT[model]];
  if (takes === input.kind) return;
  const fitting = MODEL_ALIASES.filter((a) => KIND_OF_INPUT[MODEL_INPUT[a]] === input.kind);
  throw new ToolInputError(
    input.field,
    `${model} takes ${SAID[takes]}, not ${SAID[input.kind]}; for ${SAID[input.kind]} use ${orList(fitting)}.`,
  );
}

/** A local path as the host meant it: `~/…` is the home folder, a relative one the caller's. */
function localPath(path: string): string {
  if (path === '~' || path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return isAbsolute(path) ? path : resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

/** A local photo's bytes, or a refusal naming the field (no file, a folder, too large). */
async function readLocal(field: string, path: string): Promise<Uint8Array> {
  const full = localPath(path);
  let bytes: Buffer;
  try {
    bytes = await readFile(full);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'there is no file at'
        : code === 'EISDIR'
          ? 'this is a folder, not a photo:'
          : `this file cannot be read (${code ?? String(err)}):`;
    throw new ToolInputError(field, `${why} ${full}.`);
  }
  if (bytes.byteLength > IMAGE_MAX_BYTES)
    throw new ToolInputError(
      field,
      `${full} is ${formatBytes(bytes.byteLength)}; Kiln takes photos up to ${formatBytes(IMAGE_MAX_BYTES)}.`,
    );
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const DATA_URI = /^data:(image\/[\w.+-]+)(?:;[\w.+=-]+)*;base64,/i;

/** A data URI's image: its media type and bytes, or a refusal naming the field. */
function dataImage(field: string, uri: string): { type: string; bytes: Uint8Array } {
  const head = DATA_URI.exec(uri.slice(0, 256));
  if (!head)
    throw new ToolInputError(
      field,
      'a photo as data must be a base64 data URI of an image: data:image/png;base64,… (or data:image/jpeg, data:image/webp).',
    );
  const bytes = new Uint8Array(Buffer.from(uri.slice(head[0].length), 'base64'));
  if (bytes.byteLength === 0) throw new ToolInputError(field, 'the data URI holds no image.');
  return { type: head[1]!.toLowerCase(), bytes };
}

const TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/** One photo, kept by Kiln: its upload's address for the upstream. */
async function uploaded(ctx: McpContext, field: string, value: string, signal: AbortSignal) {
  if (field.startsWith('image_path')) {
    const bytes = await readLocal(field, value);
    const kind = imageKind(bytes.subarray(0, 4096));
    if (kind !== 'png' && kind !== 'jpeg' && kind !== 'webp')
      throw new ToolInputError(
        field,
        `${localPath(value)} is ${KIND_DESCRIPTIONS[kind]}; Kiln takes PNG, JPEG or WebP photos.`,
      );
    return (await ctx.api.upload(bytes, basename(value), TYPES[kind]!, { signal })).url;
  }
  if (value.startsWith('data:')) {
    const { type, bytes } = dataImage(field, value);
    const ext = type.split('/')[1]!.replace('jpeg', 'jpg');
    return (await ctx.api.upload(bytes, `photo.${ext}`, type, { signal })).url;
  }
  return (await ctx.api.uploadFromUrl(value)).url;
}

/** The create's body for `model` and the input, its photos uploaded first. */
export async function createBody(
  ctx: McpContext,
  model: string,
  input: GenerateInput,
  signal: AbortSignal,
): Promise<CreateBody> {
  if (input.kind === 'prompt') return { model, prompt: input.value };
  if (input.kind === 'photo')
    return { model, image_url: await uploaded(ctx, input.field, input.value, signal) };
  const urls: string[] = [];
  // One at a time, in order: the views' order is their sides' (front, right, back, left).
  for (const [i, value] of input.values.entries())
    urls.push(await uploaded(ctx, `${input.field}[${i}]`, value, signal));
  return { model, image_urls: urls };
}
