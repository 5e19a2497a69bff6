import { useState } from 'react';
import type { Collection, LibraryEntry } from '../../../contract/index.ts';
import { useCollectionMembers, useCollections, useShareCollection } from '../../api/collections.ts';
import { Modal } from '../../ui/modal.tsx';
import CollectionShareDialog from './collection-share-dialog.tsx';
import { modelCount } from './collection-name.ts';
import { NewCollectionField } from './name-field.tsx';
import './collections.css';

/**
 * The gallery selection's "Share N as one page…" (decision 0103): a public link is per model or
 * per collection, so several models are shared as a new collection of them. Named here, it is
 * made, they go in it and its link is made in one step; the dialog then is the collection's own
 * share dialog (copy, open, stop sharing). The collection stays, to rename, add to or delete.
 */
export default function ShareSelectionDialog({
  entries,
  onClose,
}: {
  entries: readonly Pick<LibraryEntry, 'id'>[];
  onClose: () => void;
}) {
  const collections = useCollections();
  const members = useCollectionMembers();
  const share = useShareCollection();
  const [made, setMade] = useState<Collection | null>(null);
  const n = entries.length;

  if (made) return <CollectionShareDialog collection={made} onClose={onClose} />;
  return (
    <Modal
      title={`Share ${modelCount(n)} as one page`}
      intro="A public page of several models is a collection’s page. Name it: Kiln makes a collection of these models and its link, which anyone can open without a key. The collection stays in your gallery, to rename, add to or stop sharing."
      onClose={onClose}
      testId="share-selection-dialog"
    >
      <NewCollectionField
        list={collections.data ?? []}
        label="Name of the page (a new collection)"
        submit="Make the page"
        busyLabel="Making it…"
        onMade={async (collection) => {
          const filled = await members.mutateAsync({
            id: collection.id,
            add: entries.map((e) => e.id),
          });
          const link = await share.mutateAsync(collection.id);
          setMade({
            ...filled,
            share: { url: link.url, created_ms: link.created_ms, embed_html: link.embed_html },
          });
        }}
      />
    </Modal>
  );
}
