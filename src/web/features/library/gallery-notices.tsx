import type { LibraryEntry } from '../../../contract/index.ts';
import { StillShared } from '../share/index.ts';

/**
 * What the gallery says above the grid: the last action (a live status, with Undo after a hide,
 * and which of the hidden tasks are still shared publicly, with Stop sharing…), and why a bulk
 * action or a star did not work.
 */
export function GalleryNotices({
  announcement,
  canUndo,
  hidden,
  busy,
  onUndo,
  actionError,
  favouriteError,
}: {
  announcement: string;
  /** Tasks were hidden last: Undo is offered. */
  canUndo: boolean;
  /** The tasks hidden last: those still shared publicly are named (decision 0095). */
  hidden: readonly LibraryEntry[];
  /** A bulk action is on its way. */
  busy: boolean;
  onUndo: () => void;
  actionError: string | null;
  favouriteError: string | null;
}) {
  return (
    <>
      <div className={canUndo ? 'gallery-undo card' : undefined}>
        <div role="status" className={canUndo ? 'gallery-undo__words' : 'visually-hidden'}>
          <span>{announcement}</span>
          {canUndo && (
            <button type="button" className="small" onClick={onUndo} disabled={busy}>
              {busy ? 'Undoing…' : 'Undo'}
            </button>
          )}
        </div>
        {canUndo && (
          <StillShared key={hidden.map((e) => e.id).join()} entries={hidden} when="hidden" />
        )}
      </div>
      {actionError && (
        <p className="error small" role="alert">
          That did not work: {actionError}
        </p>
      )}
      {favouriteError !== null && (
        <p className="error small" role="alert">
          The star could not be kept: {favouriteError}
        </p>
      )}
    </>
  );
}
