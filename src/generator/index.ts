/**
 * Kiln's local 3D generator (Node only): image → GLB, views → GLB, prompt → GLB.
 * Used by the mock upstream to produce real, valid binary glTF 2.0 output.
 * Imports nothing of Kiln's but src/formats (and src/workers in runtime/): otherwise npm packages
 * and node: builtins.
 */
export { GeneratorInputError, type InputProblem } from './core/errors.ts';
export {
  decodeImage,
  MAX_INPUT_PIXELS,
  type ImageFormat,
  type ImageInfo,
} from './photo/decode-image.ts';
export { imageToGlb } from './photo/image-to-glb.ts';
export { viewsToGlb } from './views/views-to-glb.ts';
export {
  describePrompt,
  promptToGlb,
  PROMPT_EXAMPLES,
  type PromptDescription,
} from './prompt/prompt-to-glb.ts';
export {
  cutoutOf,
  photoCutout,
  type Cutout,
  type PhotoCutout,
  type UsableCutout,
} from './photo/cutout.ts';
export { viewsAgreement, type ViewsAgreement, type ViewPair } from './views/views-agreement.ts';
export { QUALITIES, IMAGE_QUALITY, VIEWS_QUALITY, type Quality } from './runtime/quality.ts';
