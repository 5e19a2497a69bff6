// What the mock's task engine is given (engine.ts makes it; task-run.ts runs each task with it).
import type { PhotoCutout, Quality } from '../generator/index.ts';
import type { MockStore } from './store.ts';
import type { ModelFiles } from './model-files.ts';
import type { InputFiles } from './inputs.ts';
import type { SpeedProfile } from './speed.ts';

/** Callbacks a generator may call while it works. */
export interface GeneratorHooks {
  /** The shape is built; the mesh is now being processed (simplified, packed into a GLB). */
  onPhase?: (phase: 'processing') => void;
}

/** The generator as the engine sees it (src/generator's worker pool by default). */
export interface Generator {
  imageToGlb(image: Uint8Array, hooks?: GeneratorHooks, quality?: Quality): Promise<Uint8Array>;
  viewsToGlb(
    images: readonly Uint8Array[],
    hooks?: GeneratorHooks,
    quality?: Quality,
  ): Promise<Uint8Array>;
  promptToGlb(prompt: string, hooks?: GeneratorHooks): Promise<Uint8Array>;
  /** What a photo's task would model of it, with its overlay picture (never throws for bad input). */
  cutout(image: Uint8Array): Promise<PhotoCutout>;
  /** True when an error means "the input is not a usable image". */
  isInputError(err: unknown): boolean;
}

export interface EngineDeps {
  store: MockStore;
  files: ModelFiles;
  /** Inline input images (`input:` references in stored requests). */
  inputs: InputFiles;
  generator: Generator;
  fetchImage: (url: string, signal: AbortSignal) => Promise<Uint8Array>;
  speed: SpeedProfile;
  now: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  log?: (message: string) => void;
  /** How many generations run at once (the rest wait their turn). Default 2. */
  concurrency?: number;
  /**
   * How many tasks hold input images at once, from their download to the end of their
   * generation (a multi-view task may hold 4 × 20 MB); the rest wait in "Initializing", holding
   * nothing. Default 4.
   */
  imageConcurrency?: number;
}
