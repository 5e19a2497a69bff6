// /viewer: inspect any GLB (one from the library, a same-origin URL, or a file from this device),
// or two side by side with linked cameras. Works without an API key for local files.
//   /viewer?task=task_…                  one model of the library, by its id
//   /viewer?a_task=…&b_task=…            two, compared
//   /viewer?src=/api/assets/….glb        one model by address (a=…&b=… to compare)
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useApiKey } from '../../lib/key-store.ts';
import { modelQuery, originQuery, sameOriginPath } from './address.ts';
import { CameraLink } from './camera-link.ts';
import { LazyModelViewer } from './index.ts';
import { slotFromQuery, type Slot, type UrlSlot } from './slot.ts';
import './viewer-page.css';

const LibrarySlot = lazy(() => import('./library-slot.tsx'));

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
  const url = slot.kind === 'url' ? slot.url : slot.kind === 'file' ? slot.file.url : null;
  // A model opened by address is named after its library entry when it has one.
  const [fromLibrary, setFromLibrary] = useState<UrlSlot | null>(null);
  const named = slot.kind === 'url' && fromLibrary?.url === slot.url ? fromLibrary : slot;
  const shown =
    named.kind === 'url'
      ? named.label
      : named.kind === 'file'
        ? named.file.name
        : named.kind === 'entry'
          ? signedIn
            ? 'Opening it from your library…'
            : 'A model from a library: enter its key to open it'
          : 'No model yet';
  return (
    <section className="viewer-slot" aria-label={title}>
      <div className="viewer-slot__head">
        <h2>{title}</h2>
        <span className="viewer-slot__name" data-testid="slot-name" title={shown}>
          {shown}
        </span>
        {named.kind === 'url' && named.origin && (
          <span className="viewer-slot__origin small muted" data-testid="slot-origin">
            {named.origin.map((f) => f.value).join(' · ')}
          </span>
        )}
        {signedIn && (
          <Suspense fallback={null}>
            <LibrarySlot
              id={`${title}-pick`}
              slot={slot}
              onPick={onChange}
              onNamed={setFromLibrary}
            />
          </Suspense>
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
          turntable
          origin={named.kind === 'url' ? named.origin : undefined}
          {...(link ? { cameraLink: link } : {})}
        />
      </Suspense>
    </section>
  );
}

export default function ViewerPage() {
  const key = useApiKey();
  const query = useMemo(() => modelQuery(location.search), []);
  const origin = useMemo(() => originQuery(location.search), []);
  const [a, setA] = useState<Slot>(() => slotFromQuery(query.a, origin.a, Boolean(key)));
  const [b, setB] = useState<Slot>(() => slotFromQuery(query.b, origin.b, Boolean(key)));
  const [compare, setCompare] = useState(() => query.b !== null || origin.b.taskId !== null);
  const [linked, setLinked] = useState(true);
  const [link] = useState(() => new CameraLink());
  useEffect(() => {
    link.setEnabled(linked);
  }, [link, linked]);
  const rejected = [query.a, query.b].filter((v) => v !== null && !sameOriginPath(v));

  useEffect(() => {
    document.title = 'Viewer · Kiln';
  }, []);

  // The viewer is this page's content: a shortcut pressed with nothing focused (`?` for the
  // help, the looks, the camera keys) goes to the first viewer, which takes the focus.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const active = document.activeElement;
      if (active && active !== document.body) return;
      if (event.ctrlKey || event.metaKey || event.altKey || event.key === 'Tab') return;
      const viewer = document.querySelector<HTMLElement>('[data-testid="model-viewer"]');
      if (!viewer) return;
      viewer.focus();
      const forwarded = new KeyboardEvent('keydown', {
        key: event.key,
        code: event.code,
        shiftKey: event.shiftKey,
        bubbles: true,
        cancelable: true,
      });
      if (!viewer.dispatchEvent(forwarded)) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
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
