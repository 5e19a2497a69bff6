// Meshy's models as Kiln lists them, with the credits Meshy's price list gives (textured results,
// Meshy's default). Text to 3D is two charged stages: the preview, then the refine.
import type { ProviderModel } from '../types.ts';

export type MeshyModelId = 'meshy-6' | 'meshy-5';

/** What one stage costs, in credits, per model (docs.meshy.ai pricing; README "Sources"). */
export const STAGE_PRICES: Record<
  MeshyModelId,
  { image: number; preview: number; refine: number }
> = {
  'meshy-6': { image: 30, preview: 20, refine: 10 },
  'meshy-5': { image: 15, preview: 5, refine: 10 },
};

function model(id: MeshyModelId, label: string, line: string): ProviderModel {
  const p = STAGE_PRICES[id];
  return {
    id,
    label,
    inputs: ['image', 'multiview', 'text'],
    price: { image: p.image, multiview: p.image, text: p.preview + p.refine },
    unit: 'credits',
    description: `${line} Text is two charged stages: a preview (${p.preview}) then a refine (${p.refine}). Views are sent unnamed, 1–4.`,
  };
}

export const MESHY_MODEL_LIST: readonly ProviderModel[] = [
  model('meshy-6', 'Meshy 6', "Meshy's newest model (its `latest`), textured."),
  model('meshy-5', 'Meshy 5', "Meshy's previous model, textured; cheaper."),
];

export function isMeshyModel(id: string): id is MeshyModelId {
  return id === 'meshy-6' || id === 'meshy-5';
}
