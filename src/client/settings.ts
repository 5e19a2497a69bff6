import { LIMITS } from '../contract/index.ts';
import { defaultSleep } from './abort.ts';
import type { ClientOptions } from './types.ts';

export const DEFAULTS = {
  maxRetries: 2,
  timeoutMs: 30_000,
  /** The upstream blocks a sync create for up to `LIMITS.syncWaitMs`; 15 s of slack for transfer and queues. */
  syncTimeoutMs: LIMITS.syncWaitMs + 15_000,
} as const;

/** A client's options, checked and defaulted once, when it is made. */
export interface Settings {
  /** The resolved base URL (no credentials, never the key). */
  base: URL;
  apiKey: string | undefined;
  /** Why the key cannot be sent in a header (spaces, non-ASCII), or undefined when it can. */
  keyProblem: string | undefined;
  fetch: typeof fetch;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  maxRetries: number;
  timeoutMs: number;
  syncTimeoutMs: number;
  defaultHeaders: Record<string, string>;
}

/** `value` when it is a positive number of milliseconds, else `fallback`. */
export function positiveMs(value: number | undefined, fallback: number): number {
  return value === undefined || Number.isNaN(value) || value <= 0 ? fallback : value;
}

/** `value` as a whole count of retries when it is one, else `fallback`. */
export function retriesOr(value: number | undefined, fallback: number): number {
  return value !== undefined && value >= 0 ? Math.floor(value) : fallback;
}

function resolveBase(baseURL: string): URL {
  const here = (globalThis as { location?: { href?: unknown } }).location?.href;
  try {
    return new URL(baseURL, typeof here === 'string' ? here : undefined);
  } catch {
    throw new TypeError(
      `baseURL must be an absolute URL (e.g. http://localhost:8080/api/v1); got ${JSON.stringify(baseURL)}.`,
    );
  }
}

/** Visible ASCII only: anything else cannot travel in a header (or is a paste accident). */
const HEADER_TOKEN = /^[\x21-\x7e]+$/;

function defaultFetch(): typeof fetch {
  const global = globalThis as { fetch?: typeof fetch };
  if (typeof global.fetch !== 'function')
    throw new TypeError('No fetch implementation: pass options.fetch.');
  return global.fetch.bind(globalThis);
}

/**
 * The options checked and defaulted. Throws TypeError for a base URL that cannot be resolved or
 * that holds the key; a key that cannot be sent is kept as `keyProblem`, refused at each call.
 */
export function settingsFrom(options: ClientOptions): Settings {
  const base = resolveBase(options.baseURL);
  const apiKey = options.apiKey?.trim() || undefined;
  if (apiKey !== undefined && base.href.includes(apiKey))
    throw new TypeError(
      'baseURL must not contain the API key; it is sent only in the Authorization header.',
    );
  const keyProblem =
    apiKey !== undefined && !HEADER_TOKEN.test(apiKey)
      ? 'The API key contains spaces or characters that cannot be sent in a header; paste it again.'
      : undefined;
  return {
    base,
    apiKey,
    keyProblem,
    fetch: options.fetch ?? defaultFetch(),
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    maxRetries: retriesOr(options.maxRetries, DEFAULTS.maxRetries),
    timeoutMs: positiveMs(options.timeoutMs, DEFAULTS.timeoutMs),
    syncTimeoutMs: positiveMs(options.syncTimeoutMs, DEFAULTS.syncTimeoutMs),
    defaultHeaders: { ...options.defaultHeaders },
  };
}
