import { lazy, Suspense, useId, useRef, useState, type RefObject } from 'react';
import { createPortal, flushSync } from 'react-dom';
import type { Collection } from '../../../contract/index.ts';
import {
  downloadCollectionZip,
  useCollections,
  useDeleteCollection,
  useRenameCollection,
} from '../../api/collections.ts';
import { describeError } from '../../lib/describe-error.ts';
import { formatBytes } from '../../../formats/index.ts';
import { useZipDownload } from '../../lib/use-zip-download.ts';
import { useAskFirst } from '../../ui/use-ask-first.ts';
import { modelCount } from './collection-name.ts';
import { NameField } from './name-field.tsx';
import './collections.css';

// Loaded the first time Share is pressed.
const CollectionShareDialog = lazy(() => import('./collection-share-dialog.tsx'));

/**
 * Rename in place: `open` shows the field and puts focus in it (the Rename button is disabled while
 * it shows, issue 32: focus goes into the field, not to the page); `close` hides it and gives
 * focus back to Rename.
 */
function useRenaming() {
  const [renaming, setRenaming] = useState(false);
  const renameRef = useRef<HTMLButtonElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const open = () => {
    flushSync(() => setRenaming(true));
    nameRef.current?.focus();
    nameRef.current?.select();
  };
  const close = () => {
    flushSync(() => setRenaming(false));
    renameRef.current?.focus();
  };
  return { renaming, renameRef, nameRef, open, close };
}

/** The collection's name and size, or the field that renames it. */
function CollectionTitle({
  collection,
  headingRef,
  renaming,
  nameRef,
  onClose,
}: {
  collection: Collection;
  headingRef: RefObject<HTMLHeadingElement | null>;
  renaming: boolean;
  nameRef: RefObject<HTMLInputElement | null>;
  onClose: () => void;
}) {
  const collections = useCollections();
  const rename = useRenameCollection();
  if (!renaming)
    return (
      <div className="collection-head__title">
        <p className="collection-head__kicker muted small">Collection</p>
        <h1 ref={headingRef} tabIndex={-1}>
          {collection.name}
        </h1>
        <span className="muted">{modelCount(collection.count)}</span>
      </div>
    );
  return (
    <NameField
      label="Collection name"
      submit="Save"
      busyLabel="Saving…"
      initial={collection.name}
      existing={collections.data ?? []}
      self={collection.id}
      onCancel={onClose}
      inputRef={nameRef}
      onSubmit={async (name) => {
        if (name !== collection.name) await rename.mutateAsync({ id: collection.id, name });
        onClose();
      }}
    />
  );
}

/** Delete, asked first: the models stay (and a public link stops working), or Keep it. */
function DeleteConfirm({
  collection,
  remove,
  keep,
  keepRef,
  onDeleted,
}: {
  collection: Collection;
  remove: ReturnType<typeof useDeleteCollection>;
  keep: () => void;
  keepRef: RefObject<HTMLButtonElement | null>;
  onDeleted: (name: string) => void;
}) {
  const confirmId = useId();
  const confirmDelete = () =>
    remove.mutate(collection.id, { onSuccess: () => onDeleted(collection.name) });
  return (
    <div className="collection-confirm" role="group" aria-labelledby={confirmId}>
      <p id={confirmId}>
        Delete “{collection.name}”? Its {modelCount(collection.count)} stay in your gallery
        {collection.share !== null ? '; its public link stops working' : ''}.
      </p>
      <div className="collection-name__row">
        <button
          type="button"
          className="small danger"
          onClick={confirmDelete}
          disabled={remove.isPending}
        >
          {remove.isPending ? 'Deleting…' : 'Delete collection'}
        </button>
        <button
          type="button"
          className="small"
          ref={keepRef}
          onClick={keep}
          disabled={remove.isPending}
        >
          Keep it
        </button>
      </div>
      {remove.isError && (
        <p className="error small" role="alert">
          Could not delete it: {describeError(remove.error).message}
        </p>
      )}
    </div>
  );
}

/**
 * The gallery's heading while it shows one collection: "All models" (back to every model, the
 * other filters kept), the collection's name and size, and what can be done to it: Rename (the
 * heading becomes a field), Download as zip, Share (its public page), Delete (asked first; the
 * models stay). `headingRef` is the page's <h1>, which the grid's keys send focus back to.
 */
export function CollectionHead({
  collection,
  headingRef,
  onAllModels,
  onDeleted,
}: {
  collection: Collection;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onAllModels: () => void;
  /** The collection is gone: the page leaves it (and says so). */
  onDeleted: (name: string) => void;
}) {
  const remove = useDeleteCollection();
  const { renaming, renameRef, nameRef, open: openRename, close: closeRename } = useRenaming();
  const [sharing, setSharing] = useState(false);
  const { zip, download } = useZipDownload((options) =>
    downloadCollectionZip(collection.id, options),
  );
  const { confirming, ask, keep, askRef: deleteRef, keepRef } = useAskFirst(() => remove.reset());
  const shared = collection.share !== null;

  return (
    <div className="collection-head">
      <button
        type="button"
        className="link-button small collection-head__back"
        onClick={onAllModels}
      >
        <span aria-hidden="true">←</span> All models
      </button>
      <CollectionTitle
        collection={collection}
        headingRef={headingRef}
        renaming={renaming}
        nameRef={nameRef}
        onClose={closeRename}
      />
      <div className="collection-head__actions" role="group" aria-label="This collection">
        <button
          type="button"
          className="small"
          ref={renameRef}
          onClick={openRename}
          disabled={renaming}
          aria-label="Rename collection"
        >
          Rename
        </button>
        <button
          type="button"
          className="small"
          onClick={() => void download()}
          disabled={collection.count === 0 || zip.state === 'busy'}
          title={collection.count === 0 ? 'Nothing in this collection yet' : undefined}
        >
          {zip.state === 'busy'
            ? `Preparing zip…${zip.bytes > 0 ? ` ${formatBytes(zip.bytes)}` : ''}`
            : 'Download as zip'}
        </button>
        <button
          type="button"
          className="small"
          aria-haspopup="dialog"
          data-shared={shared || undefined}
          onClick={() => setSharing(true)}
          aria-label={shared ? 'Shared collection: link and stop sharing' : 'Share collection'}
        >
          {shared ? 'Shared' : 'Share'}
        </button>
        {!confirming && (
          <button type="button" className="small danger" ref={deleteRef} onClick={ask}>
            Delete…
          </button>
        )}
      </div>
      {confirming && (
        <DeleteConfirm
          collection={collection}
          remove={remove}
          keep={keep}
          keepRef={keepRef}
          onDeleted={onDeleted}
        />
      )}
      {zip.state === 'failed' && (
        <p className="error small" role="alert">
          The zip could not be made: {zip.message}
        </p>
      )}
      {sharing &&
        createPortal(
          <Suspense fallback={null}>
            <CollectionShareDialog collection={collection} onClose={() => setSharing(false)} />
          </Suspense>,
          document.body,
        )}
    </div>
  );
}
