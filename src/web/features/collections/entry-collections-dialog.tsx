import { useState } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import { useCollectionMembers, useCollections } from '../../api/collections.ts';
import { describeError } from '../../lib/describe-error.ts';
import { usePathname, useSearch } from '../../lib/router.ts';
import { modelCount } from './collection-name.ts';
import { Modal } from '../../ui/modal.tsx';
import './collections.css';
import { collectionsNotRead } from './collections-not-read.tsx';
import { NewCollectionField } from './name-field.tsx';

/** What the collections dialog of one model needs: which, its collections, what to call it. */
export interface EntryTarget {
  entry: Pick<LibraryEntry, 'id' | 'collections'>;
  /** "Granny’s teapot", "“a red vase”", "chair.png". */
  title: string;
}

/**
 * The collections one model sits in: a checkbox per collection (ticking adds it, unticking
 * removes it, at once), and a new collection by name, which it goes into. Loaded when a
 * "Collections" button is first pressed.
 */
export default function EntryCollectionsDialog({
  target,
  onClose,
}: {
  target: EntryTarget;
  onClose: () => void;
}) {
  const collections = useCollections();
  const members = useCollectionMembers();
  const id = target.entry.id;
  // What this dialog changed, over what the entry said when it opened (the entry is read again
  // after each change, and may arrive later than the next click).
  const [changed, setChanged] = useState<ReadonlyMap<string, boolean>>(new Map());
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  // The collection the gallery shows, if it shows one: a model taken out of it leaves the page.
  const pathname = usePathname();
  const search = useSearch();
  const shown = pathname === '/gallery' ? new URLSearchParams(search).get('collection') : null;
  const inIt = (cid: string) => changed.get(cid) ?? (target.entry.collections ?? []).includes(cid);

  const say = (message: string) =>
    setStatus((prev) => (prev === message ? `${message}\u00a0` : message));

  const put = async (cid: string, name: string, on: boolean) => {
    setFailure(null);
    setPending((p) => new Set([...p, cid]));
    setChanged((c) => new Map([...c, [cid, on]]));
    try {
      await members.mutateAsync(on ? { id: cid, add: [id] } : { id: cid, remove: [id] });
      say(
        on
          ? `Added to “${name}”.`
          : cid === shown
            ? `Removed from “${name}”: it has left the collection shown, so its card leaves the gallery. Tick it again to put it back.`
            : `Removed from “${name}”.`,
      );
    } catch (err) {
      setChanged((c) => new Map([...c, [cid, !on]]));
      setFailure(
        `Could not ${on ? 'add it to' : 'remove it from'} “${name}”: ${describeError(err).message}`,
      );
    } finally {
      setPending((p) => new Set([...p].filter((x) => x !== cid)));
    }
  };

  const list = collections.data ?? [];

  return (
    <Modal
      title={<>Collections of {target.title}</>}
      intro="Tick the collections this model belongs in. A model may sit in several; taking it out of one never deletes it."
      onClose={onClose}
      testId="entry-collections-dialog"
    >
      <>
        {collectionsNotRead(collections) ??
          (list.length === 0 ? (
            <p className="muted">
              No collections yet. Name the first one below: this model goes in it.
            </p>
          ) : (
            <fieldset className="collection-checks">
              <legend>In these collections</legend>
              <ul>
                {list.map((c) => (
                  <li key={c.id}>
                    <label>
                      <input
                        type="checkbox"
                        checked={inIt(c.id)}
                        disabled={pending.has(c.id)}
                        onChange={(e) => void put(c.id, c.name, e.target.checked)}
                      />
                      <span className="collection-checks__name">{c.name}</span>
                      <span className="muted small">{modelCount(c.count)}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          ))}
        {failure && (
          <p className="error small" role="alert">
            {failure}
          </p>
        )}
        <NewCollectionField list={list} onMade={(made) => put(made.id, made.name, true)} />
        <p className="modal__status small" role="status">
          {status}
        </p>
      </>
    </Modal>
  );
}
