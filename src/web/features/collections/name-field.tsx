import { useId, useRef, useState, type RefObject } from 'react';
import type { Collection } from '../../../contract/index.ts';
import { useCreateCollection } from '../../api/collections.ts';
import { describeError } from '../../lib/describe-error.ts';
import { atTheField, checkCollectionName } from './collection-name.ts';

/**
 * A name for a collection, with its button: checked before it is sent (`checkCollectionName`),
 * then as the server says (a 400 naming `name`, a 409 for a name taken); either is said at the
 * field (`aria-invalid`, described by the message). `onSubmit` sends the checked name and
 * rejects with the server's refusal. Enter submits; the field keeps what was typed on a refusal.
 */
export function NameField({
  label,
  submit,
  busyLabel,
  initial = '',
  existing,
  self,
  onSubmit,
  onCancel,
  inputRef,
}: {
  label: string;
  /** The button's words ("Create and add", "Save"). */
  submit: string;
  /** Its words while the name is on its way. */
  busyLabel: string;
  initial?: string;
  /** The owner's collections, for "already have one called …" before sending. */
  existing: readonly Pick<Collection, 'id' | 'name'>[];
  /** The collection being renamed (its own name is not "taken"). */
  self?: string;
  onSubmit: (name: string) => Promise<unknown>;
  /** Offers Cancel (and Escape) when set. */
  onCancel?: () => void;
  inputRef?: RefObject<HTMLInputElement | null>;
}) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ownRef = useRef<HTMLInputElement>(null);
  const ref = inputRef ?? ownRef;
  const inputId = useId();
  const errorId = useId();

  const send = async () => {
    if (busy) return;
    const checked = checkCollectionName(value, existing, self);
    if (!checked.ok) {
      setError(checked.message);
      ref.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await onSubmit(checked.name);
      setValue('');
    } catch (err) {
      setError(atTheField(describeError(err).message));
      ref.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="collection-name"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !onCancel) return;
        // Escape cancels the field, not the dialog or the page around it.
        e.preventDefault();
        e.stopPropagation();
        if (!busy) onCancel();
      }}
    >
      <label htmlFor={inputId}>{label}</label>
      <div className="collection-name__row">
        <input
          id={inputId}
          ref={ref}
          type="text"
          value={value}
          autoComplete="off"
          spellCheck={false}
          placeholder="Chairs, Client X, Print next…"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setValue(e.target.value);
            if (error) setError(null);
          }}
        />
        <button type="submit" className="primary small" disabled={busy}>
          {busy ? busyLabel : submit}
        </button>
        {onCancel && (
          <button type="button" className="small" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        )}
      </div>
      {error && (
        <p id={errorId} className="error small" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** Makes a collection by name and hands it on (the dialogs then put models in it). */
function useCreateThen(then: (made: Collection) => Promise<unknown> | void) {
  const create = useCreateCollection();
  return async (name: string) => {
    const made = await create.mutateAsync(name);
    await then(made);
  };
}

/** "New collection" in a dialog: Create and add makes it, then puts the model(s) in it. */
export function NewCollectionField({
  list,
  onMade,
  label = 'New collection',
  submit = 'Create and add',
  busyLabel = 'Creating…',
}: {
  list: readonly Collection[];
  onMade: (made: Collection) => Promise<unknown> | void;
  label?: string;
  submit?: string;
  busyLabel?: string;
}) {
  const createAndAdd = useCreateThen(onMade);
  return (
    <NameField
      label={label}
      submit={submit}
      busyLabel={busyLabel}
      existing={list}
      onSubmit={createAndAdd}
    />
  );
}
