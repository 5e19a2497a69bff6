// "STL for slicers…": asks the printed height (as Optimise → 3D print does, with its default and
// limits) before the file is made, and says how tall the model would be at its file's own scale.
import { useId, useRef, useState, type FormEvent } from 'react';
import { PRINT_DEFAULT_HEIGHT_MM, PrintHeightMmSchema } from '../../../contract/index.ts';
import { Modal } from '../../ui/modal.tsx';
import { formatCount } from './facts/format-facts.ts';
import { useSave } from './use-save.ts';
import './save-dialog.css';

/** The printed height typed, or the contract's sentence on what is wrong with it. */
function checkPrintHeight(
  text: string,
): { ok: true; heightMm: number } | { ok: false; message: string } {
  const parsed = PrintHeightMmSchema.safeParse(text.trim() === '' ? NaN : Number(text));
  return parsed.success
    ? { ok: true, heightMm: parsed.data }
    : { ok: false, message: parsed.error.issues[0]?.message ?? 'height_mm is not valid.' };
}

export default function StlDialog({
  fileHeightMm,
  onSave,
  onClose,
}: {
  /** How tall the model stands at its file's own scale, in millimetres (null: unknown). */
  fileHeightMm: number | null;
  /** Makes and downloads the file at this height; rejects with what went wrong. */
  onSave: (heightMm: number) => Promise<void>;
  onClose: () => void;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const [text, setText] = useState(String(PRINT_DEFAULT_HEIGHT_MM));
  const { error, setError, saving, done, save } = useSave('The export failed');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const checked = checkPrintHeight(text);
    if (!checked.ok) {
      setError(checked.message);
      inputRef.current?.focus();
      return;
    }
    await save(() => onSave(checked.heightMm));
  };

  return (
    <Modal
      title="STL for slicers"
      intro="A binary STL in millimetres, Z up, centred and resting on the bed at the height you give; width and depth follow."
      onClose={onClose}
      testId="stl-dialog"
      className="save-dialog"
      initialFocus={inputRef}
      doneButton={false}
      done={done}
      onSubmit={(e) => void submit(e)}
    >
      <div className="save-dialog__field">
        <label htmlFor={id}>Printed height (mm)</label>
        <input
          id={id}
          ref={inputRef}
          type="number"
          inputMode="decimal"
          min={1}
          step="any"
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(null);
          }}
        />
        <p id={`${id}-hint`} className="muted small">
          {fileHeightMm === null
            ? 'The same default as Optimise → 3D print.'
            : `At the file's own scale (a glTF metre is 1,000 mm) it would be ${formatCount(Math.round(fileHeightMm))} mm tall.`}
        </p>
        {error && (
          <p id={`${id}-error`} className="error small">
            {error}
          </p>
        )}
      </div>
      <div className="modal__foot">
        <button type="submit" className="primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save STL'}
        </button>
      </div>
    </Modal>
  );
}
