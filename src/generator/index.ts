/**
 * Kiln's local 3D generator (Node only): image → GLB, views → GLB, prompt → GLB.
 * Used by the mock upstream to produce real, valid binary glTF 2.0 output.
 * Imports nothing of Kiln's: only npm packages and node: builtins.
 */
export { GeneratorInputError, type InputProblem } from './errors.ts';
export { decodeImage, MAX_INPUT_PIXELS, type ImageFormat, type ImageInfo } from './decode-image.ts';
export { imageToGlb } from './image-to-glb.ts';
export { viewsToGlb } from './views-to-glb.ts';
export { promptToGlb } from './prompt-to-glb.ts';
