import { lazy, Suspense, useState } from 'react';
import { createPortal } from 'react-dom';
import type { LibraryEntry } from '../../../contract/index.ts';
import { nameOf, subjectOf } from '../../lib/entry-format.ts';
import type { EntryTarget } from './entry-collections-dialog.tsx';

// Loaded the first time a Collections button is pressed.
const EntryCollectionsDialog = lazy(() => import('./entry-collections-dialog.tsx'));

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
  const [target, setTarget] = useState<EntryTarget | null>(null);
  const count = entry.collections?.length ?? 0;
  // What the dialog calls the model: "Granny’s teapot", "“a red vase”", "chair.png".
  const title = nameOf(entry) ?? subjectOf(entry) ?? `this ${entry.model} model`;
  return (
    <>
      <button
        type="button"
        className={className ? `collections-button ${className}` : 'collections-button'}
        aria-haspopup="dialog"
        aria-label={label ? `Collections of ${label}` : undefined}
        onClick={() => setTarget({ entry, title })}
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
      {target &&
        createPortal(
          <Suspense fallback={null}>
            <EntryCollectionsDialog
              key={target.entry.id}
              target={{ ...target, entry }}
              onClose={() => setTarget(null)}
            />
          </Suspense>,
          document.body,
        )}
    </>
  );
}
