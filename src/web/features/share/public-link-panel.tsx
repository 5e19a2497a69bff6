import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { copyText } from '../../lib/copy-text.ts';
import { describeError } from '../../lib/describe-error.ts';
import { formatDateTime } from '../../lib/entry-format.ts';
import { useAskFirst } from '../../ui/use-ask-first.ts';
import { onlyOnThisComputer } from './reach.ts';
import { ThisComputerOnly } from './this-computer-only.tsx';
import './public-link.css';

/** A running create or revoke: its action, whether it is under way, and how it failed. */
export interface LinkAction {
  run: (onSuccess: () => void) => void;
  isPending: boolean;
  error: unknown;
  reset: () => void;
}

/** Stop sharing…, asked first: Stop sharing (the `warning` says what it does) or Keep sharing. */
function StopSharing({
  warning,
  revoke,
  onStop,
  confirming,
  onAsk,
  onKeep,
  askRef,
  keepRef,
}: {
  warning: string;
  revoke: LinkAction;
  onStop: () => void;
  /** Asking first (else Stop sharing… shows). */
  confirming: boolean;
  onAsk: () => void;
  onKeep: () => void;
  askRef: RefObject<HTMLButtonElement | null>;
  keepRef: RefObject<HTMLButtonElement | null>;
}) {
  const confirmId = useId();
  if (!confirming)
    return (
      <button type="button" className="danger public-link__stop" ref={askRef} onClick={onAsk}>
        Stop sharing…
      </button>
    );
  return (
    <div className="public-link__confirm" role="group" aria-labelledby={confirmId}>
      <p id={confirmId}>{warning}</p>
      <div className="public-link__row">
        <button type="button" className="danger" onClick={onStop} disabled={revoke.isPending}>
          {revoke.isPending ? 'Stopping…' : 'Stop sharing'}
        </button>
        <button type="button" ref={keepRef} onClick={onKeep} disabled={revoke.isPending}>
          Keep sharing
        </button>
      </div>
      {revoke.error != null && (
        <p className="error small" role="alert">
          Could not stop sharing: {describeError(revoke.error).message}
        </p>
      )}
    </div>
  );
}

/** Not shared: says so, with Create link (and why creating it failed). */
function NotShared({
  what,
  className,
  create,
  createRef,
  onCreate,
}: {
  what: string;
  className: string;
  create: LinkAction;
  createRef: RefObject<HTMLButtonElement | null>;
  onCreate: () => void;
}) {
  return (
    <div className={`public-link public-link--off ${className}`}>
      <p>This {what} is not shared.</p>
      <button
        type="button"
        className="primary"
        ref={createRef}
        onClick={onCreate}
        disabled={create.isPending}
      >
        {create.isPending ? 'Creating the link…' : 'Create link'}
      </button>
      {create.error != null && (
        <p className="error small" role="alert">
          Could not create the link: {describeError(create.error).message}
        </p>
      )}
    </div>
  );
}

/** The public link, selected when focused, with Copy link (and "Open the page", when given). */
function LinkField({
  url,
  urlRef,
  copyRef,
  onCopy,
  open,
}: {
  url: string;
  urlRef: RefObject<HTMLInputElement | null>;
  copyRef: RefObject<HTMLButtonElement | null>;
  onCopy: () => void;
  open: ReactNode;
}) {
  const urlId = useId();
  return (
    <>
      <label htmlFor={urlId}>Public link</label>
      <div className="public-link__row">
        <input
          id={urlId}
          ref={urlRef}
          type="url"
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="share-url"
        />
        <button type="button" className="primary" ref={copyRef} onClick={onCopy}>
          Copy link
        </button>
        {open}
      </div>
    </>
  );
}

/**
 * The public-link part of a share dialog (a model's, a collection's): when shared, the link with
 * Copy link and Open the page, "Shared since …" and Stop sharing… (asked first); when not,
 * Create link; with what was just done said in a status line. Focus goes on to what comes next
 * once it is drawn (the answer may render after the mutation's onSuccess).
 */
export function PublicLinkPanel({
  share,
  what,
  create,
  revoke,
  copyRef,
  createRef,
  className,
  openInRow = true,
  stopWarning,
  stopped,
  copyFailed,
  onStopped,
  extra,
}: {
  share: { url: string; created_ms: number } | null;
  /** "model", "collection": "This model is not shared.". */
  what: string;
  create: LinkAction & { said: string };
  revoke: LinkAction;
  copyRef: RefObject<HTMLButtonElement | null>;
  createRef: RefObject<HTMLButtonElement | null>;
  /** The caller's class on the panel, for its look. */
  className: string;
  /** "Open the page" beside Copy link (or, without, wherever `extra` puts it). */
  openInRow?: boolean;
  /** "Stop sharing? The link stops working at once, for everyone." */
  stopWarning: string;
  /** Said once sharing stopped. */
  stopped: string;
  /** Said when copying failed. */
  copyFailed: string;
  onStopped?: () => void;
  /** More for a shared link, under the link: given "Open the page" and the status line's `say`. */
  extra?: (parts: { open: ReactNode; say: (message: string) => void }) => ReactNode;
}) {
  const [status, setStatus] = useState('');
  const { confirming, setConfirming, ask, keep, askRef, keepRef } = useAskFirst(() =>
    revoke.reset(),
  );
  const urlRef = useRef<HTMLInputElement>(null);

  // A trailing no-break space alternates so that saying the same twice is announced twice.
  const say = (message: string) =>
    setStatus((prev) => (prev === message ? `${message}\u00a0` : message));

  const focusNext = useRef<'copy' | 'create' | null>(null);
  useEffect(() => {
    const next = focusNext.current;
    if (next === 'copy' && share) copyRef.current?.focus();
    else if (next === 'create' && share === null) createRef.current?.focus();
    else return;
    focusNext.current = null;
  }, [share, copyRef, createRef]);

  const make = () => {
    setStatus('');
    create.run(() => {
      flushSync(() => say(create.said));
      // Drawn already, or focused by the effect above once it is.
      if (copyRef.current) copyRef.current.focus();
      else focusNext.current = 'copy';
    });
  };
  const copy = async () => {
    if (!share) return;
    const ok = await copyText(share.url, urlRef.current);
    say(ok ? 'Link copied.' : copyFailed);
  };
  const stop = () =>
    revoke.run(() => {
      flushSync(() => {
        setConfirming(false);
        say(stopped);
      });
      onStopped?.();
      if (createRef.current) createRef.current.focus();
      else focusNext.current = 'create';
    });

  const open = share && (
    <a className="button" href={share.url} target="_blank" rel="noopener noreferrer">
      Open the page<span className="visually-hidden"> (in a new tab)</span>
    </a>
  );

  return (
    <>
      {share ? (
        <div className={`public-link ${className}`}>
          <LinkField
            url={share.url}
            urlRef={urlRef}
            copyRef={copyRef}
            onCopy={() => void copy()}
            open={openInRow && open}
          />
          {onlyOnThisComputer(share.url) && <ThisComputerOnly />}
          {extra?.({ open, say })}
          <p className="muted small">Shared since {formatDateTime(share.created_ms)}.</p>
          <StopSharing
            warning={stopWarning}
            revoke={revoke}
            onStop={stop}
            confirming={confirming}
            onAsk={ask}
            onKeep={keep}
            askRef={askRef}
            keepRef={keepRef}
          />
        </div>
      ) : (
        <NotShared
          what={what}
          className={className}
          create={create}
          createRef={createRef}
          onCreate={make}
        />
      )}
      <p className="modal__status small" role="status">
        {status}
      </p>
    </>
  );
}
