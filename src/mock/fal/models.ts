// The fal endpoints the mock serves, each as its model page documents it: the input fields it
// requires, its price in USD, its output JSON and the kind of work Kiln's generator does for it.
import { usd } from './keys.ts';

/** fal's `File` (the client's types/endpoints.d.ts): where a generated file can be downloaded. */
export interface FalFile {
  url: string;
  content_type: string;
  file_name: string;
  file_size: number;
}

/** A field at fault, as fal's 422 `detail` entries name it. */
interface InputProblem {
  field: string;
  msg: string;
  type: string;
}

export interface FalMockModel {
  /** The endpoint id, `owner/alias[/path]` (what is POSTed to). */
  id: string;
  /** The generator's work: one photo, or several views of one object. */
  kind: 'image' | 'views';
  /** The image URLs the input names, in order, or what is wrong with the input. */
  images(input: Record<string, unknown>): string[] | InputProblem;
  /** USD charged for one successful request with this input. */
  price(input: Record<string, unknown>): number;
  /** The result JSON for a finished request. */
  output(file: FalFile, seed: number, seconds: number): Record<string, unknown>;
  /** What the runner prints while it works (fal's logs are the app's own lines). */
  logs: readonly string[];
}

const missing = (field: string): InputProblem => ({
  field,
  msg: 'Field required',
  type: 'missing',
});
const notString = (field: string): InputProblem => ({
  field,
  msg: 'Input should be a valid string',
  type: 'string_type',
});

function oneUrl(input: Record<string, unknown>, field: string): string[] | InputProblem {
  const value = input[field];
  if (value === undefined) return missing(field);
  if (typeof value !== 'string') return notString(field);
  return [value];
}

const TRELLIS_LOGS = [
  'Preprocessing input image',
  'Sampling sparse structure',
  'Sampling structured latent',
  'Decoding mesh',
  'Baking texture and exporting GLB',
];

const trellisOutput = (file: FalFile, _seed: number, seconds: number) => ({
  model_mesh: file,
  timings: {
    prepare: usd(seconds * 0.1),
    generation: usd(seconds * 0.7),
    export: usd(seconds * 0.2),
  },
});

/** https://fal.ai/models/fal-ai/trellis: "$0.02 per unit". */
const trellis: FalMockModel = {
  id: 'fal-ai/trellis',
  kind: 'image',
  images: (input) => oneUrl(input, 'image_url'),
  price: () => 0.02,
  output: trellisOutput,
  logs: TRELLIS_LOGS,
};

/** https://fal.ai/models/fal-ai/trellis/multi/llms.txt: "$0.02 per", `image_urls` required. */
const trellisMulti: FalMockModel = {
  id: 'fal-ai/trellis/multi',
  kind: 'views',
  images(input) {
    const value = input['image_urls'];
    if (value === undefined) return missing('image_urls');
    if (!Array.isArray(value)) {
      return { field: 'image_urls', msg: 'Input should be a valid list', type: 'list_type' };
    }
    if (value.length === 0) {
      return { field: 'image_urls', msg: 'List should have at least 1 item', type: 'too_short' };
    }
    const bad = value.findIndex((v) => typeof v !== 'string');
    if (bad >= 0) return notString(`image_urls.${bad}`);
    return value as string[];
  },
  price: () => 0.02,
  output: trellisOutput,
  logs: TRELLIS_LOGS,
};

/**
 * https://fal.ai/models/fal-ai/hunyuan3d/v2/llms.txt: "$0.16 per generations"; the client's
 * types: "If set true, textured mesh will be generated and the price charged would be 3 times
 * that of white mesh."
 */
const hunyuan: FalMockModel = {
  id: 'fal-ai/hunyuan3d/v2',
  kind: 'image',
  images: (input) => oneUrl(input, 'input_image_url'),
  price: (input) => (input['textured_mesh'] === true ? usd(0.16 * 3) : 0.16),
  output: (file, seed) => ({ model_mesh: file, seed }),
  logs: ['Removing background', 'Generating shape (DiT)', 'Painting texture', 'Exporting GLB'],
};

const FAL_MOCK_MODELS: readonly FalMockModel[] = [trellis, trellisMulti, hunyuan];

/** The model an endpoint id names, or undefined. */
export const modelById = (id: string): FalMockModel | undefined =>
  FAL_MOCK_MODELS.find((m) => m.id === id);
