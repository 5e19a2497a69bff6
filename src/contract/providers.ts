import { z } from 'zod';
import { ERROR_CODES, ERROR_TYPES, type ErrorCode } from './errors.ts';
import {
  imageUrlField,
  imageUrlsField,
  invalidRequestFromZod,
  type ParsedCreate,
} from './create-request.ts';
import { LIMITS, isModelAlias } from './models.ts';
import type { KnownErrorObject } from './errors.ts';

export * from './provider-ids.ts';
import { splitModelId, VENDOR_PROVIDERS } from './provider-ids.ts';
import type { VendorProvider } from './provider-ids.ts';

export const VendorProviderSchema = z.enum(VENDOR_PROVIDERS);

export const PriceUnitSchema = z.enum(['credits', 'USD']);

/**
 * What a vendor's task cost, in that vendor's own unit (Meshy's and Tripo's credits, fal's USD;
 * decisions 0115, 0116): never converted, never added across units.
 */
export const ProviderCostSchema = z.object({
  amount: z.number(),
  unit: PriceUnitSchema,
});
export type ProviderCost = z.infer<typeof ProviderCostSchema>;

export type PriceUnitName = z.infer<typeof PriceUnitSchema>;

const InputKindsSchema = z.array(z.enum(['image', 'multiview', 'text']));

/** One model of `GET /api/providers/{name}/models`. */
export const ProviderModelSchema = z.object({
  id: z.string().min(1),
  provider: VendorProviderSchema,
  label: z.string(),
  inputs: InputKindsSchema,
  price: z.partialRecord(z.enum(['image', 'multiview', 'text']), z.number().nonnegative()),
  unit: PriceUnitSchema,
  description: z.string(),
});
export type ProviderModelRecord = z.infer<typeof ProviderModelSchema>;
export const ProviderModelListSchema = z.object({ data: z.array(ProviderModelSchema) });

/** `GET /api/providers`: which providers this Kiln can reach, and how to recognise their keys. */
export const ProviderInfoSchema = z.object({
  name: VendorProviderSchema,
  label: z.string(),
  /** Where Kiln reaches it (host only). */
  host: z.string(),
  /** Whether the vendor has a balance call. */
  balance: z.boolean(),
  /** How its keys start, for a person ("msy_…"). */
  key_hint: z.string(),
  /** The built-in mock, and its demo key, when MOCK_PROVIDERS names it. */
  mock_key: z.string().nullable(),
});
export type ProviderInfo = z.infer<typeof ProviderInfoSchema>;
export const ProviderInfoListSchema = z.object({ data: z.array(ProviderInfoSchema) });

/** `GET /api/providers/{name}/balance`: the vendor's figure as of a moment, or why there is none. */
export const ProviderBalanceSchema = z.object({
  provider: VendorProviderSchema,
  amount: z.number().nullable(),
  unit: PriceUnitSchema,
  frozen: z.number().nullable(),
  as_of_ms: z.number().int(),
  /** Set when amount is null: the vendor offers no balance to read. */
  note: z.string().nullable(),
});
export type ProviderBalanceRecord = z.infer<typeof ProviderBalanceSchema>;

/** What a vendor's task adds to the spec's task shape (decision 0114). */
export const ProviderTaskExtrasSchema = z.object({
  provider: VendorProviderSchema,
  /** Place in the vendor's queue (0 = next), where it says so. */
  queue_position: z.number().int().nonnegative().nullish(),
  logs: z.array(z.string()).nullish(),
  cost: ProviderCostSchema.nullish(),
  /** A task of several charged stages (Meshy's preview, then refine). */
  step: z.object({ index: z.number().int(), of: z.number().int(), name: z.string() }).nullish(),
  /** When the vendor's result address stops working (ms). */
  result_expires_ms: z.number().nullish(),
});
export type ProviderTaskExtras = z.infer<typeof ProviderTaskExtrasSchema>;

const issue = (message: string, param: string, code: ErrorCode): KnownErrorObject => ({
  message,
  type: ERROR_TYPES.invalidRequest,
  code,
  param,
});

/** A create for a vendor's model: exactly one input, checked as the spec checks its own. */
const ProviderCreateSchema = z
  .object({
    model: z.string(),
    image_url: imageUrlField('image_url').optional(),
    image_urls: imageUrlsField(1, `1 to ${LIMITS.maxImages}`),
    prompt: z
      .string({ error: 'prompt must be a string.' })
      .trim()
      .min(1, { error: 'prompt must not be empty.' })
      .max(LIMITS.maxPromptLength, {
        error: `prompt must be at most ${LIMITS.maxPromptLength} characters.`,
      })
      .optional(),
    mode: z.literal('async', { error: 'mode must be "async" for a provider\'s model.' }).optional(),
  })
  .loose();
export type ProviderCreateRequest = z.infer<typeof ProviderCreateSchema>;

/** The input kind a provider create asks for, or the error naming the field. */
export function providerInputKind(
  req: ProviderCreateRequest,
): { ok: true; kind: 'image' | 'multiview' | 'text' } | { ok: false; error: KnownErrorObject } {
  const given = (['image_url', 'image_urls', 'prompt'] as const).filter(
    (f) => req[f] !== undefined,
  );
  if (given.length === 0)
    return {
      ok: false,
      error: issue(
        `${req.model} needs one input: image_url, image_urls or prompt.`,
        'image_url',
        ERROR_CODES.missingField,
      ),
    };
  if (given.length > 1)
    return {
      ok: false,
      error: issue(
        `Send one input, not ${given.join(' and ')}.`,
        given[1]!,
        ERROR_CODES.unsupportedInput,
      ),
    };
  const kind = given[0] === 'image_url' ? 'image' : given[0] === 'prompt' ? 'text' : 'multiview';
  return { ok: true, kind };
}

/** A provider create's body, parsed; the spec's aliases are not for this (see parseCreateRequest). */
export function parseProviderCreate(
  body: unknown,
):
  | { ok: true; value: ProviderCreateRequest; provider: VendorProvider; model: string }
  | Extract<ParsedCreate, { ok: false }> {
  const result = ProviderCreateSchema.safeParse(body, { reportInput: true });
  if (!result.success) return { ok: false, error: invalidRequestFromZod(result.error) };
  const split = splitModelId(result.data.model);
  if (!split || isModelAlias(result.data.model))
    return {
      ok: false,
      error: issue(
        `model must be one of the spec's models or provider/model (meshy/…, tripo/…, fal/…).`,
        'model',
        ERROR_CODES.invalidValue,
      ),
    };
  return { ok: true, value: result.data, ...split };
}
