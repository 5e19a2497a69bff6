// The current batch of a key, outside React so that it goes on sending while the artist moves
// between pages, and is kept (localStorage, photos in IndexedDB) so that a reload resumes it.
// Its parts: batch-state.ts (the view and what is kept), item-photos.ts (the photos until they
// are uploaded), new-batch.ts (a plan made into items) and batch-runner.ts (the sending).
import type { BatchApi } from '../../api/tasks.ts';
import { createBatchState } from './batch-state.ts';
import {
  BATCH_CONCURRENCY,
  createPacer,
  realClock,
  sendItems,
  type Clock,
  type RunnerDeps,
} from './batch-runner.ts';
import { unsent } from './batch-store.ts';
import { createItemPhotos } from './item-photos.ts';
import { makeBatch, type NewBatch } from './new-batch.ts';
import type { PhotoStore } from './photo-store.ts';

export interface ControllerDeps {
  photos: PhotoStore;
  describe: (err: unknown) => string;
  newKey: () => string;
  storage?: Storage;
  clock?: Clock;
  concurrency?: number;
  random?: () => number;
}

type BatchState = ReturnType<typeof createBatchState>;
type ItemPhotos = ReturnType<typeof createItemPhotos>;

/** What the runner needs for one batch's run: a run belongs to one batch, and once it is cleared or replaced, what comes back is dropped. */
function runnerDeps(
  {
    state,
    photos,
    deps,
    clock,
  }: { state: BatchState; photos: ItemPhotos; deps: ControllerDeps; clock: Clock },
  api: BatchApi,
  batchId: string,
): RunnerDeps {
  const mine = () => state.batch()?.id === batchId;
  return {
    get: (id) => (mine() ? state.batch()?.items.find((i) => i.id === id) : undefined),
    update: (id, change) => {
      if (mine()) state.updateItem(id, change);
    },
    async upload(item, signal, onProgress) {
      const file = await photos.take(item.id, item.name);
      const result = await api.upload(file, { signal, onProgress });
      photos.uploaded(item.id);
      return { url: result.url, preview: api.uploadPath(result) };
    },
    create: (body, key, signal) => api.create(body, key, signal),
    describe: deps.describe,
    onUploadProgress: (id, fraction) => {
      if (mine()) state.show({ uploads: { ...state.view.get().uploads, [id]: fraction } });
    },
    clock,
    ...(deps.random ? { random: deps.random } : {}),
  };
}

/**
 * The sending of a batch's items, a few at a time (`run`), each item once however often it is
 * asked; `stop` abandons every run under way (their items stay as they were, to be resumed).
 */
function createSends(deps: ControllerDeps, state: BatchState, photos: ItemPhotos) {
  const clock = deps.clock ?? realClock;
  const pacer = createPacer(deps.concurrency ?? BATCH_CONCURRENCY, clock, (until) =>
    state.show({ pausedUntil: until }),
  );
  let abort = new AbortController();
  const inFlight = new Set<string>();

  /** Sends the items among `ids` not being sent already. */
  function run(ids: readonly string[], api: BatchApi): Promise<void> {
    const batch = state.batch();
    if (!batch || api.scope !== state.scope()) return Promise.resolve();
    const fresh = ids.filter((id) => !inFlight.has(id));
    if (fresh.length === 0) return Promise.resolve();
    for (const id of fresh) inFlight.add(id);
    state.show({ sending: inFlight.size });
    const runner = runnerDeps({ state, photos, deps, clock }, api, batch.id);
    return sendItems(batch, fresh, runner, pacer, abort.signal)
      .catch(() => {
        // aborted (cleared, or another key): the items stay as they were, to be resumed
      })
      .finally(() => {
        for (const id of fresh) inFlight.delete(id);
        const uploads = { ...state.view.get().uploads };
        for (const id of fresh) delete uploads[id];
        state.show({ sending: inFlight.size, uploads });
      });
  }

  function stop() {
    abort.abort(new DOMException('The batch was put away.', 'AbortError'));
    abort = new AbortController();
    inFlight.clear();
  }

  return { clock, run, stop, inFlight: inFlight as ReadonlySet<string> };
}

export function createBatchController(deps: ControllerDeps) {
  const state = createBatchState(deps.storage);
  const photos = createItemPhotos(deps.photos);
  const sends = createSends(deps, state, photos);
  const { clock, run, inFlight } = sends;

  return {
    /** What the page shows: `useStore(controller.view)`. */
    view: state.view,

    /** Shows the batch kept for this key scope (another key's run stops; it resumes later). */
    open(next: string): void {
      if (next === state.scope()) return;
      sends.stop();
      photos.release();
      state.open(next);
    },

    /** A picture of an item's photo while only this tab has it (before its upload). */
    localPreview: (itemId: string): string | null => photos.preview(itemId),

    /** Sends what a reload (or a page change) interrupted; items done stay done. */
    resume(api: BatchApi): Promise<void> {
      const batch = state.batch();
      return batch
        ? run(
            unsent(batch).map((i) => i.id),
            api,
          )
        : Promise.resolve();
    },

    /** Starts a new batch (the previous one, whose sends are over, is put away). */
    async start(plan: NewBatch, api: BatchApi): Promise<void> {
      if (inFlight.size > 0) throw new Error('The current batch is still being sent.');
      const openedFor = state.scope();
      if (openedFor === null || api.scope !== openedFor) throw new Error('No key is open.');
      const previous = state.batch();
      photos.release();
      const { batch, photos: files } = makeBatch(plan, { nowMs: clock.now(), newKey: deps.newKey });
      // Kept for a reload before anything is sent.
      await photos.hold(files);
      if (state.scope() !== openedFor) return; // another key was opened meanwhile
      if (previous) photos.discard(previous.items.map((i) => i.id));
      state.keep(batch);
      await run(
        batch.items.map((i) => i.id),
        api,
      );
    },

    /** Sends a failed item again, alone, with a new Idempotency-Key (a new task). */
    retry(itemId: string, api: BatchApi): Promise<void> {
      const item = state.batch()?.items.find((i) => i.id === itemId);
      if (!item || inFlight.has(itemId)) return Promise.resolve();
      state.updateItem(itemId, {
        state: 'queued',
        error: null,
        idempotencyKey: deps.newKey(),
        taskId: null,
        earlierTaskIds: item.taskId ? [...item.earlierTaskIds, item.taskId] : item.earlierTaskIds,
      });
      return run([itemId], api);
    },

    /** Puts the batch away (its tasks stay in the gallery). */
    clear(): void {
      const batch = state.batch();
      sends.stop();
      if (batch) photos.discard(batch.items.map((i) => i.id));
      photos.release();
      state.keep(null);
      state.show({ sending: 0, uploads: {}, pausedUntil: null });
    },
  };
}
