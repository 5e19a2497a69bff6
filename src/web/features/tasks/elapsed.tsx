import { useEffect, useState } from 'react';
import { formatDuration } from '../../lib/entry-format.ts';

/**
 * Seconds a task ran: from `since` to `until` (unix seconds), or to `nowS` while it runs. A task
 * that ended at a time nobody knows has no duration to show (null), rather than a clock that
 * keeps counting.
 */
export function elapsedSeconds(
  since: number | null,
  until: number | null,
  running: boolean,
  nowS: number,
): number | null {
  if (since === null) return null;
  if (until !== null) return until - since;
  return running ? nowS - since : null;
}

/** Time since `since` (unix seconds), ticking each second while `running`, stopped at `until`. */
export function Elapsed({
  since,
  until,
  running,
  prefix = '',
}: {
  since: number | null;
  until: number | null;
  running: boolean;
  /** Text before the time (a separator), shown only with it. */
  prefix?: string;
}) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running || until !== null) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [running, until]);
  const seconds = elapsedSeconds(since, until, running, now / 1000);
  return seconds === null ? null : (
    <span>
      {prefix}
      {formatDuration(seconds)}
    </span>
  );
}
