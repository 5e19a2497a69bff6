// /viewer: inspect any GLB (one from the library, a same-origin URL, or a file from this device),
// or two side by side with linked cameras. Works without an API key for local files.
//   /viewer?src=/api/assets/….glb        one model
//   /viewer?a=…&b=…                      two models, compared
import { Suspense, useEffect, useMemo, useState } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import { useApiKey } from '../key/key-store.ts';
import { glbFileName } from '../library/file-name.ts';
import { useLibrary } from '../library/library-query.ts';
import { sameOriginPath } from './address.ts';
import { CameraLink } from './camera-link.ts';
import { LazyModelViewer, type LocalFile } from './index.ts';
import './viewer-page.css';

type Slot =
  | { kind: 'none' }
  | { kind: 'url'; url: string; name: string; label: string }
  | { kind: 'file'; file: LocalFile };

function slotFromQuery(value: string | null): Slot {
  const path = sameOriginPath(value);
  if (!path) return { kind: 'none' };
  const file = decodeURIComponent(path.split('/').pop() ?? 'model');
  const name = file.replace(/\.glb$/i, '');
  // Content-addressed names are long hashes: show their start.
  const short = /^[a-f0-9]{64}\.glb$/i.test(file) ? `${file.slice(0, 12)}….glb` : file;
  return { kind: 'url', url: path, name, label: `3D model ${short}` };
}

function describeEntry(entry: LibraryEntry): string {
  const subject = entry.prompt
    ? `“${entry.prompt.length > 40 ? `${entry.prompt.slice(0, 37)}…` : entry.prompt}”`
    : entry.images.length === 1
      ? 'one photo'
      : `${entry.images.length} photos`;
  const day = new Date(entry.created * 1000).toLocaleDateString();
  return `${entry.model} · ${subject} · ${day}`;
}

function slotFromEntry(entry: LibraryEntry): Slot {
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
  return (
    <label className="viewer-slot__pick">
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
        {entries.map((entry) => (
          <option key={entry.id} value={entry.model_url ?? ''}>
            {describeEntry(entry)}
          </option>
        ))}
      </select>
    </label>
  );
}

function SlotView({
  title,
  slot,
  onChange,
  link,
  signedIn,
}: {
  title: string;
  slot: Slot;
  onChange: (slot: Slot) => void;
  link?: CameraLink | undefined;
  signedIn: boolean;
}) {
  // The object URL of a file opened here is this slot's: revoked when replaced or unmounted.
  useEffect(() => {
    if (slot.kind !== 'file') return;
    return () => URL.revokeObjectURL(slot.file.url);
  }, [slot]);
  const library = useLibrary();
  const url = slot.kind === 'url' ? slot.url : slot.kind === 'file' ? slot.file.url : null;
  // A model opened by address is named after its library entry when it has one.
  const entry =
    slot.kind === 'url'
      ? library.data?.pages.flatMap((p) => p.data).find((e) => e.model_url === slot.url)
      : undefined;
  const named = entry ? slotFromEntry(entry) : slot;
  const shown =
    named.kind === 'url' ? named.label : named.kind === 'file' ? named.file.name : 'No model yet';
  return (
    <section className="viewer-slot" aria-label={title}>
      <div className="viewer-slot__head">
        <h2>{title}</h2>
        <span className="viewer-slot__name" data-testid="slot-name">
          {shown}
        </span>
        {signedIn && (
          <LibraryPicker
            id={`${title}-pick`}
            value={slot.kind === 'url' ? slot.url : null}
            onPick={onChange}
          />
        )}
      </div>
      <Suspense fallback={<div className="viewer-placeholder">Loading the viewer…</div>}>
        <LazyModelViewer
          url={url}
          label={slot.kind === 'none' ? `${title}: empty, drop a .glb file` : shown}
          fileName={
            named.kind === 'url'
              ? named.name
              : slot.kind === 'file'
                ? slot.file.name.replace(/\.[^.]+$/, '')
                : 'model'
          }
          onOpenFile={(file) => onChange({ kind: 'file', file })}
          {...(link ? { cameraLink: link } : {})}
        />
      </Suspense>
    </section>
  );
}

export default function ViewerPage() {
  const key = useApiKey();
  const params = useMemo(() => new URLSearchParams(location.search), []);
  const [a, setA] = useState<Slot>(() => slotFromQuery(params.get('a') ?? params.get('src')));
  const [b, setB] = useState<Slot>(() => slotFromQuery(params.get('b')));
  const [compare, setCompare] = useState(() => params.has('b'));
  const [linked, setLinked] = useState(true);
  const [link] = useState(() => new CameraLink());
  useEffect(() => {
    link.setEnabled(linked);
  }, [link, linked]);
  const rejected = [params.get('a') ?? params.get('src'), params.get('b')].filter(
    (v) => v !== null && !sameOriginPath(v),
  );

  useEffect(() => {
    document.title = 'Viewer · Kiln';
  }, []);

  return (
    <main className="page viewer-page">
      <div className="viewer-page__head">
        <h1>Viewer</h1>
        <p className="muted">
          Inspect any GLB: choose one from your library or drop a file from this device. Compare two
          side by side, for example two generations from the same photo.
        </p>
        <div className="viewer-page__options">
          <label>
            <input
              type="checkbox"
              checked={compare}
              onChange={(e) => setCompare(e.target.checked)}
            />{' '}
            Compare side by side
          </label>
          {compare && (
            <label>
              <input
                type="checkbox"
                checked={linked}
                onChange={(e) => setLinked(e.target.checked)}
              />{' '}
              Link cameras
            </label>
          )}
        </div>
        {rejected.length > 0 && (
          <p className="error" role="alert">
            Only models on this site can be opened by address; “{rejected[0]}” was ignored.
          </p>
        )}
      </div>
      <div className={`viewer-page__slots${compare ? ' viewer-page__slots--two' : ''}`}>
        <SlotView
          title={compare ? 'Model A' : 'Model'}
          slot={a}
          onChange={setA}
          link={compare ? link : undefined}
          signedIn={Boolean(key)}
        />
        {compare && (
          <SlotView title="Model B" slot={b} onChange={setB} link={link} signedIn={Boolean(key)} />
        )}
      </div>
    </main>
  );
}
