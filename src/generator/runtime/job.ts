import type { MessagePort } from 'node:worker_threads';
import { threadId } from 'node:worker_threads';
import { GeneratorInputError, type InputProblem } from '../core/errors.ts';
import { imageToGlb } from '../photo/image-to-glb.ts';
import { promptToGlb } from '../prompt/prompt-to-glb.ts';
import { viewsToGlb } from '../views/views-to-glb.ts';
import { IMAGE_QUALITY, VIEWS_QUALITY, type Quality } from './quality.ts';

import type { GenerateHooks } from '../core/hooks.ts';

export type { GenerateHooks, GeneratorPhase } from '../core/hooks.ts';

/** One generation, as sent to a worker thread. */
export type GenerateJob =
  | { kind: 'image'; image: Uint8Array; quality?: Quality }
  | { kind: 'views'; images: Uint8Array[]; quality?: Quality }
  | { kind: 'prompt'; prompt: string };

/** A job's outcome, as a worker thread sends it back (errors do not keep their class). */
export type GenerateOutcome =
  | { ok: true; glb: Uint8Array; threadId: number }
  | { ok: false; inputError: { message: string; imageIndex?: number; reason: InputProblem } };

/** Runs a job in this thread; input errors become a plain outcome, other errors throw. */
export async function runJob(
  job: GenerateJob,
  hooks: GenerateHooks = {},
): Promise<GenerateOutcome> {
  try {
    const glb =
      job.kind === 'image'
        ? await imageToGlb(job.image, { ...IMAGE_QUALITY[job.quality ?? 'standard'], ...hooks })
        : job.kind === 'views'
          ? await viewsToGlb(job.images, { ...VIEWS_QUALITY[job.quality ?? 'standard'], ...hooks })
          : await promptToGlb(job.prompt, hooks);
    return { ok: true, glb, threadId };
  } catch (error) {
    if (error instanceof GeneratorInputError) {
      return {
        ok: false,
        inputError: {
          message: error.message,
          reason: error.reason,
          ...(error.imageIndex === undefined ? {} : { imageIndex: error.imageIndex }),
        },
      };
    }
    throw error;
  }
}

/** The worker thread's task: a job plus the port its phase messages go to. */
export interface WorkerTask {
  job: GenerateJob;
  port: MessagePort;
}

/** Entry point inside a worker thread (see worker.mjs). */
export async function workerMain({ job, port }: WorkerTask): Promise<GenerateOutcome> {
  try {
    return await runJob(job, { onPhase: (phase) => port.postMessage(phase) });
  } finally {
    port.close();
  }
}
