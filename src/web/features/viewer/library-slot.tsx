// The library's part of /viewer, for signed-in users: a picker of finished models, and the name
// of the entry a model opened by address belongs to. A chunk of its own, loaded beside the
// viewer: it brings the API client and zod, which the viewer itself does not need (a model
// opened without a key, or a file from this device, is shown without them).
import { useEffect } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import { describeEntries, describeEntry } from '../../lib/entry-format.ts';
import { glbFileName } from '../../lib/file-name.ts';
import { useLibrary } from '../../api/library-query.ts';
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

export function slotFromEntry(entry: LibraryEntry): Slot {
  return entry.model_url
    ? {
        kind: 'url',
        url: entry.model_url,
        name: glbFileName(entry).replace(/\.glb$/, ''),
        label: `3D model: ${describeEntry(entry)}`,
      }
    : { kind: 'none' };
}

function LibraryPicker({
  id,
  value,
  onPick,
}: {
  id: string;
  value: string | null;
  onPick: (slot: Slot) => void;
}) {
  const library = useLibrary();
  const entries = (library.data?.pages ?? [])
    .flatMap((p) => p.data)
    .filter((e) => e.archived && e.model_url);
  if (library.isPending) return null;
  if (entries.length === 0)
    return <span className="muted small">No finished models in your library yet.</span>;
  const picked = entries.find((e) => e.model_url === value);
  const labels = describeEntries(entries);
  return (
    <label className="viewer-slot__pick">
      <PickedThumb entry={picked} />
      <span>From your library</span>
      <select
        id={id}
        value={value ?? ''}
        onChange={(e) => {
          const entry = entries.find((x) => x.model_url === e.target.value);
          if (entry) onPick(slotFromEntry(entry));
        }}
      >
        <option value="" disabled>
          Choose a model…
        </option>
        {entries.map((entry, i) => (
          <option key={entry.id} value={entry.model_url ?? ''}>
            {labels[i]}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The picker, and `onNamed` told the library's name for the model `slot` shows by address (or
 * null when it has none).
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
  const entry = url
    ? library.data?.pages.flatMap((p) => p.data).find((e) => e.model_url === url)
    : undefined;
  useEffect(() => {
    const named = entry ? slotFromEntry(entry) : null;
    onNamed(named?.kind === 'url' ? named : null);
  }, [entry, onNamed]);
  return <LibraryPicker id={id} value={url} onPick={onPick} />;
}
