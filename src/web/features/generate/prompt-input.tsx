import { useId } from 'react';
import { LIMITS } from '../../../contract/index.ts';

export function PromptInput({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const over = value.length > LIMITS.maxPromptLength;
  const shown =
    error ??
    (over
      ? `The prompt is ${value.length - LIMITS.maxPromptLength} characters too long.`
      : undefined);
  return (
    <div className="field">
      <label htmlFor={id}>Prompt</label>
      <textarea
        id={id}
        name="prompt"
        rows={4}
        value={value}
        placeholder="A glazed ceramic teapot with a bamboo handle"
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={shown ? true : undefined}
        aria-describedby={`${id}-count${shown ? ` ${id}-error` : ''}`}
      />
      <div className="field-foot">
        {shown ? (
          <p id={`${id}-error`} className="error" role="alert">
            {shown}
          </p>
        ) : (
          <span className="muted small">Describe one object: shape, material, colour.</span>
        )}
        <span
          id={`${id}-count`}
          className={`counter${over ? ' error' : ' muted'}`}
          aria-live="polite"
        >
          {value.length.toLocaleString()} / {LIMITS.maxPromptLength.toLocaleString()}
        </span>
      </div>
    </div>
  );
}
