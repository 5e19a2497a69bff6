import { useId, useRef, type ReactNode } from 'react';
import { copyText } from '../../lib/copy-text.ts';

/**
 * A public link's `<iframe>` snippet (a model's, a collection's: its answer's `embed_html`),
 * selected when focused, with Copy embed code and, beside it, "Open the page" when given.
 */
export function EmbedCode({
  html,
  open,
  say,
  copyFailed,
}: {
  html: string;
  open: ReactNode;
  /** The dialog's status line. */
  say: (message: string) => void;
  /** Said when copying failed (the snippet is then selected). */
  copyFailed: string;
}) {
  const embedRef = useRef<HTMLTextAreaElement>(null);
  const embedId = useId();
  return (
    <>
      <label htmlFor={embedId}>Embed on a web page</label>
      <textarea
        id={embedId}
        ref={embedRef}
        className="embed-code"
        readOnly
        rows={4}
        value={html}
        onFocus={(e) => e.currentTarget.select()}
        data-testid="share-embed"
      />
      <div className="public-link__row embed-code__row">
        <button
          type="button"
          onClick={() =>
            void copyText(html, embedRef.current).then((ok) =>
              say(ok ? 'Embed code copied.' : copyFailed),
            )
          }
        >
          Copy embed code
        </button>
        {open}
      </div>
    </>
  );
}
