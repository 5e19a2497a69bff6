import { lazy, Suspense, useState } from 'react';
import { createPortal } from 'react-dom';
import type { LibraryEntry } from '../../../contract/index.ts';
import { titleOf } from '../../lib/entry-format.ts';
import type { ShareTarget } from './share-dialog.tsx';
import './share-button.css';

export type { ShareTarget } from './share-dialog.tsx';

// Loaded the first time a Share button is pressed.
const ShareDialog = lazy(() => import('./share-dialog.tsx'));

/**
 * "Share" on a finished model Kiln keeps (nothing otherwise): opens the dialog to make, copy or
 * revoke its public link. Says "Shared" while a link is live. Other features render it through
 * features/share/index.ts; the dialog (a modal <dialog>) is drawn in document.body, outside the
 * card or bar that offers it.
 */
export function ShareButton({
  entry,
  className,
  label,
}: {
  entry: LibraryEntry;
  className?: string;
  /** The accessible name's subject when several buttons share a screen ("Share <label>"). */
  label?: string;
}) {
  const [target, setTarget] = useState<ShareTarget | null>(null);
  if (entry.status !== 'completed' || !entry.archived) return null;
  const shared = Boolean(entry.share);
  return (
    <>
      <button
        type="button"
        className={className ? `share-button ${className}` : 'share-button'}
        aria-haspopup="dialog"
        aria-label={label ? `${shared ? 'Shared' : 'Share'}: ${label}` : undefined}
        data-shared={shared || undefined}
        onClick={() => setTarget({ id: entry.id, title: titleOf(entry) })}
      >
        <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none">
          <path
            d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1 1M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1-1"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
        {shared ? 'Shared' : 'Share'}
      </button>
      {target &&
        createPortal(
          <Suspense fallback={null}>
            <ShareDialog key={target.id} target={target} onClose={() => setTarget(null)} />
          </Suspense>,
          document.body,
        )}
    </>
  );
}
