// The current batch of a key, outside React so that it goes on sending while the artist moves
// between pages, and is kept (localStorage, photos in IndexedDB) so that a reload resumes it.
import type { BatchApi } from '../../api/batch-tasks.ts';
import type { BatchKind } from './batch-plan.ts';
import {
  BATCH_CONCURRENCY,
  createPacer,
  realClock,
  sendItems,
  type Clock,
  type RunnerDeps,
} from './batch-runner.ts';
import {
  forgetBatch,
  loadBatch,
  saveBatch,
  unsent,
  type Batch,
  type BatchItem,
} from './batch-store.ts';
import type { PhotoStore } from './photo-store.ts';

export interface BatchView {
  batch: Batch | null;
  /** Items being sent now. */
  sending: number;
  /** Every start waits until then (a 429's Retry-After), or null. */
  pausedUntil: number | null;
  /** Upload progress (0–1) of items uploading now. */
  uploads: Readonly<Record<string, number>>;
  /** False when storage refused the batch: it goes on, but a reload would lose it. */
  kept: boolean;
}

export interface NewBatch {
  kind: BatchKind;
  model: string;
  creditsPerItem: number | null;
  /** Photos (for `photos`) or prompts (for `prompts`). */
  photos?: readonly File[];
  prompts?: readonly string[];
}

/** The photo of an item was not kept through a reload (no IndexedDB, or it was cleared). */
export class PhotoLostError extends Error {
  override name = 'PhotoLostError';
  constructor(name: string) {
    super(`“${name}” was not kept by this browser through the reload; add it to a new batch.`);
  }
}

export interface ControllerDeps {
  photos: PhotoStore;
  describe: (err: unknown) => string;
  newKey: () => string;
  storage?: Storage;
  clock?: Clock;
  concurrency?: number;
  random?: () => number;
}

export function createBatchController(deps: ControllerDeps) {
  const clock = deps.clock ?? realClock;
  const storage = (): Storage | undefined =>
    deps.storage ?? (typeof localStorage === 'undefined' ? undefined : localStorage);
  const listeners = new Set<() => void>();
  let scope: string | null = null;
  let view: BatchView = { batch: null, sending: 0, pausedUntil: null, uploads: {}, kept: true };
  let abort = new AbortController();
  const inFlight = new Set<string>();
  /** This session's photos, by item id (the store keeps them for a reload). */
  const memory = new Map<string, File>();
  /** Object URLs of those photos, made when first shown and revoked with the batch. */
  const previews = new Map<string, string>();
  const forgetPhotos = () => {
    for (const url of previews.values()) URL.revokeObjectURL(url);
    previews.clear();
    memory.clear();
  };

  const pacer = createPacer(deps.concurrency ?? BATCH_CONCURRENCY, clock, (until) =>
    set({ pausedUntil: until }),
  );

  function set(change: Partial<BatchView>) {
    view = { ...view, ...change };
    for (const l of listeners) l();
  }

  function keep(batch: Batch | null) {
    const store = storage();
    let kept = true;
    if (scope !== null && store) {
      if (batch) kept = saveBatch(scope, batch, store);
      else forgetBatch(scope, store);
    }
    set({ batch, kept });
  }

  function updateItem(id: string, change: Partial<BatchItem>) {
    const batch = view.batch;
    if (!batch) return;
    keep({ ...batch, items: batch.items.map((i) => (i.id === id ? { ...i, ...change } : i)) });
  }

  function runnerDeps(api: BatchApi, batchId: string): RunnerDeps {
    // A run belongs to one batch: once it is cleared or replaced, what comes back is dropped.
    const mine = () => view.batch?.id === batchId;
    return {
      get: (id) => (mine() ? view.batch?.items.find((i) => i.id === id) : undefined),
      update: (id, change) => {
        if (mine()) updateItem(id, change);
      },
      async upload(item, signal, onProgress) {
        const photo =
          memory.get(item.id) ?? (await deps.photos.get(item.id).catch(() => undefined));
        if (!photo) throw new PhotoLostError(item.name);
        const file =
          photo instanceof File ? photo : new File([photo], item.name, { type: photo.type });
        const result = await api.upload(file, { signal, onProgress });
        memory.delete(item.id);
        void deps.photos.delete([item.id]).catch(() => {});
        return { url: result.url, preview: api.uploadPath(result) };
      },
      create: (body, key, signal) => api.create(body, key, signal),
      describe: deps.describe,
      onUploadProgress: (id, fraction) => {
        if (mine()) set({ uploads: { ...view.uploads, [id]: fraction } });
      },
      clock,
      ...(deps.random ? { random: deps.random } : {}),
    };
  }

  function run(ids: readonly string[], api: BatchApi): Promise<void> {
    const batch = view.batch;
    if (!batch || api.scope !== scope) return Promise.resolve();
    const fresh = ids.filter((id) => !inFlight.has(id));
    if (fresh.length === 0) return Promise.resolve();
    for (const id of fresh) inFlight.add(id);
    set({ sending: inFlight.size });
    const signal = abort.signal;
    return sendItems(batch, fresh, runnerDeps(api, batch.id), pacer, signal)
      .catch(() => {
        // aborted (cleared, or another key): the items stay as they were, to be resumed
      })
      .finally(() => {
        for (const id of fresh) inFlight.delete(id);
        const uploads = { ...view.uploads };
        for (const id of fresh) delete uploads[id];
        set({ sending: inFlight.size, uploads });
      });
  }

  function stopRuns() {
    abort.abort(new DOMException('The batch was put away.', 'AbortError'));
    abort = new AbortController();
    inFlight.clear();
  }

  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: (): BatchView => view,

    /** Shows the batch kept for this key scope (another key's run stops; it resumes later). */
    open(next: string): void {
      if (next === scope) return;
      stopRuns();
      forgetPhotos();
      scope = next;
      const store = storage();
      // Not announced: this is called as the page renders, which reads the snapshot next.
      view = {
        batch: store ? loadBatch(next, store) : null,
        sending: 0,
        pausedUntil: null,
        uploads: {},
        kept: true,
      };
    },

    /** A picture of an item's photo while only this tab has it (before its upload). */
    localPreview(itemId: string): string | null {
      const known = previews.get(itemId);
      if (known) return known;
      const file = memory.get(itemId);
      if (!file || typeof URL.createObjectURL !== 'function') return null;
      const url = URL.createObjectURL(file);
      previews.set(itemId, url);
      return url;
    },

    /** Sends what a reload (or a page change) interrupted; items done stay done. */
    resume(api: BatchApi): Promise<void> {
      const batch = view.batch;
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
      if (scope === null || api.scope !== scope) throw new Error('No key is open.');
      const previous = view.batch;
      forgetPhotos();
      const id = `b${clock.now().toString(36)}`;
      const entries =
        plan.kind === 'photos'
          ? (plan.photos ?? []).map((file) => ({ name: file.name || 'photo', prompt: null, file }))
          : (plan.prompts ?? []).map((prompt) => ({ name: prompt, prompt, file: null }));
      const items: BatchItem[] = entries.map((e, i) => ({
        id: `${id}-${i + 1}`,
        name: e.name,
        prompt: e.prompt,
        upload: null,
        idempotencyKey: deps.newKey(),
        state: 'queued',
        taskId: null,
        error: null,
        earlierTaskIds: [],
      }));
      entries.forEach((e, i) => {
        if (e.file) memory.set(items[i]!.id, e.file);
      });
      // Kept for a reload before anything is sent; a store that refuses only costs that.
      const openedFor = scope;
      await Promise.all(
        entries.map((e, i) =>
          e.file ? deps.photos.put(items[i]!.id, e.file).catch(() => {}) : Promise.resolve(),
        ),
      );
      if (scope !== openedFor) return; // another key was opened meanwhile
      if (previous) void deps.photos.delete(previous.items.map((i) => i.id)).catch(() => {});
      keep({
        id,
        kind: plan.kind,
        model: plan.model,
        creditsPerItem: plan.creditsPerItem,
        createdMs: clock.now(),
        items,
      });
      await run(
        items.map((i) => i.id),
        api,
      );
    },

    /** Sends a failed item again, alone, with a new Idempotency-Key (a new task). */
    retry(itemId: string, api: BatchApi): Promise<void> {
      const item = view.batch?.items.find((i) => i.id === itemId);
      if (!item || inFlight.has(itemId)) return Promise.resolve();
      updateItem(itemId, {
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
      const batch = view.batch;
      stopRuns();
      if (batch) void deps.photos.delete(batch.items.map((i) => i.id)).catch(() => {});
      forgetPhotos();
      keep(null);
      set({ sending: 0, uploads: {}, pausedUntil: null });
    },
  };
}
export type BatchController = ReturnType<typeof createBatchController>;
