import { useId, type RefObject } from 'react';
import { NotFoundError } from '../../../client/index.ts';
import type { LibraryEntry } from '../../../contract/index.ts';
import { useHideTask, useUnhideTask } from '../../api/library.ts';
import { glbFileName } from '../../lib/file-name.ts';
import { Link } from '../../ui/link.tsx';
import { useAskFirst } from '../../ui/use-ask-first.ts';
import { CollectionsButton } from '../collections/index.ts';
import { ShareButton, StillShared } from '../share/index.ts';

/** Hide, asked inline: Yes hides the task (saying when it stays shared publicly), No keeps it. */
function HideConfirm({
  entry,
  label,
  hide,
  noRef,
  onKeep,
  onHidden,
}: {
  entry: LibraryEntry;
  label: string;
  hide: ReturnType<typeof useHideTask>;
  noRef: RefObject<HTMLButtonElement | null>;
  onKeep: () => void;
  onHidden: (id: string) => void;
}) {
  const questionId = useId();
  const confirm = () => {
    hide.mutate(entry.id, {
      onSuccess: () => onHidden(entry.id),
      onError: (err) => {
        // Already gone on the server: as good as hidden.
        if (err instanceof NotFoundError) onHidden(entry.id);
      },
    });
  };
  return (
    <div className="gallery-confirm" role="group" aria-labelledby={questionId}>
      <span id={questionId}>Hide this task?</span>
      <StillShared entries={[entry]} when="hiding" label={label} />
      <button
        type="button"
        className="small danger"
        onClick={confirm}
        disabled={hide.isPending}
        aria-label={hide.isPending ? undefined : `Yes, hide ${label}`}
      >
        {hide.isPending ? 'Hiding…' : 'Yes'}
      </button>
      <button
        type="button"
        className="small"
        ref={noRef}
        onClick={onKeep}
        disabled={hide.isPending}
        aria-label={`No, keep ${label}`}
      >
        No
      </button>
      {hide.isError && !(hide.error instanceof NotFoundError) && (
        <p className="error small gallery-confirm-error" role="alert">
          Could not hide it: {hide.error.message}
        </p>
      )}
    </div>
  );
}

/** A hidden card's Unhide (the Hidden view); `onUnhidden` follows (also when already gone). */
function UnhideButton({
  entry,
  label,
  onUnhidden,
}: {
  entry: LibraryEntry;
  label: string;
  onUnhidden: (id: string) => void;
}) {
  const unhide = useUnhideTask();
  return (
    <>
      <button
        type="button"
        className="small gallery-unhide"
        onClick={() =>
          unhide.mutate(entry.id, {
            onSuccess: () => onUnhidden(entry.id),
            onError: (err) => {
              if (err instanceof NotFoundError) onUnhidden(entry.id);
            },
          })
        }
        disabled={unhide.isPending}
        aria-label={unhide.isPending ? undefined : `Unhide ${label}`}
      >
        {unhide.isPending ? 'Unhiding…' : 'Unhide'}
      </button>
      {unhide.isError && !(unhide.error instanceof NotFoundError) && (
        <p className="error small gallery-confirm-error" role="alert">
          Could not unhide it: {unhide.error.message}
        </p>
      )}
    </>
  );
}

/**
 * A card's actions: Open, Download GLB (once there is a model), Share, Collections (the dialog that
 * puts it in collections), Rename (the card turns its
 * title into a field; `onRename` is unset while it does) and Hide, which asks first, inline
 * (Yes, No), saying when the model stays shared publicly (with Stop sharing…); `onHidden` follows
 * once the task is hidden (or already gone). A hidden card (the Hidden view) has Unhide instead;
 * `onUnhidden` follows.
 */
export function CardActions({
  entry,
  label,
  onHidden,
  onUnhidden,
  onRename,
  renameRef,
}: {
  entry: LibraryEntry;
  /** The words the card is known by, for the buttons' names. */
  label: string;
  onHidden: (id: string) => void;
  onUnhidden: (id: string) => void;
  onRename?: (() => void) | undefined;
  /** Where focus goes back to once the name is saved or the field closed. */
  renameRef?: RefObject<HTMLButtonElement | null>;
}) {
  const hide = useHideTask();
  const {
    confirming,
    ask,
    keep,
    askRef: hideRef,
    keepRef: noRef,
  } = useAskFirst(() => hide.reset());
  const canDownload = entry.status === 'completed' && entry.model_url !== null;

  if (confirming)
    return (
      <HideConfirm
        entry={entry}
        label={label}
        hide={hide}
        noRef={noRef}
        onKeep={keep}
        onHidden={onHidden}
      />
    );
  return (
    <div className="gallery-actions">
      <Link
        href={`/tasks/${encodeURIComponent(entry.id)}`}
        className="button small gallery-open"
        aria-label={`Open ${label}`}
      >
        Open
      </Link>
      {canDownload && entry.model_url && (
        <a
          className="button small"
          href={entry.model_url}
          download={glbFileName(entry)}
          aria-label={`Download GLB of ${label}`}
        >
          Download GLB
        </a>
      )}
      <ShareButton entry={entry} className="small" label={label} />
      <CollectionsButton entry={entry} className="small" label={label} />
      <button
        type="button"
        className="small gallery-rename"
        ref={renameRef}
        onClick={onRename}
        disabled={!onRename}
        aria-label={`Rename ${label}`}
      >
        Rename
      </button>
      {entry.hidden ? (
        <UnhideButton entry={entry} label={label} onUnhidden={onUnhidden} />
      ) : (
        <button
          type="button"
          className="small danger gallery-hide"
          ref={hideRef}
          onClick={ask}
          aria-label={`Hide ${label}`}
        >
          Hide
        </button>
      )}
    </div>
  );
}
