import { lazy, Suspense } from 'react';
import { createPortal } from 'react-dom';
import type { LibraryEntry } from '../../../contract/index.ts';
import { titleOf } from '../../lib/entry-format.ts';
import { createStore, useStore } from '../../lib/store.ts';
import type { EntryTarget } from './entry-collections-dialog.tsx';

// Loaded the first time a Collections button is pressed.
const EntryCollectionsDialog = lazy(() => import('./entry-collections-dialog.tsx'));

/**
 * The one open collections dialog, and the button that opened it. Held here, not by the button:
 * unticking the collection the gallery shows takes the model's card (and its button) off the
 * page, and the dialog stays open all the same (issue 32).
 */
const opened = createStore<{ target: EntryTarget; opener: HTMLElement | null } | null>(null);

/**
 * Where the collections dialog is drawn (once, by the app's shell, in document.body). Closed,
 * focus goes back to the button that opened it, or, when that left the page with its card, to
 * the page's heading.
 */
export function CollectionsDialogHost() {
  const open = useStore(opened);
  if (!open) return null;
  const close = () => {
    opened.set(null);
    if (open.opener?.isConnected) return;
    // After the dialog has handed focus back (to nothing): the page's heading takes it.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('main h1[tabindex]')?.focus());
  };
  return createPortal(
    <Suspense fallback={null}>
      <EntryCollectionsDialog key={open.target.entry.id} target={open.target} onClose={close} />
    </Suspense>,
    document.body,
  );
}

/**
 * "Collections" on a model (its result, its gallery card): opens the dialog that ticks the
 * collections it sits in and makes new ones. Says how many it is in. The dialog (a modal
 * <dialog>) is drawn in document.body, outside the card or bar that offers it.
 */
export function CollectionsButton({
  entry,
  label,
  className,
}: {
  entry: LibraryEntry;
  /** The accessible name's subject when several buttons share a screen ("Collections of <label>"). */
  label?: string;
  className?: string;
}) {
  const count = entry.collections?.length ?? 0;
  // What the dialog calls the model: "Granny’s teapot", "“a red vase”", "chair.png".
  const title = titleOf(entry);
  return (
    <>
      <button
        type="button"
        className={className ? `collections-button ${className}` : 'collections-button'}
        aria-haspopup="dialog"
        aria-label={label ? `Collections of ${label}` : undefined}
        onClick={(e) => opened.set({ target: { entry, title }, opener: e.currentTarget })}
      >
        <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none">
          <path
            d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7Z"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
          />
        </svg>
        Collections
        {count > 0 && (
          <>
            <span className="collections-button__count" aria-hidden="true">
              {count}
            </span>
            <span className="visually-hidden">, in {count}</span>
          </>
        )}
      </button>
    </>
  );
}
