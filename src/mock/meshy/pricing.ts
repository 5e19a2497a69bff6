// What the Meshy mock charges, from Meshy's published price list (README "Sources"): a task is
// charged when it is submitted, and a failed one is refunded in full.

/** The models the mock knows; `latest` resolves to Meshy 6, as the docs say. */
export type MeshyModel = 'meshy-5' | 'meshy-6';

/** `ai_model` as a request may send it. `meshy-4` is retired: a 400, as documented. */
export function resolveModel(aiModel: string | undefined): MeshyModel | 'retired' | undefined {
  if (aiModel === undefined || aiModel === 'latest' || aiModel === 'meshy-6') return 'meshy-6';
  if (aiModel === 'meshy-5') return 'meshy-5';
  if (aiModel === 'meshy-4') return 'retired';
  return undefined;
}

/** Image to 3D and Multi-Image to 3D: the mesh, plus 10 when textured (the default). */
export function imagePrice(model: MeshyModel, textured: boolean): number {
  const mesh = model === 'meshy-6' ? 20 : 5;
  return textured ? mesh + 10 : mesh;
}

/** Text to 3D preview: 20 on Meshy 6 (or low-poly), 5 on other models. */
export function previewPrice(model: MeshyModel, lowpoly: boolean): number {
  return model === 'meshy-6' || lowpoly ? 20 : 5;
}

/** Text to 3D refine: 10, whatever the model. */
export const REFINE_PRICE = 10;
