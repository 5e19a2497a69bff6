import { useEffect, useRef } from 'react';
import { Elapsed } from './elapsed.tsx';

export interface SyncWait {
  model: string;
  /** What is being made: a prompt excerpt or "one photo". */
  subject: string;
  /** Unix seconds when Generate was pressed. */
  since: number;
}

/**
 * A sync-mode create while its request is open (up to 55 s): the new task at once, with its
 * clock, in place of the last one. The upstream says nothing of its stages until it answers.
 */
export function SyncWaitCard({ wait }: { wait: SyncWait }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section
      className="task-detail card"
      aria-labelledby="sync-wait-title"
      data-testid="sync-wait"
      aria-busy="true"
    >
      <div className="task-head">
        <h2 id="sync-wait-title" ref={headingRef} tabIndex={-1}>
          {wait.model} · {wait.subject}
        </h2>
        <span className="badge">In progress</span>
      </div>
      <div className="stepper">
        <div className="stepper-head">
          <strong>Waiting for the result</strong>
          <span className="muted small">
            <Elapsed since={wait.since} until={null} running />
          </span>
        </div>
        <div
          className="progress indeterminate"
          role="progressbar"
          aria-label="Waiting for the result"
        >
          <span />
        </div>
        <p className="muted small">
          Sync mode keeps the request open until the model is ready (up to 55 s); after that the
          task carries on here with its stages.
        </p>
      </div>
    </section>
  );
}
