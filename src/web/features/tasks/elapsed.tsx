import { useEffect, useState } from 'react';

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(s % 60).padStart(2, '0')} s`;
}

/** Time since `since` (unix seconds), ticking each second until `until` is set. */
export function Elapsed({ since, until }: { since: number | null; until: number | null }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until !== null) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [until]);
  if (since === null) return null;
  const end = until ?? now / 1000;
  return <span>{formatDuration(end - since)}</span>;
}
