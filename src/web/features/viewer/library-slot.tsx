// The library's part of /viewer, for signed-in users: a picker of finished models, the name
// of the entry a model opened by address belongs to, and Rename for it (decision 0085). A chunk of its own, loaded beside the
// viewer: it brings the API client and zod, which the viewer itself does not need (a model
// opened without a key, or a file from this device, is shown without them).
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import {
  describeEntries,
  describeEntry,
  originFacts,
  outageListNote,
} from '../../lib/entry-format.ts';
import { glbFileName } from '../../lib/file-name.ts';
import { NO_KEY, useKeyScope } from '../../api/query-keys.ts';
import { entryQuery, useLibrary } from '../../api/library.ts';
import { Renamable } from '../../ui/rename-form.tsx';
import { addressPath } from './address.ts';
import type { Slot, UrlSlot } from './slot.ts';

/**
 * The picked entry's picture beside the picker (a select cannot show images): the model's own
 * when a browser has drawn it, else its input photo, else a mark for a prompt.
 */
function PickedThumb({ entry }: { entry: LibraryEntry | undefined }) {
  if (!entry) return null;
  const src = entry.thumbnail_url ?? entry.images.find((i) => i.upload)?.upload;
  return src ? (
    <img
      className="viewer-slot__thumb"
      src={src}
      // Decorative: the select beside it names the entry.
      alt=""
      width={40}
      height={40}
      data-testid="picked-thumb"
    />
  ) : (
    <span className="viewer-slot__thumb viewer-slot__thumb--text" aria-hidden="true">
      Aa
    </span>
  );
}

function slotFromEntry(entry: LibraryEntry, optimised?: string): Slot {
  return entry.model_url
    ? {
        kind: 'url',
        url: entry.model_url,
        name: glbFileName(entry).replace(/\.glb$/, '') + (optimised ? '-optimised' : ''),
        label: `3D model: ${describeEntry(entry)}${optimised ? `, optimised for ${optimised}` : ''}`,
        taskId: entry.id,
        ...(optimised ? { optimised } : { origin: originFacts(entry) }),
      }
    : { kind: 'none' };
}

/** The option of the model a slot shows that is not one of the listed entries' own copies. */
const SHOWN = '__shown__';

function LibraryPicker({
  id,
  slot,
  shown,
  onPick,
}: {
  id: string;
  slot: Slot;
  /** The entry whose model the slot shows, when known (it may be an optimised copy of it). */
  shown: LibraryEntry | undefined;
  onPick: (slot: Slot) => void;
}) {
  const library = useLibrary();
  const all = (library.data?.pages ?? []).flatMap((p) => p.data);
  const listed = all.filter((e) => e.archived && e.model_url);
  if (library.isPending) return null;
  // Models whose copy waits on Kiln's own store are not offered yet: say why (decision 0095).
  const waitNote = outageListNote(all);
  const waiting = waitNote && (
    <p className="small viewer-slot__waiting" role="note" data-testid="viewer-archive-wait">
      {waitNote}
    </p>
  );
  const url = slot.kind === 'url' ? slot.url : null;
  const optimised = slot.kind === 'url' ? slot.optimised : undefined;
  // The entry shown is always an option, even when it is not on the library's first page.
  const entries = shown && !listed.some((e) => e.id === shown.id) ? [shown, ...listed] : listed;
  if (entries.length === 0)
    return (
      <>
        <span className="muted small">No finished models in your library yet.</span>
        {waiting}
      </>
    );
  // Which option names the model shown: its entry (by id, or by its file's address), or, for an
  // optimised copy, an option of its own.
  const picked =
    optimised || !url
      ? undefined
      : (shown ??
        entries.find((e) => e.model_url && addressPath(e.model_url) === addressPath(url)));
  const value = optimised && shown ? SHOWN : (picked?.id ?? '');
  const labels = describeEntries(entries);
  const picker = (
    <label className="viewer-slot__pick">
      <PickedThumb entry={picked ?? shown} />
      <span>From your library</span>
      <select
        id={id}
        value={value}
        onChange={(e) => {
          const entry = entries.find((x) => x.id === e.target.value);
          if (entry) onPick(slotFromEntry(entry));
        }}
      >
        <option value="" disabled>
          Choose a model…
        </option>
        {optimised && shown && (
          <option value={SHOWN} disabled>
            {`Optimised for ${optimised}: ${describeEntry(shown)}`}
          </option>
        )}
        {entries.map((entry, i) => (
          <option key={entry.id} value={entry.id}>
            {labels[i]}
          </option>
        ))}
      </select>
    </label>
  );
  return waiting ? (
    <>
      {picker}
      {waiting}
    </>
  ) : (
    picker
  );
}

/**
 * The picker, and `onNamed` told the library's name for the model `slot` shows by address (or
 * null when it has none): by the entry the address names (`task=`), or the entry whose file it is.
 */
export default function LibrarySlot({
  id,
  slot,
  onPick,
  onNamed,
}: {
  id: string;
  slot: Slot;
  onPick: (slot: Slot) => void;
  onNamed: (named: UrlSlot | null) => void;
}) {
  const library = useLibrary();
  const url = slot.kind === 'url' ? slot.url : null;
  const taskId = slot.kind === 'url' || slot.kind === 'entry' ? slot.taskId : undefined;
  const optimised = slot.kind === 'url' ? slot.optimised : undefined;
  const { data: byId, isError: missing } = useLibraryEntryIf(taskId);
  // Named by its id alone (a bookmark): opened at the address the library gives it now.
  const resolved = slot.kind === 'entry' && byId?.model_url ? slotFromEntry(byId) : null;
  useEffect(() => {
    if (resolved) onPick(resolved);
  }, [resolved?.kind, byId?.id]); // eslint-disable-line react-hooks/exhaustive-deps
  const byAddress = url
    ? library.data?.pages
        .flatMap((p) => p.data)
        .find((e) => e.model_url && addressPath(e.model_url) === addressPath(url))
    : undefined;
  const entry = taskId ? byId : optimised ? undefined : byAddress;
  useEffect(() => {
    if (!entry || !url) return onNamed(null);
    const named = slotFromEntry(entry, optimised);
    // The label is the entry's; the file stays the one the address names (an optimised copy).
    onNamed(named.kind === 'url' ? { ...named, url } : null);
  }, [entry, url, optimised, onNamed]);
  if (slot.kind === 'entry' && (missing || (byId && !byId.model_url)))
    return (
      <>
        <p className="error small" role="alert" data-testid="viewer-entry-missing">
          {missing
            ? 'This link names a model that is not in your library (deleted, or made with another key).'
            : 'This model is not kept in your library yet: open it again in a moment.'}
        </p>
        <LibraryPicker id={id} slot={slot} shown={undefined} onPick={onPick} />
      </>
    );
  return (
    <>
      {/* The model shown is the entry's own: it can be named here (an optimised copy cannot). */}
      {entry && !optimised && (
        <Renamable entry={entry} className="viewer-slot__rename">
          {null}
        </Renamable>
      )}
      <LibraryPicker id={id} slot={slot} shown={entry} onPick={onPick} />
    </>
  );
}

/** The entry with this id, when there is one to ask for (an error: there is none to read). */
function useLibraryEntryIf(taskId: string | undefined) {
  const scope = useKeyScope();
  return useQuery({
    ...entryQuery(scope, taskId ?? ''),
    enabled: Boolean(taskId) && scope !== NO_KEY,
  });
}
