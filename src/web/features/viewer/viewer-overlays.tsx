import { SHORTCUTS, keyLabel } from './settings.ts';

/** What the stage shows over (or instead of) the canvas, by the viewer's state. */
export function StageOverlays({
  state,
  drawn,
  lost,
  percent,
  dragging,
  onOpen,
  onRetry,
}: {
  state: 'empty' | 'loading' | 'ready' | 'error' | 'lost';
  /** The model is on screen: nothing covers it while its view settles. */
  drawn: boolean;
  lost: 'lost' | 'gone' | null;
  /** Download progress, when known. */
  percent: number | null;
  dragging: boolean;
  /** Opens a file from this device; none where files are not opened (a share page). */
  onOpen?: (() => void) | undefined;
  onRetry: () => void;
}) {
  return (
    <>
      {state === 'empty' && onOpen && (
        <div className="model-viewer__overlay model-viewer__empty">
          <p>Drop a .glb file here to inspect it.</p>
          <button type="button" className="primary small" onClick={onOpen}>
            Open a .glb file…
          </button>
        </div>
      )}
      {state === 'lost' && (
        <div className="model-viewer__overlay model-viewer__lost" role="status">
          {lost === 'gone' ? (
            <>
              <p>The 3D view stopped: the browser took back its graphics context.</p>
              <button type="button" className="small" onClick={onRetry}>
                Restart the 3D view
              </button>
            </>
          ) : (
            <p>The graphics context was lost. Restoring the 3D view…</p>
          )}
        </div>
      )}
      {state === 'loading' && !drawn && (
        <div className="model-viewer__overlay model-viewer__loading">
          {/* The live region says "Loading model…" once; the figure is for the eyes. */}
          <p role="status">
            {percent !== null && percent >= 100 ? (
              'Preparing the model…'
            ) : (
              <>
                Loading model…
                <span aria-hidden="true">{percent === null ? '' : ` ${percent}%`}</span>
              </>
            )}
          </p>
          <div
            className="progress"
            role="progressbar"
            aria-label="Model download"
            aria-valuemin={0}
            aria-valuemax={100}
            {...(percent === null ? {} : { 'aria-valuenow': percent })}
          >
            <span
              className={percent === null ? 'indeterminate' : undefined}
              style={{ width: `${percent ?? 30}%` }}
            />
          </div>
        </div>
      )}
      {dragging && (
        <div className="model-viewer__overlay model-viewer__dropping" aria-hidden="true">
          <p>Drop the .glb to inspect it</p>
        </div>
      )}
    </>
  );
}

/** The loading failed: why, and Try again. */
export function ErrorOverlay({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="model-viewer__overlay model-viewer__error" role="alert">
      <p>The model could not be loaded: {message}</p>
      <button type="button" className="small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/** The keyboard shortcuts, as a dialog over the stage. */
export function HelpDialog({ id, onClose }: { id: string; onClose: () => void }) {
  return (
    <div
      className="model-viewer__help"
      role="dialog"
      aria-labelledby={id}
      data-testid="viewer-help"
    >
      <div className="model-viewer__help-head">
        <h3 id={id}>Keyboard shortcuts</h3>
        <button type="button" className="small" onClick={onClose}>
          Close
        </button>
      </div>
      <dl>
        {SHORTCUTS.map((s) => (
          <div key={s.label}>
            <dt>
              {s.keys.map((k) => (
                <kbd key={k}>{keyLabel(k)}</kbd>
              ))}
            </dt>
            <dd>{s.label}</dd>
          </div>
        ))}
        <div>
          <dt>
            <kbd>Esc</kbd>
          </dt>
          <dd>Close this help</dd>
        </div>
      </dl>
      <p className="muted small">Shortcuts work while the viewer has focus (click it).</p>
    </div>
  );
}
