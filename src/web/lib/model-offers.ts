// What a model is offered at: its inputs in words with their prices in the provider's own unit
// (the picker's lines, the submit row, "Try on another provider…"), and which models take a
// result's input again (decision 0116). Pure: no React, no requests.
import {
  PROVIDER_LABELS,
  providerOfModel,
  type InputKind,
  type LibraryEntry,
  type ProviderModelRecord,
  type VendorProvider,
} from '../../contract/index.ts';
import { formatAmount } from './entry-format.ts';

/** An input kind as the model list says it. */
export const KIND_LABEL = {
  image: 'One photo',
  multiview: '2–4 photos',
  text: 'Text prompt',
} as const;

/** "One photo 30 credits · Text prompt 30 credits": each input the model takes, at its price. */
export function vendorPriceWords(m: Pick<ProviderModelRecord, 'inputs' | 'price' | 'unit'>) {
  return m.inputs
    .map((kind) => {
      const price = m.price[kind];
      return price === undefined
        ? KIND_LABEL[kind]
        : `${KIND_LABEL[kind]} ${formatAmount(price, m.unit)}`;
    })
    .join(' · ');
}

/**
 * What an entry was made from, as a model's input: a prompt, one photo, or 2–4 views; null when
 * it cannot be sent again (no prompt and no photos, more views than any model takes).
 */
export function inputKindOf(entry: Pick<LibraryEntry, 'images' | 'prompt'>): InputKind | null {
  const n = entry.images.length;
  if (n === 0) return entry.prompt?.trim() ? 'text' : null;
  if (n === 1) return 'image';
  return n <= 4 ? 'multiview' : null;
}

/** The input a create body sends: views, a prompt, or one photo. */
export function requestKind(body: {
  image_url?: string | undefined;
  image_urls?: readonly string[] | undefined;
  prompt?: string | undefined;
}): InputKind {
  if (body.image_urls) return 'multiview';
  return body.prompt !== undefined && !body.image_url ? 'text' : 'image';
}

/** A spec model as the studio lists it (`ModelChoice` of api/tasks.ts). */
interface SpecModel {
  id: string;
  input: InputKind;
  credits: number | null;
}

/** A connected provider's models, as they loaded (empty while loading or refused). */
interface ProviderModels {
  provider: VendorProvider;
  models: readonly ProviderModelRecord[];
}

/** One model the same input can go to, with its price for that input, said before it is sent. */
export interface ModelOffer {
  /** The create's `model` (`fal/fal-ai/trellis`, or a spec alias). */
  id: string;
  provider: VendorProvider | 'spec';
  /** "fal · TRELLIS", "Kiln API · beta". */
  label: string;
  /** "$0.02", "30 credits", or "price not listed". */
  price: string;
  /** The provider's model record (its create goes through the vendor's route); null for the spec's. */
  vendor: ProviderModelRecord | null;
}

/**
 * The models an entry's input can be sent to on another provider: every connected provider's
 * model that takes this kind of input, and the spec's own, except the entry's own provider's
 * (its other models are "Same input, another model"). Each with its price for this input in its
 * provider's unit, the spec's first, then in the providers' order.
 */
export function offersFor(
  entry: Pick<LibraryEntry, 'model' | 'images' | 'prompt'>,
  spec: readonly SpecModel[],
  providers: readonly ProviderModels[],
): ModelOffer[] {
  const kind = inputKindOf(entry);
  if (!kind) return [];
  const own = providerOfModel(entry.model);
  const fromSpec: ModelOffer[] =
    own === 'spec'
      ? []
      : spec
          .filter((m) => m.input === kind)
          .map((m) => ({
            id: m.id,
            provider: 'spec',
            label: `${PROVIDER_LABELS.spec} · ${m.id}`,
            price: m.credits === null ? 'price not listed' : formatAmount(m.credits, 'credits'),
            vendor: null,
          }));
  const fromVendors = providers
    .filter((p) => p.provider !== own)
    .flatMap((p) =>
      p.models
        .filter((m) => m.inputs.includes(kind))
        .map((m) => ({
          id: m.id,
          provider: p.provider,
          label: `${PROVIDER_LABELS[p.provider]} · ${m.label}`,
          price:
            m.price[kind] === undefined ? 'price not listed' : formatAmount(m.price[kind], m.unit),
          vendor: m,
        })),
    );
  return [...fromSpec, ...fromVendors];
}

/**
 * The model "Same input, another model" suggests: the next one in the listing (spec models from
 * the cheapest, then each connected provider's) that takes the same kind of input, wrapping
 * round, or the same one when it is alone. `kind` is the entry's input when the model takes
 * several (a provider's).
 */
export function anotherModel(
  current: string,
  kind: InputKind | null,
  spec: readonly Pick<SpecModel, 'id' | 'input'>[],
  providers: readonly ProviderModels[] = [],
): string {
  const all = [
    ...spec.map((m) => ({ id: m.id, inputs: [m.input] as readonly InputKind[] })),
    ...providers.flatMap((p) => p.models.map((m) => ({ id: m.id, inputs: m.inputs }))),
  ];
  const takes = kind ?? all.find((m) => m.id === current)?.inputs[0];
  const same = all.filter((m) => takes !== undefined && m.inputs.includes(takes));
  const at = same.findIndex((m) => m.id === current);
  // A model not in the lists (they have not come, or it is gone) is kept, never swapped at random.
  return at >= 0 && same.length > 1 ? same[(at + 1) % same.length]!.id : current;
}
