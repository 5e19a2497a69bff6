import {
  ERROR_CODES,
  ERROR_TYPES,
  MODEL_INPUT,
  STAGES,
  type ErrorObject,
} from '../contract/index.ts';
import type { ModelFiles } from './model-files.ts';
import type { SpeedProfile } from './speed.ts';
import type { MockStore, TaskRow } from './store.ts';
import { ImageFetchError } from './fetch-image.ts';

/** Callbacks a generator may call while it works. */
export interface GeneratorHooks {
  /** The shape is built; the mesh is now being processed (simplified, packed into a GLB). */
  onPhase?: (phase: 'processing') => void;
}

/** The generator as the engine sees it (src/generator's worker pool by default). */
export interface Generator {
  imageToGlb(image: Uint8Array, hooks?: GeneratorHooks): Promise<Uint8Array>;
  viewsToGlb(images: readonly Uint8Array[], hooks?: GeneratorHooks): Promise<Uint8Array>;
  promptToGlb(prompt: string, hooks?: GeneratorHooks): Promise<Uint8Array>;
  /** True when an error means "the input is not a usable image". */
  isInputError(err: unknown): boolean;
}

export interface EngineDeps {
  store: MockStore;
  files: ModelFiles;
  generator: Generator;
  fetchImage: (url: string, signal: AbortSignal) => Promise<Uint8Array>;
  speed: SpeedProfile;
  now: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  log?: (message: string) => void;
  /** How many generations run at once (the rest wait their turn). */
  concurrency?: number;
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

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    if (ms <= 0) return resolve();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function createTaskEngine(deps: EngineDeps): TaskEngine {
  const sleep = deps.sleep ?? abortableSleep;
  const log = deps.log ?? (() => {});
  const running = new Map<string, Promise<void>>();
  const stop = new AbortController();
  const slots = limiter(deps.concurrency ?? 2);

  async function stage(
    task: TaskRow,
    s: (typeof STAGES)[number],
    minMs: number,
    work?: () => Promise<void>,
  ) {
    await deps.store.setProgress(task.id, s.progress, s.label);
    const started = deps.now();
    if (work) await work();
    await sleep(minMs - (deps.now() - started), stop.signal);
  }

  async function run(task: TaskRow): Promise<void> {
    const { speed } = deps;
    const req = task.request;
    let images: Uint8Array[] = [];
    let glb: Uint8Array | undefined;
    await stage(task, INIT, speed.initializing);
    await stage(task, DOWNLOAD, speed.downloading, async () => {
      const urls = req.image_urls ?? (req.image_url ? [req.image_url] : []);
      images = await Promise.all(
        urls.map((url, i) =>
          deps.fetchImage(url, stop.signal).catch((err: unknown) => {
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
      await sleep(speed.generating - (deps.now() - generatingSince), stop.signal);
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
          if (kind === 'multiview') return await deps.generator.viewsToGlb(images, hooks);
          return await deps.generator.imageToGlb(images[0] ?? new Uint8Array(), hooks);
        } catch (err) {
          if (deps.generator.isInputError(err)) {
            const index = (err as { imageIndex?: unknown }).imageIndex;
            const param = req.image_urls
              ? typeof index === 'number'
                ? `image_urls[${index}]`
                : 'image_urls'
              : 'image_url';
            throw new TaskFailure({
              message: `${(err as Error).message} (${param})`,
              type: ERROR_TYPES.invalidRequest,
              code: ERROR_CODES.imageDecodeFailed,
              param,
            });
          }
          throw err;
        }
      });
    })();
    try {
      glb = await generation;
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      // A generator that never reports its phase still ends the stage.
      reachedProcessing();
    }
    await shownProcessing;
    await sleep(speed.processing - (deps.now() - (processingSince ?? deps.now())), stop.signal);
    await stage(task, UPLOAD, speed.uploading, async () => {
      if (glb) await deps.files.save(task.id, glb);
    });
    await deps.store.complete(
      task.id,
      Math.floor(deps.now() / 1000),
      glb?.byteLength ?? 0,
      DONE.label,
    );
  }

  function start(task: TaskRow): void {
    if (running.has(task.id)) return;
    const job = run(task)
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
      .finally(() => running.delete(task.id));
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

/** A tiny semaphore: at most `n` calls of the returned function run at once. */
function limiter(n: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}
