// The fal endpoints Kiln offers, with the inputs and USD prices their model pages document, and
// how Kiln's input becomes each endpoint's JSON body.
import { ProviderError, type ProviderInput, type ProviderModel, type ViewSide } from '../types.ts';

interface FalModel extends ProviderModel {
  /** The endpoint's JSON body for Kiln's input (already checked to be of a kind it takes). */
  body(input: ProviderInput): Record<string, unknown>;
}

/** Kiln's multi-view order (front, right, back, left); views with no side keep their place. */
const SIDE_ORDER: readonly ViewSide[] = ['front', 'right', 'back', 'left'];

function orderedViews(input: Extract<ProviderInput, { kind: 'multiview' }>): string[] {
  const rank = (side: ViewSide | null, i: number) =>
    side === null ? i : SIDE_ORDER.indexOf(side) - 0.5;
  return input.views
    .map((v, i) => ({ url: v.url, at: rank(v.side, i) }))
    .sort((a, b) => a.at - b.at)
    .map((v) => v.url);
}

const imageUrl = (input: ProviderInput): string => {
  if (input.kind !== 'image') throw new Error('an image model was given another input');
  return input.imageUrl;
};

export const FAL_MODELS: readonly FalModel[] = [
  {
    id: 'fal-ai/trellis',
    label: 'TRELLIS',
    inputs: ['image'],
    price: { image: 0.02 },
    unit: 'USD',
    description:
      'Microsoft TRELLIS on fal: one photo to a textured GLB. No progress %, only the queue.',
    body: (input) => ({ image_url: imageUrl(input) }),
  },
  {
    id: 'fal-ai/trellis/multi',
    label: 'TRELLIS multi-image',
    inputs: ['multiview'],
    price: { multiview: 0.02 },
    unit: 'USD',
    description: 'TRELLIS from 2–4 photos of one object (sent in front, right, back, left order).',
    body(input) {
      if (input.kind !== 'multiview') throw new Error('a multi-view model was given another input');
      return { image_urls: orderedViews(input) };
    },
  },
  {
    id: 'fal-ai/hunyuan3d/v2',
    label: 'Hunyuan3D v2',
    inputs: ['image'],
    // $0.16 a generation for a white mesh; a textured one (what Kiln asks for) costs 3 times that.
    price: { image: 0.48 },
    unit: 'USD',
    description:
      'Tencent Hunyuan3D v2 on fal: one photo to a textured mesh ($0.16 untextured, ×3).',
    body: (input) => ({ input_image_url: imageUrl(input), textured_mesh: true }),
  },
];

/** The model and its body for this input, or the invalid_input Kiln shows. */
export function requestFor(
  modelId: string,
  input: ProviderInput,
): { model: FalModel; body: Record<string, unknown> } {
  const model = FAL_MODELS.find((m) => m.id === modelId);
  if (!model) {
    throw new ProviderError('invalid_input', `fal/${modelId} is not a model Kiln offers.`, {
      param: 'model',
    });
  }
  if (!model.inputs.includes(input.kind)) {
    const takes = model.inputs.join(' or ');
    throw new ProviderError(
      'invalid_input',
      `${model.label} takes ${takes} input, not ${input.kind}.`,
      {
        param: 'input',
      },
    );
  }
  if (input.kind === 'multiview' && (input.views.length < 2 || input.views.length > 4)) {
    throw new ProviderError('invalid_input', `${model.label} takes 2 to 4 views.`, {
      param: 'views',
    });
  }
  return { model, body: model.body(input) };
}

/** The models as Kiln lists them (without the body builders). */
export const listedModels = (): ProviderModel[] =>
  FAL_MODELS.map(({ body: _body, ...model }) => model);
