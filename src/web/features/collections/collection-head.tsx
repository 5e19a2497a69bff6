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
  const collections = useCollections();
  const rename = useRenameCollection();
  const remove = useDeleteCollection();
  const [renaming, setRenaming] = useState(false);
  const [sharing, setSharing] = useState(false);
  const { zip, download } = useZipDownload((options) =>
    downloadCollectionZip(collection.id, options),
  );
  const { confirming, ask, keep, askRef: deleteRef, keepRef } = useAskFirst(() => remove.reset());
  const renameRef = useRef<HTMLButtonElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const confirmId = useId();

  const closeRename = () => {
    flushSync(() => setRenaming(false));
    renameRef.current?.focus();
  };

  const confirmDelete = () =>
    remove.mutate(collection.id, { onSuccess: () => onDeleted(collection.name) });

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
      {renaming ? (
        <NameField
          label="Collection name"
          submit="Save"
          busyLabel="Saving…"
          initial={collection.name}
          existing={collections.data ?? []}
          self={collection.id}
          onCancel={closeRename}
          inputRef={nameRef}
          onSubmit={async (name) => {
            if (name !== collection.name) await rename.mutateAsync({ id: collection.id, name });
            closeRename();
          }}
        />
      ) : (
        <div className="collection-head__title">
          <p className="collection-head__kicker muted small">Collection</p>
          <h1 ref={headingRef} tabIndex={-1}>
            {collection.name}
          </h1>
          <span className="muted">{modelCount(collection.count)}</span>
        </div>
      )}
      <div className="collection-head__actions" role="group" aria-label="This collection">
        <button
          type="button"
          className="small"
          ref={renameRef}
          onClick={() => {
            // The button is disabled while the field shows: focus goes into the field (issue 32),
            // not to the page.
            flushSync(() => setRenaming(true));
            nameRef.current?.focus();
            nameRef.current?.select();
          }}
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
        <div className="collection-confirm" role="group" aria-labelledby={confirmId}>
          <p id={confirmId}>
            Delete “{collection.name}”? Its {modelCount(collection.count)} stay in your gallery
            {shared ? '; its public link stops working' : ''}.
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
