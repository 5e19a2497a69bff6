import { useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { LibraryEntry } from '../../../contract/index.ts';
import { useCollectionMembers, useCollections } from '../../api/collections.ts';
import { describeError } from '../../lib/describe-error.ts';
import { modelCount, type Added } from '../collections/index.ts';
import { withoutCollection, type LibraryFilters } from './gallery-filters.ts';

/** What the gallery says about collections last, and the collection it offers to show. */
export interface CollectionNotice {
  message: string;
  /** "Show “Chairs”": the collection the models went into (not when it is shown already). */
  show?: { id: string; name: string };
}

/**
 * The gallery's collection (decision 0087): the one the address shows (`?collection=`), or that
 * it is missing (deleted, or another key's); the owner's collections for the filter; leaving it
 * ("All models", or once deleted); and the selection's "Add to collection…" and "Remove from
 * collection", each announced. Focus goes to the page's heading when the collection shown goes.
 */
export function useGalleryCollection(
  filters: LibraryFilters,
  changeFilters: (next: LibraryFilters, typing: boolean) => void,
  headingRef: RefObject<HTMLHeadingElement | null>,
) {
  const collections = useCollections();
  const members = useCollectionMembers();
  const [notice, setNotice] = useState<CollectionNotice | null>(null);
  const id = filters.collection;
  const collection = id ? collections.data?.find((c) => c.id === id) : undefined;
  const missing = id !== '' && collections.data !== undefined && collection === undefined;

  const say = (next: CollectionNotice) =>
    setNotice((prev) =>
      prev?.message === next.message ? { ...next, message: `${next.message}\u00a0` } : next,
    );

  /** Every model again (the other filters kept); focus on the heading that now says "Gallery". */
  const allModels = () => {
    flushSync(() => changeFilters(withoutCollection(filters), false));
    headingRef.current?.focus();
  };
  const showCollection = (to: string) => {
    flushSync(() => {
      changeFilters({ ...filters, collection: to }, false);
      setNotice(null);
    });
    headingRef.current?.focus();
  };

  const onAdded = ({ collection: into, count }: Added) =>
    say({
      message: `${modelCount(count)} added to “${into.name}”.`,
      ...(into.id === id ? {} : { show: { id: into.id, name: into.name } }),
    });
  const onDeleted = (name: string) => {
    say({ message: `Collection “${name}” deleted. Its models are still here.` });
    allModels();
  };
  /** Takes the selected models out of the collection shown; the list is read again without them. */
  const removeSelected = (selected: readonly LibraryEntry[], done: () => void) => {
    if (!collection || selected.length === 0) return;
    members.reset();
    members.mutate(
      { id: collection.id, remove: selected.map((e) => e.id) },
      {
        onSuccess: () => {
          flushSync(() => {
            done();
            say({ message: `${modelCount(selected.length)} removed from “${collection.name}”.` });
          });
          headingRef.current?.focus();
        },
      },
    );
  };

  return {
    collections,
    collection,
    missing,
    notice,
    allModels,
    showCollection,
    onAdded,
    onDeleted,
    removeSelected,
    removing: members.isPending,
    removeError: members.isError ? describeError(members.error).message : null,
  };
}
