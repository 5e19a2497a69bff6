// The batch of the open key as this tab shows it, and as localStorage keeps it (so that a reload
// resumes it): one store, read by the page with useStore, changed only through `keep`.
import { createStore, type Store } from '../../lib/store.ts';
import { forgetBatch, loadBatch, saveBatch, type Batch, type BatchItem } from './batch-store.ts';

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

const idle = (batch: Batch | null): BatchView => ({
  batch,
  sending: 0,
  pausedUntil: null,
  uploads: {},
  kept: true,
});

/** `storage`: localStorage unless given (none outside a browser: nothing is kept). */
export function createBatchState(storage?: Storage) {
  const store = (): Storage | undefined =>
    storage ?? (typeof localStorage === 'undefined' ? undefined : localStorage);
  const view = createStore<BatchView>(idle(null));
  let scope: string | null = null;

  /** A change to what the page shows (not to the batch itself: that is `keep`). */
  const show = (change: Partial<BatchView>) => view.set((v) => ({ ...v, ...change }));

  /** Shows `batch` and keeps it for the open key (null: forgets it). */
  function keep(batch: Batch | null) {
    const kept = store();
    let ok = true;
    if (scope !== null && kept) {
      if (batch) ok = saveBatch(scope, batch, kept);
      else forgetBatch(scope, kept);
    }
    show({ batch, kept: ok });
  }

  return {
    view: view as Store<BatchView>,
    show,
    keep,
    /** The key scope whose batch this is (null before the first `open`). */
    scope: (): string | null => scope,
    /** The batch shown now. */
    batch: (): Batch | null => view.get().batch,

    /**
     * Shows the batch kept for `next`. Not announced: it is called as the page renders, which
     * reads the view next.
     */
    open(next: string): void {
      scope = next;
      const kept = store();
      view.reset(idle(kept ? loadBatch(next, kept) : null));
    },

    /** Changes one item of the batch shown, and keeps the batch. */
    updateItem(id: string, change: Partial<BatchItem>): void {
      const batch = view.get().batch;
      if (!batch) return;
      keep({ ...batch, items: batch.items.map((i) => (i.id === id ? { ...i, ...change } : i)) });
    },
  };
}
