import { useState } from 'react';
import type { Collection, LibraryEntry } from '../../../contract/index.ts';
import { useCollectionMembers, useCollections } from '../../api/collections.ts';
import { describeError } from '../../lib/describe-error.ts';
import { modelCount } from './collection-name.ts';
import { Modal } from '../../ui/modal.tsx';
import './collections.css';
import { collectionsNotRead } from './collections-not-read.tsx';
import { NewCollectionField } from './name-field.tsx';

/** What was done, for the bar that opened the dialog to say (and to offer the collection). */
export interface Added {
  collection: Pick<Collection, 'id' | 'name'>;
  count: number;
}

/**
 * The gallery selection's "Add to collection…": the owner's collections, each a button that
 * adds the selected models to it (saying how many are in it already), or a new one by name. It
 * closes once they are in; `onAdded` says where.
 */
export default function AddToCollectionDialog({
  entries,
  onAdded,
  onClose,
}: {
  entries: readonly Pick<LibraryEntry, 'id' | 'collections'>[];
  onAdded: (added: Added) => void;
  onClose: () => void;
}) {
  const collections = useCollections();
  const members = useCollectionMembers();
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const list = collections.data ?? [];
  const n = entries.length;

  const add = async (c: Pick<Collection, 'id' | 'name'>) => {
    setFailure(null);
    await members.mutateAsync({ id: c.id, add: entries.map((e) => e.id) });
    onAdded({ collection: c, count: n });
    setDone(true);
  };
  const pick = (c: Collection) =>
    void add(c).catch((err: unknown) =>
      setFailure(`Could not add them to “${c.name}”: ${describeError(err).message}`),
    );

  return (
    <Modal
      title={`Add ${modelCount(n)} to a collection`}
      intro="Pick a collection, or name a new one. Models already in it stay as they are."
      onClose={onClose}
      testId="add-to-collection-dialog"
      done={done}
    >
      <>
        {collectionsNotRead(collections) ??
          (list.length === 0 ? (
            <p className="muted">No collections yet. Name the first one below.</p>
          ) : (
            <ul className="collection-picks" aria-label="Your collections">
              {list.map((c) => {
                const already = entries.filter((e) => e.collections?.includes(c.id)).length;
                return (
                  <li key={c.id}>
                    <button
                      type="button"
                      className="collection-pick"
                      onClick={() => pick(c)}
                      disabled={members.isPending}
                      aria-label={`Add to ${c.name}`}
                    >
                      <span className="collection-pick__name">{c.name}</span>
                      <span className="muted small">
                        {modelCount(c.count)}
                        {already > 0 &&
                          ` · ${already === n ? (n === 1 ? 'it is' : 'all are') : `${already}`} in it already`}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          ))}
        {failure && (
          <p className="error small" role="alert">
            {failure}
          </p>
        )}
        <NewCollectionField list={list} onMade={add} />
      </>
    </Modal>
  );
}
