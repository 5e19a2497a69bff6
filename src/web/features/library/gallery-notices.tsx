/**
 * What the gallery says above the grid: the last action (a live status, with Undo after a hide),
 * and why a bulk action or a star did not work.
 */
export function GalleryNotices({
  announcement,
  canUndo,
  busy,
  onUndo,
  actionError,
  favouriteError,
}: {
  announcement: string;
  /** Tasks were hidden last: Undo is offered. */
  canUndo: boolean;
  /** A bulk action is on its way. */
  busy: boolean;
  onUndo: () => void;
  actionError: string | null;
  favouriteError: string | null;
}) {
  return (
    <>
      <div role="status" className={canUndo ? 'gallery-undo card' : 'visually-hidden'}>
        <span>{announcement}</span>
        {canUndo && (
          <button type="button" className="small" onClick={onUndo} disabled={busy}>
            {busy ? 'Undoing…' : 'Undo'}
          </button>
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
