import { Suspense, useCallback, useEffect, useState } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import { useKeepThumbnails } from '../../api/library.ts';
import { LazyModelViewer } from './lazy-model-viewer.ts';

/** Rendered, but off screen and out of the way (set here: the viewer's CSS comes later). */
const OFF_SCREEN = {
  position: 'fixed',
  left: '-10000px',
  top: 0,
  width: '480px',
  height: '360px',
  pointerEvents: 'none',
} as const;

/** How long one model may take to load and be drawn before the next is tried. */
const PER_MODEL_MS = 20_000;

/**
 * Draws the pictures of finished models no browser has shown yet (issue 23: tasks made by a
 * batch, the API or another tab showed only their input until opened once), for the gallery and
 * the batch board: one at a time, in
 * a viewer off screen, each kept on the server as the model's picture, while the gallery is
 * open and the tab is visible. A model that cannot be drawn is left for the next visit.
 */
export default function BackgroundPictures({ entries }: { entries: readonly LibraryEntry[] }) {
  const [tried, setTried] = useState<ReadonlySet<string>>(() => new Set());
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  const keep = useKeepThumbnails();
  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  const next = entries.find(
    (e) => e.archived && e.model_url && !e.thumbnail_url && !tried.has(e.id),
  );
  const done = useCallback((id: string) => setTried((was) => new Set(was).add(id)), []);
  // A model that never settles is given up on, for this visit.
  useEffect(() => {
    if (!next || !visible) return;
    const timer = setTimeout(() => done(next.id), PER_MODEL_MS);
    return () => clearTimeout(timer);
  }, [next, visible, done]);
  if (!next?.model_url || !visible) return null;
  const id = next.id;
  return (
    <div style={OFF_SCREEN} inert data-testid="background-picture">
      <Suspense fallback={null}>
        <LazyModelViewer
          key={id}
          url={next.model_url}
          label="Drawing a picture of a model for the gallery"
          onPicture={(picture) => keep.mutate({ id, picture }, { onSettled: () => done(id) })}
        />
      </Suspense>
    </div>
  );
}
