import { lazy, Suspense, useState } from 'react';
import { createPortal } from 'react-dom';
import type { LibraryEntry } from '../../../contract/index.ts';
import type { Added } from './add-to-collection-dialog.tsx';

export type { Added } from './add-to-collection-dialog.tsx';

// Loaded the first time the button is pressed.
const AddToCollectionDialog = lazy(() => import('./add-to-collection-dialog.tsx'));

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
