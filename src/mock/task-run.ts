// One mock task's run through the spec's stages, from Initializing to Completed: its images
// downloaded, the generator's GLB made, saved and the task completed. Failures are thrown (as
// `TaskFailure` when the task should say why); the engine records them.
import { MODEL_INPUT, STAGES } from '../contract/index.ts';
import type { Limiter } from '../async/index.ts';
import type { EngineDeps, GeneratorHooks } from './engine-deps.ts';
import { ImageFetchError } from './fetch-image.ts';
import { MODEL_QUALITY } from './pricing.ts';
import type { TaskRow } from './store.ts';
import { downloadFailure, inputFailure, triggeredFailure } from './task-failure.ts';

const [INIT, DOWNLOAD, GENERATE, PROCESS, UPLOAD, DONE] = STAGES;

/** What a run needs: the engine's dependencies, resolved, and its two limits. */
export interface RunContext extends Pick<
  EngineDeps,
  'store' | 'files' | 'generator' | 'speed' | 'now'
> {
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Generations at once. */
  slots: Limiter;
  /** Tasks holding input images at once. */
  holders: Limiter;
  /** An image URL's bytes (an inline input, or a fetch). */
  imageBytes: (url: string, signal: AbortSignal) => Promise<Uint8Array>;
}

/** Shows a stage, does its work, and keeps it shown for at least `minMs`. */
async function stage(
  ctx: RunContext,
  task: TaskRow,
  s: (typeof STAGES)[number],
  minMs: number,
  signal: AbortSignal,
  work?: () => Promise<void>,
) {
  await ctx.store.setProgress(task.id, s.progress, s.label);
  const started = ctx.now();
  if (work) await work();
  await ctx.sleep(minMs - (ctx.now() - started), signal);
}

/** Runs the task to completion (or throws). */
export async function runTask(ctx: RunContext, task: TaskRow, signal: AbortSignal): Promise<void> {
  const { speed } = ctx;
  await stage(ctx, task, INIT, speed.initializing, signal);
  // The images are held from their download to the end of the generation, by a few tasks at most.
  const glb = await ctx.holders(() => downloadAndGenerate(ctx, task, signal));
  await ctx.sleep(speed.processing - (ctx.now() - glb.processingSince), signal);
  await stage(ctx, task, UPLOAD, speed.uploading, signal, () => ctx.files.save(task.id, glb.bytes));
  await ctx.store.complete(task.id, Math.floor(ctx.now() / 1000), glb.bytes.byteLength, DONE.label);
}

/** The Downloading stage: every input image's bytes, in order. */
async function downloadImages(
  ctx: RunContext,
  task: TaskRow,
  signal: AbortSignal,
): Promise<Uint8Array[]> {
  const req = task.request;
  let images: Uint8Array[] = [];
  await stage(ctx, task, DOWNLOAD, ctx.speed.downloading, signal, async () => {
    const urls = req.image_urls ?? (req.image_url ? [req.image_url] : []);
    images = await Promise.all(
      urls.map((url, i) =>
        ctx.imageBytes(url, signal).catch((err: unknown) => {
          if (err instanceof ImageFetchError) throw downloadFailure(err, req, i);
          throw err;
        }),
      ),
    );
  });
  return images;
}

/** The generator's GLB of the task's input, one of `ctx.slots` at a time. */
function generate(
  ctx: RunContext,
  task: TaskRow,
  images: readonly Uint8Array[],
  hooks: GeneratorHooks,
): Promise<Uint8Array> {
  const req = task.request;
  const triggered = triggeredFailure(req);
  if (triggered) return Promise.reject(triggered);
  return ctx.slots(async () => {
    try {
      const kind = MODEL_INPUT[task.model];
      if (kind === 'text') return await ctx.generator.promptToGlb(req.prompt ?? '', hooks);
      const quality = MODEL_QUALITY[task.model];
      if (kind === 'multiview') return await ctx.generator.viewsToGlb(images, hooks, quality);
      return await ctx.generator.imageToGlb(images[0] ?? new Uint8Array(), hooks, quality);
    } catch (err) {
      if (ctx.generator.isInputError(err)) throw inputFailure(err, req);
      throw err;
    }
  });
}

/**
 * Downloading, Generating and Processing: the generator says when its shape is built, and the
 * Processing stage is shown from then (after the Generating stage's minimum time).
 */
async function downloadAndGenerate(
  ctx: RunContext,
  task: TaskRow,
  signal: AbortSignal,
): Promise<{ bytes: Uint8Array; processingSince: number }> {
  const { speed } = ctx;
  const input = { images: await downloadImages(ctx, task, signal) };
  await ctx.store.setProgress(task.id, GENERATE.progress, GENERATE.label);
  const generatingSince = ctx.now();
  let processingSince: number | undefined;
  let reachedProcessing!: () => void;
  const processingReached = new Promise<void>((resolve) => (reachedProcessing = resolve));
  let failed = false;
  const shownProcessing = processingReached.then(async () => {
    if (failed) return;
    await ctx.sleep(speed.generating - (ctx.now() - generatingSince), signal);
    if (failed) return;
    processingSince = ctx.now();
    await ctx.store.setProgress(task.id, PROCESS.progress, PROCESS.label);
  });
  // Awaited below when the generation succeeds; after a failure nobody waits for it.
  shownProcessing.catch(() => {});
  const generation = generate(ctx, task, input.images, { onPhase: () => reachedProcessing() });
  let bytes: Uint8Array;
  try {
    bytes = await generation;
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    // A generator that never reports its phase still ends the stage.
    reachedProcessing();
    // The images are let go before Processing's wait.
    input.images = [];
  }
  await shownProcessing;
  return { bytes, processingSince: processingSince ?? ctx.now() };
}
