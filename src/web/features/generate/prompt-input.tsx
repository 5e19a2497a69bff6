import { useEffect, useId, useRef, useState } from 'react';
import { LIMITS } from '../../../contract/index.ts';
import { useInfo } from '../../api/account.ts';
import { usePromptCheck } from '../../api/tasks.ts';

/** How long typing must pause before the prompt is checked. */
const CHECK_AFTER_MS = 400;

/** `value`, once it has stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

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
  const textarea = useRef<HTMLTextAreaElement>(null);
  const over = value.length > LIMITS.maxPromptLength;
  const shown =
    error ??
    (over
      ? `The prompt is ${value.length - LIMITS.maxPromptLength} characters too long.`
      : undefined);
  // Mock mode only: what the demo generator makes of the prompt, said before Generate. The check
  // never blocks Generate; when it fails or is slow, nothing is said.
  const mock = useInfo().data?.mode === 'mock';
  const settled = useSettled(value.trim(), CHECK_AFTER_MS);
  const check = usePromptCheck(settled, mock);
  const said = mock && value.trim() !== '' && !over ? check.data : undefined;
  const pick = (example: string) => {
    onChange(example);
    textarea.current?.focus();
  };
  return (
    <div className="field">
      <label htmlFor={id}>Prompt</label>
      <textarea
        ref={textarea}
        id={id}
        name="prompt"
        rows={4}
        value={value}
        placeholder="A glazed ceramic teapot with a bamboo handle"
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={shown ? true : undefined}
        aria-describedby={`${id}-count${shown ? ` ${id}-error` : ''}${said ? ` ${id}-known` : ''}`}
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
      {mock && (
        <div
          className={`prompt-check${said && !said.known ? ' unknown' : said?.approximate ? ' approximate' : ''}`}
        >
          <p
            id={`${id}-known`}
            className={said?.known && !said.approximate ? 'muted small' : 'small'}
            role="status"
            data-testid="prompt-check"
          >
            {said?.message ?? ''}
          </p>
          {said && (!said.known || said.approximate) && (
            <div className="prompt-examples">
              <span className="small">Try one it knows:</span>
              <ul>
                {said.examples.slice(0, 4).map((example) => (
                  <li key={example}>
                    <button type="button" className="small" onClick={() => pick(example)}>
                      {example}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
