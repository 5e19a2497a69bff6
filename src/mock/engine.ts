import {
  ERROR_CODES,
  INPUT_FAILURE_CODES,
  ERROR_TYPES,
  MODEL_INPUT,
  STAGES,
  type ErrorObject,
} from '../contract/index.ts';
import { createAbortGroup, createLimiter, sleep as abortableSleep } from '../async/index.ts';
import { INPUT_REF, type InputFiles } from './inputs.ts';
import type { ModelFiles } from './model-files.ts';
import type { SpeedProfile } from './speed.ts';
import type { MockStore, TaskRow } from './store.ts';
import { ImageFetchError } from './fetch-image.ts';
import type { Quality } from '../generator/index.ts';
import { MODEL_QUALITY } from './pricing.ts';

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

export interface TaskEngine {
  start(task: TaskRow): void;
  /** Resolves when the task is no longer running here, or after `timeoutMs`. */
  settled(id: string, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Restarts every task a previous process left pending. Returns how many. */
  resumePending(): Promise<number>;
  /** Stops every job (tasks stay pending, as after a crash) and waits for them. */
  close(): Promise<void>;
}

/** Explicit trigger for tests and demos: a prompt or image URL containing it fails at generation. */
export const FAIL_TRIGGER = 'mock:fail';

const [INIT, DOWNLOAD, GENERATE, PROCESS, UPLOAD, DONE] = STAGES;

class TaskFailure extends Error {
  constructor(readonly error: ErrorObject) {
    super(error.message);
  }
}

export function createTaskEngine(deps: EngineDeps): TaskEngine {
  const sleep = deps.sleep ?? abortableSleep;
  const log = deps.log ?? (() => {});
  const running = new Map<string, Promise<void>>();
  // One stop switch; each task listens on a child signal of its own.
  const stop = createAbortGroup();
  const slots = createLimiter(deps.concurrency ?? 2);
  const holders = createLimiter(deps.imageConcurrency ?? 4);

  /** An image URL's bytes: an inline input kept by the store, or a fetch. */
  async function imageBytes(url: string, signal: AbortSignal): Promise<Uint8Array> {
    if (!INPUT_REF.test(url)) return deps.fetchImage(url, signal);
    const bytes = await deps.inputs.get(url);
    if (!bytes) throw new ImageFetchError('The inline image of this task is gone.');
    return bytes;
  }

  async function stage(
    task: TaskRow,
    s: (typeof STAGES)[number],
    minMs: number,
    signal: AbortSignal,
    work?: () => Promise<void>,
  ) {
    await deps.store.setProgress(task.id, s.progress, s.label);
    const started = deps.now();
    if (work) await work();
    await sleep(minMs - (deps.now() - started), signal);
  }

  async function run(task: TaskRow, signal: AbortSignal): Promise<void> {
    const { speed } = deps;
    await stage(task, INIT, speed.initializing, signal);
    // The images are held from their download to the end of the generation, by a few tasks at most.
    const glb = await holders(() => downloadAndGenerate(task, signal));
    await sleep(speed.processing - (deps.now() - glb.processingSince), signal);
    await stage(task, UPLOAD, speed.uploading, signal, () => deps.files.save(task.id, glb.bytes));
    await deps.store.complete(
      task.id,
      Math.floor(deps.now() / 1000),
      glb.bytes.byteLength,
      DONE.label,
    );
  }

  async function downloadAndGenerate(
    task: TaskRow,
    signal: AbortSignal,
  ): Promise<{ bytes: Uint8Array; processingSince: number }> {
    const { speed } = deps;
    const req = task.request;
    let images: Uint8Array[] = [];
    await stage(task, DOWNLOAD, speed.downloading, signal, async () => {
      const urls = req.image_urls ?? (req.image_url ? [req.image_url] : []);
      images = await Promise.all(
        urls.map((url, i) =>
          imageBytes(url, signal).catch((err: unknown) => {
            if (err instanceof ImageFetchError)
              throw new TaskFailure({
                message: `${err.message} (${req.image_urls ? `image_urls[${i}]` : 'image_url'})`,
                type: ERROR_TYPES.invalidRequest,
                code: ERROR_CODES.imageDownloadFailed,
                param: req.image_urls ? `image_urls[${i}]` : 'image_url',
              });
            throw err;
          }),
        ),
      );
    });
    // Generating, then processing: the generator says when its shape is built, and the
    // processing stage is shown from then (after the generating stage's minimum time).
    await deps.store.setProgress(task.id, GENERATE.progress, GENERATE.label);
    const generatingSince = deps.now();
    let processingSince: number | undefined;
    let reachedProcessing!: () => void;
    const processingReached = new Promise<void>((resolve) => (reachedProcessing = resolve));
    let failed = false;
    const shownProcessing = processingReached.then(async () => {
      if (failed) return;
      await sleep(speed.generating - (deps.now() - generatingSince), signal);
      if (failed) return;
      processingSince = deps.now();
      await deps.store.setProgress(task.id, PROCESS.progress, PROCESS.label);
    });
    // Awaited below when the generation succeeds; after a failure nobody waits for it.
    shownProcessing.catch(() => {});
    const generation = (async () => {
      const inputs = [req.image_url ?? '', ...(req.image_urls ?? []), req.prompt ?? ''];
      if (inputs.some((u) => u.includes(FAIL_TRIGGER)))
        throw new TaskFailure({
          message: 'The generator failed on this input (explicit mock:fail trigger).',
          type: ERROR_TYPES.api,
          code: ERROR_CODES.generationFailed,
        });
      return slots(async () => {
        const hooks: GeneratorHooks = { onPhase: () => reachedProcessing() };
        try {
          const kind = MODEL_INPUT[task.model];
          if (kind === 'text') return await deps.generator.promptToGlb(req.prompt ?? '', hooks);
          const quality = MODEL_QUALITY[task.model];
          if (kind === 'multiview') return await deps.generator.viewsToGlb(images, hooks, quality);
          return await deps.generator.imageToGlb(images[0] ?? new Uint8Array(), hooks, quality);
        } catch (err) {
          if (deps.generator.isInputError(err)) {
            const index = (err as { imageIndex?: unknown }).imageIndex;
            const param = req.image_urls
              ? typeof index === 'number'
                ? `image_urls[${index}]`
                : 'image_urls'
              : 'image_url';
            const reason = (err as { reason?: unknown }).reason;
            const isPrompt = reason === 'empty_prompt';
            throw new TaskFailure({
              message: `${(err as Error).message} (${isPrompt ? 'prompt' : param})`,
              type: ERROR_TYPES.invalidRequest,
              code:
                typeof reason === 'string' && reason in INPUT_FAILURE_CODES
                  ? INPUT_FAILURE_CODES[reason as keyof typeof INPUT_FAILURE_CODES]
                  : ERROR_CODES.imageDecodeFailed,
              param: isPrompt ? 'prompt' : param,
            });
          }
          throw err;
        }
      });
    })();
    let bytes: Uint8Array;
    try {
      bytes = await generation;
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      // A generator that never reports its phase still ends the stage.
      reachedProcessing();
      images = [];
    }
    await shownProcessing;
    return { bytes, processingSince: processingSince ?? deps.now() };
  }

  /** Inline inputs no other unfinished task names are deleted once a task ends. */
  async function dropInputs(task: TaskRow) {
    const refs = [task.request.image_url, ...(task.request.image_urls ?? [])].filter(
      (u): u is string => u !== undefined && INPUT_REF.test(u),
    );
    for (const ref of new Set(refs))
      if (!(await deps.store.inputInUse(ref, task.id))) await deps.inputs.delete(ref);
  }

  function start(task: TaskRow): void {
    if (running.has(task.id)) return;
    const child = stop.child();
    const job = run(task, child.signal)
      .catch(async (err: unknown) => {
        if (stop.signal.aborted) return; // shutting down: the task stays pending and resumes next start
        const error =
          err instanceof TaskFailure
            ? err.error
            : {
                message: 'The task failed on an internal error of the generator.',
                type: ERROR_TYPES.api,
                code: ERROR_CODES.generationFailed,
              };
        if (!(err instanceof TaskFailure)) log(`task ${task.id} crashed: ${String(err)}`);
        const refunded = await deps.store.fail(task.id, error);
        log(`task ${task.id} failed (${error.code ?? 'error'}); refunded ${refunded} credits`);
      })
      .catch((err: unknown) => log(`task ${task.id}: could not record failure: ${String(err)}`))
      .then(() => (stop.signal.aborted ? undefined : dropInputs(task)))
      .catch((err: unknown) => log(`task ${task.id}: could not drop its inputs: ${String(err)}`))
      .finally(() => {
        child.release();
        running.delete(task.id);
      });
    running.set(task.id, job);
  }

  return {
    start,
    async settled(id, timeoutMs, signal) {
      const job = running.get(id);
      if (!job) return;
      const ac = new AbortController();
      const onAbort = () => ac.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await Promise.race([job, abortableSleep(timeoutMs, ac.signal).catch(() => {})]);
      } finally {
        ac.abort();
        signal?.removeEventListener('abort', onAbort);
      }
    },
    async resumePending() {
      const pending = await deps.store.pendingTasks();
      for (const t of pending) start(t);
      if (pending.length) log(`resumed ${pending.length} pending task(s)`);
      return pending.length;
    },
    async close() {
      stop.abort(new Error('engine closed'));
      await Promise.allSettled([...running.values()]);
    },
  };
}
