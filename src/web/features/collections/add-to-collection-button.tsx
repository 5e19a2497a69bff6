import { lazy, Suspense, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { LibraryEntry } from '../../../contract/index.ts';
import type { Added } from './add-to-collection-dialog.tsx';

export type { Added } from './add-to-collection-dialog.tsx';

// Loaded the first time the button is pressed.
const AddToCollectionDialog = lazy(() => import('./add-to-collection-dialog.tsx'));
const ShareSelectionDialog = lazy(() => import('./share-selection-dialog.tsx'));

/**
 * The gallery selection's "Add to collection…": opens the dialog that puts the selected models in
 * one of the owner's collections, or in a new one; `onAdded` says where they went.
 */
export function AddToCollectionButton({
  entries,
  onAdded,
  className,
}: {
  entries: readonly Pick<LibraryEntry, 'id' | 'collections'>[];
  onAdded: (added: Added) => void;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        disabled={entries.length === 0}
      >
        Add to collection…
      </button>
      {open &&
        createPortal(
          <Suspense fallback={null}>
            <AddToCollectionDialog
              entries={entries}
              onAdded={onAdded}
              onClose={() => setOpen(false)}
            />
          </Suspense>,
          document.body,
        )}
    </>
  );
}

/**
 * The gallery selection's "Share N as one page…" for two or more models (decision 0103): opens
 * the dialog that makes a collection of them, named there, and its public link.
 */
export function ShareSelectionButton({
  entries,
  className,
}: {
  entries: readonly Pick<LibraryEntry, 'id'>[];
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  // The dialog that opened becomes the collection's share dialog: focus comes back here.
  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => buttonRef.current?.focus());
  };
  return (
    <>
      <button
        type="button"
        ref={buttonRef}
        className={className}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        disabled={entries.length < 2}
      >
        Share {entries.length} as one page…
      </button>
      {open &&
        createPortal(
          <Suspense fallback={null}>
            <ShareSelectionDialog entries={entries} onClose={close} />
          </Suspense>,
          document.body,
        )}
    </>
  );
}
