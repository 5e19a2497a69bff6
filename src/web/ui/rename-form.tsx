// Naming a model (decision 0085): a "Rename" button that turns a title into a field with Save
// and Cancel. Shared UI (decision 0107): the task result, the viewer and the gallery card use it,
// so no feature reaches another for it (the viewer once did through the library, a cycle).
import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { checkModelName, type LibraryEntry } from '../../contract/index.ts';
import { useRenameTask } from '../api/library.ts';
import { describeError } from '../lib/describe-error.ts';
import './rename.css';

/** "name must …" as the field says it: "Name must …". */
const atTheField = (message: string) => message.replace(/^name\b/, 'Name');

/**
 * The field that names a model: its name (empty clears it), Save (or Enter) and Cancel (or
 * Escape). What is wrong with a name is said at the field, before it is sent when the rules
 * can tell (`checkModelName`), else as the server said it. `onClose` follows a save or a cancel;
 * the caller puts focus back where it belongs.
 */
export function RenameForm({
  entry,
  onClose,
  className,
}: {
  entry: Pick<LibraryEntry, 'id' | 'name'>;
  onClose: (saved: boolean) => void;
  className?: string;
}) {
  const rename = useRenameTask();
  const [value, setValue] = useState(entry.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const errorId = useId();

  useLayoutEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, []);

  const save = () => {
    if (rename.isPending) return;
    const checked = checkModelName(value);
    if (!checked.ok) {
      setError(atTheField(checked.message));
      inputRef.current?.focus();
      return;
    }
    if (checked.name === (entry.name ?? null)) {
      onClose(false);
      return;
    }
    setError(null);
    rename.mutate(
      { id: entry.id, name: checked.name, previous: entry.name ?? null },
      {
        onSuccess: () => onClose(true),
        onError: (err) => {
          setError(atTheField(describeError(err).message));
          inputRef.current?.focus();
        },
      },
    );
  };

  return (
    <form
      className={`rename-form${className ? ` ${className}` : ''}`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      onKeyDown={(e) => {
        // Escape cancels here, and nowhere else (not the grid's selection, not a dialog).
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        if (!rename.isPending) onClose(false);
      }}
    >
      <label htmlFor={inputId} className="rename-label">
        Name
      </label>
      <input
        id={inputId}
        ref={inputRef}
        className="rename-input"
        type="text"
        value={value}
        autoComplete="off"
        spellCheck={false}
        placeholder="Name this model"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => {
          setValue(e.target.value);
          if (error) setError(null);
        }}
      />
      <div className="rename-buttons">
        <button type="submit" className="small primary" disabled={rename.isPending}>
          {rename.isPending ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          className="small"
          disabled={rename.isPending}
          onClick={() => onClose(false)}
        >
          Cancel
        </button>
      </div>
      {error && (
        <p id={errorId} className="error small rename-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/**
 * A title that can be renamed: the title (`children`) with a "Rename" button beside it, or, once
 * pressed, the field that names the model. Focus goes to the field, and back to the button when
 * it is closed. Without an entry (not loaded yet), the title alone, in the same place.
 */
export function Renamable({
  entry,
  children,
  label = 'Rename',
  className,
}: {
  entry: Pick<LibraryEntry, 'id' | 'name'> | undefined;
  children: ReactNode;
  /** The button's accessible name. */
  label?: string;
  className?: string;
}) {
  const [editing, setEditing] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const close = () => {
    flushSync(() => setEditing(false));
    buttonRef.current?.focus();
  };
  return (
    <div className={`renamable${className ? ` ${className}` : ''}`}>
      {editing && entry ? (
        <RenameForm entry={entry} onClose={close} />
      ) : (
        <>
          {children}
          {entry && (
            <button
              type="button"
              ref={buttonRef}
              className="small rename-button"
              aria-label={label}
              onClick={() => setEditing(true)}
            >
              Rename
            </button>
          )}
        </>
      )}
    </div>
  );
}
