// The Tripo models Kiln offers: the `model_version`s the generation docs and the official SDKs
// list for all three inputs, priced as the pricing page says for a textured model (Kiln sends
// Tripo's defaults: texture and pbr on, standard quality).
import type { ProviderInputKind, ProviderModel } from '../types.ts';

const H_PRICE = { text: 20, image: 30, multiview: 30 } as const;
const P1_PRICE = { text: 40, image: 50, multiview: 50 } as const;
const INPUTS: readonly ProviderInputKind[] = ['image', 'multiview', 'text'];
const VIEWS = 'Views: front, left, back, right (front required, 2–4 views).';

export const TRIPO_MODELS: readonly ProviderModel[] = [
  {
    id: 'v3.1-20260211',
    label: 'Tripo H3.1',
    inputs: INPUTS,
    price: H_PRICE,
    unit: 'credits',
    description: `Tripo's latest H-series model, textured with PBR. ${VIEWS}`,
  },
  {
    id: 'v3.0-20250812',
    label: 'Tripo H3.0',
    inputs: INPUTS,
    price: H_PRICE,
    unit: 'credits',
    description: `Tripo's stable H-series model, textured with PBR. ${VIEWS}`,
  },
  {
    id: 'v2.5-20250123',
    label: 'Tripo H2.5',
    inputs: INPUTS,
    price: H_PRICE,
    unit: 'credits',
    description: `Tripo's default model version, textured with PBR. ${VIEWS}`,
  },
  {
    id: 'P1-20260311',
    label: 'Tripo P1',
    inputs: INPUTS,
    price: P1_PRICE,
    unit: 'credits',
    description: `Tripo's low-poly model with clean topology, textured (at most 5 at once). ${VIEWS}`,
  },
];

const KIND_OF_TYPE: Record<string, ProviderInputKind> = {
  text_to_model: 'text',
  image_to_model: 'image',
  multiview_to_model: 'multiview',
};

/** A task's documented price from its type and version, or null when Kiln cannot know it. */
export function priceOfTask(type: string, version: unknown): number | null {
  const kind = KIND_OF_TYPE[type];
  const model = TRIPO_MODELS.find((m) => m.id === (version ?? 'v2.5-20250123'));
  return (kind && model?.price[kind]) ?? null;
}
