// The Turntable dialog's fields (format, length, size, background) and its progress, each with
// the state it shows given by the dialog.
import { useId, type ReactNode, type RefObject } from 'react';
import { formatBytes } from '../../../../formats/index.ts';
import { GIF_LIMIT_BYTES } from './gif-budget.ts';
import type { Progress } from './make-turntable.ts';
import {
  FORMAT_IDS,
  LENGTH,
  SIZE_IDS,
  SIZES,
  type BackgroundChoice,
  type Format,
  type SizeId,
} from './options.ts';
import {
  backgroundAvailability,
  formatAvailability,
  formatLabel,
  type Support,
} from './support.ts';

const BACKGROUNDS: { id: BackgroundChoice; label: string }[] = [
  { id: 'stage', label: 'The stage, as seen' },
  { id: 'colour', label: 'A colour' },
  { id: 'transparent', label: 'Transparent' },
];

/** A radio button with its label, and why it cannot be chosen when it cannot. */
function Choice({
  name,
  value,
  checked,
  reason = null,
  onChoose,
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  reason?: string | null;
  onChoose: () => void;
  children: ReactNode;
}) {
  return (
    <label className="turntable-dialog__choice">
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={reason !== null}
        onChange={onChoose}
      />
      <span>
        {children}
        {reason && <span className="muted small"> — {reason}</span>}
      </span>
    </label>
  );
}

export function FormatField({
  support,
  format,
  onFormat,
}: {
  support: Support;
  format: Format;
  onFormat: (format: Format) => void;
}) {
  return (
    <fieldset>
      <legend>Format</legend>
      {FORMAT_IDS.map((f) => (
        <Choice
          key={f}
          name="format"
          value={f}
          checked={format === f}
          reason={formatAvailability(support, f)}
          onChoose={() => onFormat(f)}
        >
          {formatLabel(support, f)}
        </Choice>
      ))}
    </fieldset>
  );
}

export function LengthField({
  text,
  error,
  inputRef,
  onText,
}: {
  text: string;
  /** What is wrong with `text`, said at the field. */
  error: string | null;
  inputRef: RefObject<HTMLInputElement | null>;
  onText: (text: string) => void;
}) {
  const id = useId();
  const errorId = useId();
  return (
    <div className="turntable-dialog__length">
      <label htmlFor={id}>Length (seconds, {`${LENGTH.min}–${LENGTH.max}`})</label>
      <input
        id={id}
        ref={inputRef}
        type="number"
        inputMode="numeric"
        min={LENGTH.min}
        max={LENGTH.max}
        step={1}
        value={text}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => onText(e.target.value)}
      />
      {error && (
        <p id={errorId} className="turntable-dialog__error">
          {error}
        </p>
      )}
    </div>
  );
}

export function SizeField({
  size,
  gif,
  onSize,
}: {
  size: SizeId;
  /** The format is the GIF (which is smaller: said here). */
  gif: boolean;
  onSize: (size: SizeId) => void;
}) {
  return (
    <fieldset>
      <legend>Size</legend>
      {SIZE_IDS.map((s) => (
        <Choice key={s} name="size" value={s} checked={size === s} onChoose={() => onSize(s)}>
          {SIZES[s].label}
        </Choice>
      ))}
      {gif && (
        <p className="muted small">
          The GIF is smaller, for chat apps: 480 pixels on its longer side in these proportions, 15
          frames a second (less if needed to stay under {formatBytes(GIF_LIMIT_BYTES)}).
        </p>
      )}
    </fieldset>
  );
}

export function BackgroundField({
  support,
  format,
  background,
  colour,
  onBackground,
  onColour,
}: {
  support: Support;
  format: Format;
  background: BackgroundChoice;
  colour: string;
  onBackground: (background: BackgroundChoice) => void;
  onColour: (colour: string) => void;
}) {
  return (
    <fieldset>
      <legend>Background</legend>
      {BACKGROUNDS.map((b) => (
        <Choice
          key={b.id}
          name="background"
          value={b.id}
          checked={background === b.id}
          reason={backgroundAvailability(support, format, b.id)}
          onChoose={() => onBackground(b.id)}
        >
          {b.label}
        </Choice>
      ))}
      {background === 'colour' && (
        <label className="turntable-dialog__colour">
          <span>Background colour</span>
          <input type="color" value={colour} onChange={(e) => onColour(e.target.value)} />
        </label>
      )}
    </fieldset>
  );
}

/** The progress bar of a turn being made, with its frame (and why a GIF is made again). */
export function TurntableProgress({ progress }: { progress: Progress | null }) {
  const percent = progress ? Math.round(progress.fraction * 100) : 0;
  return (
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
  );
}
