import { useEffect, useId, useRef, useState } from 'react';
import { LIMITS } from '../../../contract/index.ts';
import { useInfo } from '../../api/account.ts';
import { usePromptCheck, type PromptCheck } from '../../api/tasks.ts';

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

/** The longest Generate waits for the check of the text as typed before going ahead without it. */
const HOLD_AT_MOST_MS = 5_000;

/** What the demo generator makes of the prompt as typed now, and whether that is still coming. */
export interface PromptVerdictNow {
  /** The verdict on exactly this text (never the one before it while this one is checked). */
  said: PromptCheck | undefined;
  /** The verdict on this text is on its way: Generate waits for it (at most a few seconds). */
  checking: boolean;
}

/**
 * Mock mode only: the demo generator's verdict on `value` (checked once typing pauses), for the
 * prompt field to say and the form to wait for, so Generate never goes ahead while the last
 * text's verdict is on screen. Outside mock mode, for a blank or too long prompt, when the check
 * fails or takes longer than HOLD_AT_MOST_MS: nothing is said and nothing waits.
 */
export function usePromptVerdictNow(value: string): PromptVerdictNow {
  const mock = useInfo().data?.mode === 'mock';
  const text = value.trim();
  const settled = useSettled(text, CHECK_AFTER_MS);
  const check = usePromptCheck(settled, mock);
  const checkable = mock && text !== '' && value.length <= LIMITS.maxPromptLength;
  const said = checkable && settled === text && !check.isPlaceholderData ? check.data : undefined;
  const waiting = checkable && !said && !(settled === text && check.isError);
  // Given up on for this text: Generate goes ahead without the verdict.
  const [late, setLate] = useState<string | null>(null);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setLate(text), HOLD_AT_MOST_MS);
    return () => clearTimeout(timer);
  }, [waiting, text]);
  return { said, checking: waiting && late !== text };
}

export function PromptInput({
  value,
  onChange,
  verdict,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  /** `usePromptVerdictNow(value)`, read by the form too (Generate waits while it is checking). */
  verdict: PromptVerdictNow;
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
  // Mock mode only: what the demo generator makes of the prompt, said before Generate, and only
  // ever about the text as it is now (the form holds Generate until it is in).
  const mock = useInfo().data?.mode === 'mock';
  const { said, checking } = verdict;
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
            data-checking={checking || undefined}
          >
            {said?.message ?? (checking ? 'Checking what the demo generator makes of it…' : '')}
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
