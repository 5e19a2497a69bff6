import { z } from 'zod';
import { ERROR_CODES, ERROR_TYPES, type ErrorCode, type KnownErrorObject } from './errors.ts';
import { LIMITS, MODEL_ALIASES, MODEL_INPUT } from './models.ts';

export const MODES = ['async', 'sync'] as const;
export const ModeSchema = z.enum(MODES);
export type Mode = z.infer<typeof ModeSchema>;

export const imageUrlField = (field: string) =>
  z
    .string({ error: `${field} must be a string holding a URL.` })
    .trim()
    .min(1, { error: `${field} must not be empty.` })
    .pipe(
      z
        .url({
          protocol: /^(https?|data)$/,
          error: `${field} must be a valid http, https or data: URL.`,
        })
        .refine((u) => !u.startsWith('data:') || DATA_IMAGE_URI.test(u.slice(0, 256)), {
          error: `${field} is a data: URI without an image in it; send data:image/…;base64, followed by the image.`,
        }),
    );

/** `image_urls`: `min` to LIMITS.maxImages image addresses, each checked as `image_url` is. */
export const imageUrlsField = (min: number, needs: string) =>
  z
    .array(imageUrlField('image_urls[]'), { error: 'image_urls must be an array of URLs.' })
    .min(min, {
      error: (i) =>
        `image_urls needs ${needs} images; got ${String((i.input as unknown[]).length)}.`,
    })
    .max(LIMITS.maxImages, {
      error: (i) =>
        `image_urls takes at most ${LIMITS.maxImages} images; got ${String((i.input as unknown[]).length)}.`,
    })
    .optional();

/** `data:image/<type>[;params][;base64],<at least one character>` (read from the first bytes only). */
const DATA_IMAGE_URI = /^data:image\/[\w.+-]+(;[\w.+=-]+)*,./i;

/**
 * The body of `POST /3d/generations` (spec 4.1) with every rule of the spec,
 * plus the input-kind rules the model table implies. Unknown fields pass.
 */
export const CreateGenerationRequestSchema = z
  .object({
    model: z.enum(MODEL_ALIASES, {
      error: (i) =>
        i.input === undefined
          ? 'model is required.'
          : `model must be one of ${MODEL_ALIASES.join(', ')}.`,
    }),
    image_url: imageUrlField('image_url').optional(),
    image_urls: imageUrlsField(LIMITS.minImages, `${LIMITS.minImages} to ${LIMITS.maxImages}`),
    prompt: z
      .string({ error: 'prompt must be a string.' })
      .max(LIMITS.maxPromptLength, {
        error: (i) =>
          `prompt must be at most ${LIMITS.maxPromptLength} characters; got ${String((i.input as string).length)}.`,
      })
      .optional(),
    mode: z.enum(MODES, { error: 'mode must be "sync" or "async".' }).optional(),
  })
  .loose()
  .superRefine((req, ctx) => {
    const kind = MODEL_INPUT[req.model];
    const issue = (path: string, code: ErrorCode, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message, params: { code } });
    if (kind === 'image') {
      if (req.image_urls !== undefined)
        issue(
          'image_urls',
          ERROR_CODES.unsupportedInput,
          `image_urls is only for multi-view models; ${req.model} takes one image in image_url.`,
        );
      else if (req.image_url === undefined)
        issue('image_url', ERROR_CODES.missingField, `image_url is required for ${req.model}.`);
    } else if (kind === 'multiview') {
      if (req.image_urls === undefined)
        issue(
          'image_urls',
          ERROR_CODES.missingField,
          `image_urls (${LIMITS.minImages} to ${LIMITS.maxImages} images) is required for ${req.model}.`,
        );
      else if (req.image_url !== undefined)
        issue(
          'image_url',
          ERROR_CODES.unsupportedInput,
          `${req.model} takes its views in image_urls; send no image_url.`,
        );
    } else {
      if (req.prompt === undefined || req.prompt.trim() === '')
        issue('prompt', ERROR_CODES.missingField, `prompt is required for ${req.model}.`);
      for (const field of ['image_url', 'image_urls'] as const)
        if (req[field] !== undefined)
          issue(field, ERROR_CODES.unsupportedInput, `${req.model} takes a prompt, not ${field}.`);
    }
  });

export type CreateGenerationRequest = z.infer<typeof CreateGenerationRequestSchema>;
export type CreateGenerationInput = z.input<typeof CreateGenerationRequestSchema>;

/** `image_urls[2]` from a zod path. */
export function paramOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** The spec's error object for the first problem zod found, with `param` naming the field. */
export function invalidRequestFromZod(error: z.ZodError): KnownErrorObject {
  const first = error.issues[0];
  if (!first)
    return {
      message: 'The request is invalid.',
      type: ERROR_TYPES.invalidRequest,
      code: ERROR_CODES.invalidValue,
    };
  const param = paramOf(first.path);
  return {
    message: issueMessage(first, param),
    type: ERROR_TYPES.invalidRequest,
    code: issueCode(first, param),
    ...(param ? { param } : {}),
  };
}

function issueCode(issue: z.core.$ZodIssue, param: string): ErrorCode {
  if (issue.code === 'custom') {
    // The schema's own refinements name one of ERROR_CODES.
    const code = (issue.params as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') return code as ErrorCode;
  }
  if (
    (issue.code === 'invalid_type' || issue.code === 'invalid_value') &&
    issue.input === undefined
  )
    return ERROR_CODES.missingField;
  if (param === 'image_urls' && (issue.code === 'too_small' || issue.code === 'too_big'))
    return ERROR_CODES.invalidImageCount;
  if (param === 'prompt' && issue.code === 'too_big') return ERROR_CODES.promptTooLong;
  return ERROR_CODES.invalidValue;
}

function issueMessage(issue: z.core.$ZodIssue, param: string): string {
  if (issue.code === 'invalid_type' && issue.input === undefined && param)
    return `${param} is required.`;
  if (param === '') return 'The request body must be a JSON object.';
  return issue.message.replace('image_urls[]', param);
}

export type ParsedCreate =
  { ok: true; value: CreateGenerationRequest } | { ok: false; error: KnownErrorObject };

/** Validate a create body; on failure, the spec-shaped error naming the field. */
export function parseCreateRequest(body: unknown): ParsedCreate {
  // reportInput keeps `issue.input`, which tells a missing field from a wrong one.
  const result = CreateGenerationRequestSchema.safeParse(body, { reportInput: true });
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, error: invalidRequestFromZod(result.error) };
}
