// The Turntable dialog: format, length, size and background, then Start, a progress bar and
// Cancel; the file is downloaded when done. A modal <dialog>: Escape or Close also cancels a turn
// under way, and focus goes back to the viewer. Loaded (with the muxer) when first opened.
import { useRef, useState, type FormEvent } from 'react';
import { Modal } from '../../../ui/modal.tsx';
import type { TurntableStage } from '../view-handle.ts';
import { LENGTH, checkLength, type BackgroundChoice, type SizeId } from './options.ts';
import { backgroundAvailability } from './support.ts';
import {
  BackgroundField,
  FormatField,
  LengthField,
  SizeField,
  TurntableProgress,
} from './turntable-fields.tsx';
import { useTurntableFormat, useTurntableRun, type Phase } from './use-turntable-run.ts';
import './turntable.css';

/** What became of the last turn: saved, cancelled, or why it failed. */
function PhaseMessage({ phase }: { phase: Phase }) {
  return (
    <>
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
    </>
  );
}

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
  const { support, format, setFormat } = useTurntableFormat();
  const [lengthText, setLengthText] = useState(String(LENGTH.initial));
  const [lengthError, setLengthError] = useState<string | null>(null);
  const [size, setSize] = useState<SizeId>('720p');
  const [chosenBackground, setBackground] = useState<BackgroundChoice>('stage');
  const [colour, setColour] = useState('#3d5a80');
  const { phase, run, cancel, cancelRef, startRef } = useTurntableRun({
    stage,
    viewer,
    sceneColour,
    fileBase,
  });
  const running = phase.kind === 'running';

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
    await run({ format, seconds: length.seconds, size, background, colour }, support);
  };

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
          <FormatField support={support} format={format} onFormat={setFormat} />
          <LengthField
            text={lengthText}
            error={lengthError}
            inputRef={lengthRef}
            onText={(text) => {
              setLengthText(text);
              if (lengthError) setLengthError(null);
            }}
          />
          <SizeField size={size} gif={format === 'gif'} onSize={setSize} />
          <BackgroundField
            support={support}
            format={format}
            background={background}
            colour={colour}
            onBackground={setBackground}
            onColour={setColour}
          />
        </fieldset>
      )}

      {running && <TurntableProgress progress={phase.progress} />}
      <PhaseMessage phase={phase} />

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
