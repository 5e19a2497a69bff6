// The generator's job on a worker thread (see pool.ts): the module the shared pool's threads load.
import { serveJob } from '../../workers/index.ts';
import { GeneratorInputError, type InputProblem } from '../core/errors.ts';
import type { GenerateHooks, GeneratorPhase } from '../core/hooks.ts';
import { photoCutout, type PhotoCutout } from '../photo/cutout.ts';
import { imageToGlb } from '../photo/image-to-glb.ts';
import { promptToGlb } from '../prompt/prompt-to-glb.ts';
import { viewsToGlb } from '../views/views-to-glb.ts';
import { IMAGE_QUALITY, VIEWS_QUALITY, type Quality } from './quality.ts';

export type { GenerateHooks, GeneratorPhase } from '../core/hooks.ts';

/** One generation, as sent to a worker thread. */
export type GenerateJob =
  | { kind: 'image'; image: Uint8Array; quality?: Quality }
  | { kind: 'views'; images: Uint8Array[]; quality?: Quality }
  | { kind: 'prompt'; prompt: string }
  | { kind: 'cutout'; image: Uint8Array };

/** What a job gives back: a GLB, or a cut-out. */
export type JobResult = Uint8Array | PhotoCutout;

/** A GeneratorInputError as it crosses the thread boundary (errors do not keep their class). */
export interface InputFailure {
  message: string;
  imageIndex?: number;
  reason: InputProblem;
}

/** Runs a job in this thread. */
function runJob(job: GenerateJob, hooks: GenerateHooks = {}): Promise<JobResult> {
  if (job.kind === 'cutout') return photoCutout(job.image);
  return job.kind === 'image'
    ? imageToGlb(job.image, { ...IMAGE_QUALITY[job.quality ?? 'standard'], ...hooks })
    : job.kind === 'views'
      ? viewsToGlb(job.images, { ...VIEWS_QUALITY[job.quality ?? 'standard'], ...hooks })
      : promptToGlb(job.prompt, hooks);
}

/** An input error as plain data; undefined for any other error. */
function inputFailureOf(error: unknown): InputFailure | undefined {
  if (!(error instanceof GeneratorInputError)) return undefined;
  return {
    message: error.message,
    reason: error.reason,
    ...(error.imageIndex === undefined ? {} : { imageIndex: error.imageIndex }),
  };
}

/** The input error again, on the pool's side. */
export function reviveInputFailure({ message, imageIndex, reason }: InputFailure): Error {
  return new GeneratorInputError(message, {
    reason,
    ...(imageIndex === undefined ? {} : { imageIndex }),
  });
}

export default serveJob<GenerateJob, JobResult, GeneratorPhase, InputFailure>(
  (job, report) => runJob(job, { onPhase: report }),
  inputFailureOf,
);
