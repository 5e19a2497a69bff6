import { useEffect, useId, useRef } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import { useRevokeShares } from '../../api/share.ts';
import { describeError } from '../../lib/describe-error.ts';
import { useAskFirst } from '../../ui/use-ask-first.ts';
import './still-shared.css';

/**
 * Hiding a model does not take its public page down (decision 0095). Where a model is hidden, or
 * about to be (a card's Hide, the selection's, a hidden card, a hidden task's page), this says
 * which of `entries` are still shared publicly and offers Stop sharing… right there, asked first
 * as the share dialog asks (`DELETE /api/library/{id}/share` for each). Nothing when none is.
 */
export function StillShared({
  entries,
  when,
  label,
}: {
  entries: readonly Pick<LibraryEntry, 'id' | 'share'>[];
  /** `hiding`: before the Hide is done (it will stay shared); `hidden`: it is hidden now. */
  when: 'hiding' | 'hidden';
  /** The words one model is known by, for the button's name among many cards. */
  label?: string | undefined;
}) {
  const revoke = useRevokeShares();
  const { confirming, ask, keep, askRef, keepRef } = useAskFirst(() => revoke.reset());
  const questionId = useId();
  const doneRef = useRef<HTMLParagraphElement>(null);
  // Stopped from the question: focus goes to what is said instead of the buttons that went.
  const stoppedHere = revoke.isSuccess && confirming;
  useEffect(() => {
    if (stoppedHere) doneRef.current?.focus();
  }, [stoppedHere]);

  if (revoke.isSuccess) {
    const one = revoke.data.length === 1;
    return (
      <div className="still-shared is-stopped small" role="status" data-testid="still-shared">
        <p ref={doneRef} tabIndex={-1}>
          Sharing stopped:{' '}
          {one ? 'its link and embeds' : `${revoke.data.length} links and their embeds`} no longer
          work.
        </p>
      </div>
    );
  }
  const shared = entries.filter((e) => e.share);
  if (shared.length === 0) return null;
  const n = shared.length;
  const one = n === 1;
  const all = n === entries.length;
  const page = one && shared[0]?.share && (
    <a href={shared[0].share.url} target="_blank" rel="noopener noreferrer">
      its public page<span className="visually-hidden"> (in a new tab)</span>
    </a>
  );
  const words =
    when === 'hiding' ? (
      one ? (
        <>
          {all
            ? 'It is shared publicly: hiding it leaves '
            : '1 of them is shared publicly: hiding leaves '}
          {page} up for anyone with the link.
        </>
      ) : (
        `${all ? `All ${n}` : `${n} of them`} are shared publicly: hiding leaves their public pages up for anyone with the links.`
      )
    ) : one ? (
      <>
        {all ? 'Still shared publicly: ' : '1 of them is still shared publicly: '}
        {page} stays up for anyone with the link.
      </>
    ) : (
      `${n} of them are still shared publicly: their public pages stay up for anyone with the links.`
    );
  const stop = () => revoke.mutate(shared.map((e) => e.id));
  return (
    <div className="still-shared small" role="status" data-testid="still-shared">
      <p>
        <span aria-hidden="true">⚠</span> {words}
      </p>
      {confirming ? (
        <div className="still-shared__confirm" role="group" aria-labelledby={questionId}>
          <p id={questionId}>
            {one
              ? 'Stop sharing? The link and every embed stop working at once, for everyone.'
              : `Stop sharing ${n}? Their links and every embed stop working at once, for everyone.`}
          </p>
          <button type="button" className="small danger" onClick={stop} disabled={revoke.isPending}>
            {revoke.isPending ? 'Stopping…' : 'Stop sharing'}
          </button>
          <button
            type="button"
            className="small"
            ref={keepRef}
            onClick={keep}
            disabled={revoke.isPending}
          >
            Keep sharing
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="small"
          ref={askRef}
          onClick={ask}
          aria-label={one && label ? `Stop sharing ${label}…` : undefined}
        >
          {one ? 'Stop sharing…' : `Stop sharing ${n}…`}
        </button>
      )}
      {revoke.isError && (
        <p className="error small" role="alert">
          Could not stop sharing: {describeError(revoke.error).message}
        </p>
      )}
    </div>
  );
}
