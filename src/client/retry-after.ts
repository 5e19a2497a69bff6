/**
 * `Retry-After` as milliseconds: delta-seconds ("30", leniently "1.5") or an
 * HTTP-date (a date in the past means 0). Undefined when absent or unparseable.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only an HTTP-date (which names a weekday or month) is accepted; "-5" or "soon" are not dates.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The wait a response asks for: `retry-after-ms` (a non-standard but common header) first, then `Retry-After`. */
export function retryAfterMsFrom(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.round(Number(ms));
  return parseRetryAfter(headers.get('retry-after'), now);
}
