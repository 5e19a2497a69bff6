// A Meshy mock task's life: PENDING for a while, IN_PROGRESS while Kiln's generator makes the GLB
// (the progress figure rises with time, see `progressOf`), then SUCCEEDED, or FAILED with a
// `task_error.message` and the credits refunded, as Meshy refunds a failed task.
import type { Generator } from '../engine-deps.ts';
import type { MeshyState, MeshyTaskRow } from './state.ts';

/** How long a task waits in the queue and runs at least, in ms. */
export interface MeshySpeed {
  pendingMs: number;
  runMs: number;
}

export const MESHY_SPEEDS = {
  /** A task in about 2 s: for tests. */
  fast: { pendingMs: 300, runMs: 1_500 },
  /** About a minute, like a real Meshy 6 task: for demos. */
  real: { pendingMs: 5_000, runMs: 60_000 },
} as const satisfies Record<string, MeshySpeed>;

/** The two `task_error.message` texts Meshy documents for a failed task. */
const TASK_ERRORS = {
  internal: 'Internal server error.',
  busy: 'The server is busy. Please try again later.',
} as const;

export interface EngineDeps {
  state: MeshyState;
  generator: Pick<Generator, 'imageToGlb' | 'viewsToGlb' | 'promptToGlb' | 'isInputError'>;
  fetchImage: (url: string, signal: AbortSignal) => Promise<Uint8Array>;
  speed: MeshySpeed;
  now: () => number;
}

export interface MeshyEngine {
  start(task: MeshyTaskRow): void;
  /** The progress Meshy would report now (0 while PENDING, 100 once SUCCEEDED). */
  progressOf(task: MeshyTaskRow): number;
  close(): Promise<void>;
}

class TaskFailed extends Error {}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Which trigger a task's inputs carry (a prompt or an image URL containing it). */
function triggered(task: MeshyTaskRow, preview?: MeshyTaskRow): string | undefined {
  const text = [task.prompt ?? '', ...task.imageUrls].join(' ');
  if (task.kind === 'text-to-3d-refine')
    return preview?.prompt?.includes('mock:fail-refine') ? TASK_ERRORS.internal : undefined;
  if (text.includes('mock:busy')) return TASK_ERRORS.busy;
  if (text.includes('mock:fail') && !text.includes('mock:fail-refine')) return TASK_ERRORS.internal;
  return undefined;
}

export function createMeshyEngine(deps: EngineDeps): MeshyEngine {
  const running = new Set<Promise<void>>();
  const stop = new AbortController();

  async function make(task: MeshyTaskRow): Promise<Uint8Array> {
    const preview = task.previewTaskId ? deps.state.task(task.previewTaskId) : undefined;
    const failure = triggered(task, preview);
    if (failure) throw new TaskFailed(failure);
    if (task.kind === 'text-to-3d-refine') {
      if (!preview?.glb) throw new TaskFailed(TASK_ERRORS.internal);
      return preview.glb;
    }
    if (task.kind === 'text-to-3d-preview') return deps.generator.promptToGlb(task.prompt ?? '');
    const images = await Promise.all(
      task.imageUrls.map((url) => deps.fetchImage(url, stop.signal)),
    );
    if (images.length === 1) return deps.generator.imageToGlb(images[0] ?? new Uint8Array());
    return deps.generator.viewsToGlb(images);
  }

  async function run(task: MeshyTaskRow): Promise<void> {
    await sleep(deps.speed.pendingMs, stop.signal);
    task.status = 'IN_PROGRESS';
    task.startedAt = deps.now();
    const atLeast = sleep(deps.speed.runMs, stop.signal);
    try {
      const glb = await make(task);
      await atLeast;
      Object.assign(task, { glb, status: 'SUCCEEDED', progress: 100, finishedAt: deps.now() });
    } catch (err) {
      atLeast.catch(() => {});
      if (stop.signal.aborted) throw err;
      task.status = 'FAILED';
      task.progress = 0;
      task.finishedAt = deps.now();
      task.error = messageOf(err, deps.generator.isInputError(err));
      deps.state.refund(task);
    }
  }

  return {
    start(task) {
      const p = run(task).catch(() => {});
      running.add(p);
      void p.finally(() => running.delete(p));
    },
    progressOf(task) {
      if (task.status !== 'IN_PROGRESS') return task.progress;
      const share = (deps.now() - task.startedAt) / Math.max(1, deps.speed.runMs);
      return Math.max(1, Math.min(95, Math.floor(share * 95)));
    },
    async close() {
      stop.abort(new Error('the Meshy mock is closing'));
      await Promise.all([...running]);
    },
  };
}

/** A failure's `task_error.message`: the trigger's text, the input's own sentence, or Meshy's generic one. */
function messageOf(err: unknown, inputError: boolean): string {
  if (err instanceof TaskFailed) return err.message;
  if (inputError && err instanceof Error) return err.message;
  if (err instanceof Error && err.name === 'ImageFetchError') return err.message;
  return TASK_ERRORS.internal;
}
