// The Turntable dialog: format, length, size and background, then Start, a progress bar and
// Cancel; the file is downloaded when done. A modal <dialog>: Escape or Close also cancels a turn
// under way, and focus goes back to the viewer. Loaded (with the muxer) when first opened.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { formatBytes } from '../../../../formats/index.ts';
import { saveBlob } from '../../../lib/save-blob.ts';
import { Modal } from '../../../ui/modal.tsx';
import type { TurntableStage } from '../view-handle.ts';
import { stageBackdrop, type Backdrop } from './backdrop.ts';
import { GIF_LIMIT_BYTES } from './gif-budget.ts';
import { makeTurntable, type Progress } from './make-turntable.ts';
import {
  FORMAT_IDS,
  LENGTH,
  SIZE_IDS,
  SIZES,
  checkLength,
  turntableFileName,
  type BackgroundChoice,
  type Format,
  type SizeId,
} from './options.ts';
import {
  backgroundAvailability,
  formatAvailability,
  formatLabel,
  probeSupport,
  type Support,
} from './support.ts';
import './turntable.css';

const BACKGROUNDS: { id: BackgroundChoice; label: string }[] = [
  { id: 'stage', label: 'The stage, as seen' },
  { id: 'colour', label: 'A colour' },
  { id: 'transparent', label: 'Transparent' },
];

type Phase =
  | { kind: 'idle' }
  | { kind: 'running'; progress: Progress | null }
  | { kind: 'done'; message: string }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

export default function TurntableDialog({
  stage,
  viewer,
  sceneColour,
  fileBase,
  onClose,
}: {
  /** The scene to turn (null until the view is drawn). */
  stage: () => TurntableStage | null;
  /** The viewer's element (its stage's colours are read from it). */
  viewer: () => HTMLElement | null;
  /** The scene's background colour; null: transparent over the page's stage. */
  sceneColour: string | null;
  /** The model's download name, without extension. */
  fileBase: string;
  onClose: () => void;
}) {
  const lengthRef = useRef<HTMLInputElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const abort = useRef<AbortController | null>(null);
  const lengthId = useId();
  const lengthErrorId = useId();
  const [support, setSupport] = useState<Support | null>(null);
  const [format, setFormat] = useState<Format>('webm');
  const [lengthText, setLengthText] = useState(String(LENGTH.initial));
  const [lengthError, setLengthError] = useState<string | null>(null);
  const [size, setSize] = useState<SizeId>('720p');
  const [chosenBackground, setBackground] = useState<BackgroundChoice>('stage');
  const [colour, setColour] = useState('#3d5a80');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const running = phase.kind === 'running';

  useEffect(() => {
    let live = true;
    probeSupport().then(
      (found) => {
        if (!live) return;
        setSupport(found);
        // The first format this browser makes.
        setFormat((f) => (formatAvailability(found, f) ? 'gif' : f));
      },
      () => live && setSupport({ webCodecs: false, webm: null, mp4: false, webmAlpha: false }),
    );
    return () => {
      live = false;
      abort.current?.abort();
    };
  }, []);

  // A format that cannot keep the chosen background shows the stage instead.
  const background =
    support && backgroundAvailability(support, format, chosenBackground)
      ? 'stage'
      : chosenBackground;

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (!support || running) return;
    const length = checkLength(lengthText);
    if (!length.ok) {
      setLengthError(length.message);
      lengthRef.current?.focus();
      return;
    }
    setLengthError(null);
    const scene = stage();
    if (!scene) {
      setPhase({ kind: 'failed', message: 'The view is not drawn yet: try again in a moment.' });
      return;
    }
    const element = viewer();
    const backdrop: Backdrop =
      background === 'stage'
        ? element
          ? stageBackdrop(element, sceneColour)
          : { kind: 'colour', colour: sceneColour ?? '#ffffff' }
        : background === 'colour'
          ? { kind: 'colour', colour }
          : { kind: 'none' };
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'running', progress: null });
    // Focus moves to Cancel, which takes Start's place.
    requestAnimationFrame(() => cancelRef.current?.focus());
    try {
      const blob = await makeTurntable(
        scene,
        { format, seconds: length.seconds, size, background, colour },
        backdrop,
        support,
        {
          signal: controller.signal,
          onProgress: (progress) => setPhase({ kind: 'running', progress }),
        },
      );
      if (controller.signal.aborted) throw new DOMException('cancelled', 'AbortError');
      const name = turntableFileName(fileBase, format);
      saveBlob(blob, name);
      setPhase({ kind: 'done', message: `Saved ${name} (${formatBytes(blob.size)}).` });
    } catch (e) {
      if (controller.signal.aborted || (e instanceof DOMException && e.name === 'AbortError'))
        setPhase({ kind: 'cancelled' });
      else
        setPhase({
          kind: 'failed',
          message: `The turntable could not be made: ${e instanceof Error ? e.message : String(e)}`,
        });
    } finally {
      if (abort.current === controller) abort.current = null;
      requestAnimationFrame(() => startRef.current?.focus());
    }
  };

  const cancel = () => abort.current?.abort();

  const progress = phase.kind === 'running' ? phase.progress : null;
  const percent = progress ? Math.round(progress.fraction * 100) : 0;
  const formatReason = (f: Format) => (support ? formatAvailability(support, f) : null);
  const backgroundReason = (b: BackgroundChoice) =>
    support ? backgroundAvailability(support, format, b) : null;

  return (
    // Escape or × also cancels a turn under way; a click outside does not close it.
    <Modal
      title="Turntable"
      intro="One full turn of the model as the viewer shows it (its look, light and camera height), drawn frame by frame: the same settings always give the same frames."
      onClose={onClose}
      testId="turntable-dialog"
      className="turntable-dialog"
      initialFocus={false}
      doneButton={false}
      backdropCloses={false}
      onDismiss={cancel}
      onSubmit={(e) => void start(e)}
    >
      {support === null ? (
        <p className="muted" role="status">
          Checking what this browser can encode…
        </p>
      ) : (
        <fieldset className="turntable-dialog__fields" disabled={running}>
          {!support.webCodecs && (
            <p className="turntable-dialog__note" role="note">
              This browser cannot encode video (it has no WebCodecs): an animated GIF is what it can
              make.
            </p>
          )}
          <fieldset>
            <legend>Format</legend>
            {FORMAT_IDS.map((f) => {
              const reason = formatReason(f);
              return (
                <label key={f} className="turntable-dialog__choice">
                  <input
                    type="radio"
                    name="format"
                    value={f}
                    checked={format === f}
                    disabled={reason !== null}
                    onChange={() => setFormat(f)}
                  />
                  <span>
                    {formatLabel(support, f)}
                    {reason && <span className="muted small"> — {reason}</span>}
                  </span>
                </label>
              );
            })}
          </fieldset>

          <div className="turntable-dialog__length">
            <label htmlFor={lengthId}>Length (seconds, {`${LENGTH.min}–${LENGTH.max}`})</label>
            <input
              id={lengthId}
              ref={lengthRef}
              type="number"
              inputMode="numeric"
              min={LENGTH.min}
              max={LENGTH.max}
              step={1}
              value={lengthText}
              aria-invalid={lengthError !== null}
              aria-describedby={lengthError ? lengthErrorId : undefined}
              onChange={(e) => {
                setLengthText(e.target.value);
                if (lengthError) setLengthError(null);
              }}
            />
            {lengthError && (
              <p id={lengthErrorId} className="turntable-dialog__error">
                {lengthError}
              </p>
            )}
          </div>

          <fieldset>
            <legend>Size</legend>
            {SIZE_IDS.map((s) => (
              <label key={s} className="turntable-dialog__choice">
                <input
                  type="radio"
                  name="size"
                  value={s}
                  checked={size === s}
                  onChange={() => setSize(s)}
                />
                <span>{SIZES[s].label}</span>
              </label>
            ))}
            {format === 'gif' && (
              <p className="muted small">
                The GIF is smaller, for chat apps: 480 pixels on its longer side in these
                proportions, 15 frames a second (less if needed to stay under{' '}
                {formatBytes(GIF_LIMIT_BYTES)}).
              </p>
            )}
          </fieldset>

          <fieldset>
            <legend>Background</legend>
            {BACKGROUNDS.map((b) => {
              const reason = backgroundReason(b.id);
              return (
                <label key={b.id} className="turntable-dialog__choice">
                  <input
                    type="radio"
                    name="background"
                    value={b.id}
                    checked={background === b.id}
                    disabled={reason !== null}
                    onChange={() => setBackground(b.id)}
                  />
                  <span>
                    {b.label}
                    {reason && <span className="muted small"> — {reason}</span>}
                  </span>
                </label>
              );
            })}
            {background === 'colour' && (
              <label className="turntable-dialog__colour">
                <span>Background colour</span>
                <input type="color" value={colour} onChange={(e) => setColour(e.target.value)} />
              </label>
            )}
          </fieldset>
        </fieldset>
      )}

      {running && (
        <div className="turntable-dialog__progress">
          <div
            className="progress"
            role="progressbar"
            aria-label="Turntable progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <span style={{ width: `${percent}%` }} />
          </div>
          <p className="muted small" aria-live="polite">
            {progress?.retry ? `${progress.retry} ` : ''}
            {progress ? `Frame ${progress.frame} of ${progress.frames}` : 'Starting…'}
          </p>
        </div>
      )}
      <p role="status" className="turntable-dialog__status">
        {phase.kind === 'done'
          ? phase.message
          : phase.kind === 'cancelled'
            ? 'Cancelled: nothing was saved.'
            : ''}
      </p>
      {phase.kind === 'failed' && (
        <p role="alert" className="turntable-dialog__error">
          {phase.message}
        </p>
      )}

      <div className="turntable-dialog__actions">
        {running ? (
          <button type="button" ref={cancelRef} onClick={cancel}>
            Cancel
          </button>
        ) : (
          <button type="submit" ref={startRef} className="primary" disabled={support === null}>
            Start
          </button>
        )}
      </div>
    </Modal>
  );
}
