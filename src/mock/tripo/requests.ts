// The Tripo mock's reading of a create body (POST /task): which task, what input, what it costs,
// and which documented error code refuses it. Lenient where Tripo says it does not validate.
import { z } from 'zod';
import {
  DEPRECATED_VERSIONS,
  MODEL_VERSIONS,
  NOT_FOR_MULTIVIEW,
  TASK_TYPES,
  priceOf,
  type ErrorCode,
  type TaskType,
} from './catalogue.ts';
import type { ImageSource, TaskInput, Trigger } from './tasks.ts';

const FileSchema = z
  .object({
    type: z.string().optional(),
    file_token: z.string().optional(),
    url: z.string().optional(),
    object: z.object({ bucket: z.string(), key: z.string() }).optional(),
  })
  .passthrough();
type FileRef = z.infer<typeof FileSchema>;

const CreateSchema = z
  .object({
    type: z.string(),
    model_version: z.string().optional(),
    prompt: z.string().optional(),
    file: FileSchema.optional(),
    files: z.array(FileSchema).optional(),
    texture: z.boolean().optional(),
    pbr: z.boolean().optional(),
    texture_quality: z.string().optional(),
    smart_low_poly: z.boolean().optional(),
    quad: z.boolean().optional(),
    generate_parts: z.boolean().optional(),
  })
  .passthrough();

export interface ParsedCreate {
  type: TaskType;
  input: TaskInput;
  echo: Record<string, unknown>;
  pbr: boolean;
  price: number;
  /** Every text a `mock:` trigger may hide in: the prompt and the image URLs. */
  triggerText: string;
}

type Refusal = { refuse: ErrorCode };
type Uploads = (token: string) => Uint8Array | undefined;

function sourceOf(file: FileRef, uploads: Uploads): ImageSource | Refusal {
  const given = [file.file_token, file.url, file.object].filter((v) => v !== undefined);
  if (given.length !== 1) return { refuse: 1004 };
  if (file.file_token !== undefined) {
    const bytes = uploads(file.file_token);
    return bytes ? { bytes } : { refuse: 2019 };
  }
  // STS objects live in Tripo's S3 bucket, which the mock does not have.
  if (file.object) return { refuse: 2019 };
  return /^https?:\/\//i.test(file.url ?? '') ? { url: file.url ?? '' } : { refuse: 1004 };
}

const isEmptySlot = (f: FileRef) => !f.file_token && !f.url && !f.object;

function inputOf(
  type: TaskType,
  body: z.infer<typeof CreateSchema>,
  uploads: Uploads,
): TaskInput | Refusal {
  if (type === 'text_to_model') {
    const prompt = body.prompt?.trim() ?? '';
    if (!prompt || prompt.length > 1024) return { refuse: 1004 };
    return { kind: 'text', prompt };
  }
  if (type === 'image_to_model') {
    if (!body.file) return { refuse: 2003 };
    const image = sourceOf(body.file, uploads);
    return 'refuse' in image ? image : { kind: 'image', image };
  }
  // Exactly four slots, front first and present, at least two images (generation docs).
  const files = body.files ?? [];
  if (files.length !== 4 || !files[0] || isEmptySlot(files[0])) return { refuse: 1004 };
  if (files.filter((f) => !isEmptySlot(f)).length < 2) return { refuse: 1004 };
  const slots: (ImageSource | null)[] = [];
  for (const f of files) {
    if (isEmptySlot(f)) {
      slots.push(null);
      continue;
    }
    const source = sourceOf(f, uploads);
    if ('refuse' in source) return source;
    slots.push(source);
  }
  return { kind: 'multiview', slots };
}

function versionRefusal(type: TaskType, version: string | undefined): Refusal | undefined {
  if (version === undefined) return undefined;
  if (DEPRECATED_VERSIONS.includes(version)) return { refuse: 2015 };
  if (!(MODEL_VERSIONS as readonly string[]).includes(version)) return { refuse: 2017 };
  if (type === 'multiview_to_model' && NOT_FOR_MULTIVIEW.includes(version)) return { refuse: 2017 };
  return undefined;
}

/** A create body read, or the documented code that refuses it. */
export function parseCreate(raw: unknown, uploads: Uploads): ParsedCreate | Refusal {
  const parsed = CreateSchema.safeParse(raw);
  if (!parsed.success) return { refuse: 1004 };
  const body = parsed.data;
  const type = TASK_TYPES.find((t) => t === body.type);
  if (!type) return { refuse: 2002 };
  const refused = versionRefusal(type, body.model_version);
  if (refused) return refused;
  const input = inputOf(type, body, uploads);
  if ('refuse' in input) return input;
  const { type: _type, ...echo } = body;
  const urls = [body.file, ...(body.files ?? [])].map((f) => f?.url ?? '');
  return {
    type,
    input,
    echo: { model_version: MODEL_VERSIONS[0], ...echo },
    pbr: body.pbr !== false,
    price: priceOf(type, body),
    triggerText: [body.prompt ?? '', ...urls].join(' '),
  };
}

/** The task trigger in a prompt or image URL (README "Triggers"), if any. */
export function triggerOf(text: string): Trigger | null {
  const found = /mock:(fail|banned|expired|cancelled|unknown)\b/.exec(text);
  if (!found) return null;
  return found[1] === 'fail' ? 'failed' : (found[1] as Trigger);
}
