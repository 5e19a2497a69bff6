// "Screenshot (PNG)…": the size (as shown, 1080p, 4K, square) and what is behind the model (the
// stage as seen, or nothing), then Save PNG.
import { useRef, useState, type FormEvent } from 'react';
import { Modal } from '../../ui/modal.tsx';
import {
  SCREENSHOT_SIZES,
  screenshotPixels,
  type ScreenshotBackground,
  type ScreenshotOptions,
  type ScreenshotSizeId,
} from './screenshot.ts';
import { useSave } from './use-save.ts';
import './save-dialog.css';

const BACKGROUNDS: { id: ScreenshotBackground; label: string }[] = [
  { id: 'stage', label: 'The stage, as seen' },
  { id: 'transparent', label: 'Transparent (the model alone)' },
];

export default function ScreenshotDialog({
  shown,
  onSave,
  onClose,
}: {
  /** The view's size on screen, in pixels (what "As shown" is). */
  shown: { width: number; height: number };
  /** Makes and downloads the picture; rejects with what went wrong. */
  onSave: (options: ScreenshotOptions) => Promise<void>;
  onClose: () => void;
}) {
  const saveRef = useRef<HTMLButtonElement>(null);
  const [size, setSize] = useState<ScreenshotSizeId>('shown');
  const [background, setBackground] = useState<ScreenshotBackground>('stage');
  const { error, saving, done, save } = useSave('The screenshot failed');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await save(() => onSave({ size, background }));
  };

  return (
    <Modal
      title="Screenshot"
      intro="A PNG of the model from the camera as it is now, in its look and light."
      onClose={onClose}
      testId="screenshot-dialog"
      className="save-dialog"
      initialFocus={saveRef}
      doneButton={false}
      done={done}
      onSubmit={(e) => void submit(e)}
    >
      <div className="save-dialog__fields">
        <fieldset>
          <legend>Size</legend>
          {SCREENSHOT_SIZES.map((s) => {
            const { width, height } = screenshotPixels(s.id, shown);
            return (
              <label key={s.id} className="save-dialog__choice">
                <input
                  type="radio"
                  name="size"
                  value={s.id}
                  checked={size === s.id}
                  onChange={() => setSize(s.id)}
                />
                <span>
                  {s.label}{' '}
                  <span className="muted small">
                    {width} × {height}
                  </span>
                </span>
              </label>
            );
          })}
        </fieldset>
        <fieldset>
          <legend>Background</legend>
          {BACKGROUNDS.map((b) => (
            <label key={b.id} className="save-dialog__choice">
              <input
                type="radio"
                name="background"
                value={b.id}
                checked={background === b.id}
                onChange={() => setBackground(b.id)}
              />
              <span>{b.label}</span>
            </label>
          ))}
        </fieldset>
      </div>
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
      <div className="modal__foot">
        <button type="submit" className="primary" ref={saveRef} disabled={saving}>
          {saving ? 'Saving…' : 'Save PNG'}
        </button>
      </div>
    </Modal>
  );
}
