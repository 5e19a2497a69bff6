import { currentApiKey } from '../lib/key-store.ts';
import { createStore, useStore } from '../lib/store.ts';
import { API_BASE, probe } from './transport.ts';

/**
 * Whether Kiln, its storage and the upstream can be reached (issue 23: a page that keeps counting
 * "Initializing 0% · 27 s" while nothing answers says nothing true). Any failed request reports
 * itself here (`reportError`, called by React Query's caches); a failure that means something is
 * unreachable starts a probe every few seconds (`/api/health`, `/api/ready`, and the upstream's
 * model listing through Kiln), which clears the state once everything answers and asks the
 * app to refetch (`onRecovered`). The store is a few hundred bytes: it is in the app shell.
 */
export type Outage =
  /** Kiln's own server does not answer (stopped, restarting, the network). */
  | { kind: 'kiln' }
  /** Kiln answers, but its database or file store does not (the message says which). */
  | { kind: 'storage'; message: string }
  /** Kiln answers, but the upstream API does not. */
  | { kind: 'upstream' };

/** The outage this tab knows of, or null when everything answers (the one store pattern, 0081). */
export const outage = createStore<Outage | null>(null);
let nextProbe: ReturnType<typeof setTimeout> | undefined;
let recovered: (() => void) | undefined;

/** Two outages that read alike: the same kind (and, for storage, the same message). */
function alike(a: Outage | null, b: Outage | null): boolean {
  if (a?.kind !== b?.kind) return false;
  return a?.kind !== 'storage' || (b?.kind === 'storage' && a.message === b.message);
}

/** Sets the outage; one that reads as the current one keeps it (its listeners hear nothing). */
function set(next: Outage | null) {
  outage.set((previous) => (alike(previous, next) ? previous : next));
}

interface ErrorLike {
  name?: string;
  status?: number;
  code?: string;
  message?: string;
}

/** What an error says about reachability, or null when it says nothing (a 400, a 404…). */
export function outageOf(err: unknown): Outage | null {
  const e = (err ?? {}) as ErrorLike;
  if (e.name === 'APIConnectionError' || e.name === 'APITimeoutError') return { kind: 'kiln' };
  if (e.code === 'upstream_unreachable' || e.code === 'upstream_timeout')
    return { kind: 'upstream' };
  if (e.code === 'service_unavailable' && e.status === 503)
    return { kind: 'storage', message: e.message ?? 'Kiln cannot reach its storage just now.' };
  // A proxy in front of Kiln answers for it when it is down (nginx's 502 and 504 carry no code).
  if ((e.status === 502 || e.status === 504) && !e.code) return { kind: 'kiln' };
  return null;
}

/** A failed request: when it means something cannot be reached, say so and start probing. */
export function reportError(err: unknown): void {
  const found = outageOf(err);
  if (!found) return;
  set(found);
  schedule();
}

/** Called once everything answers again (the app refetches what failed). */
export function onRecovered(fn: () => void): void {
  recovered = fn;
}

const PROBE_MS = 3_000;

function schedule() {
  if (nextProbe !== undefined) return;
  nextProbe = setTimeout(() => {
    nextProbe = undefined;
    void check();
  }, PROBE_MS);
}

async function check(): Promise<void> {
  let next: Outage | null = null;
  try {
    const ready = await probe('/api/ready', { auth: false });
    if (ready.status === 503) {
      const { message } = (ready.body ?? {}) as { message?: unknown };
      next = {
        kind: 'storage',
        message: typeof message === 'string' ? message : 'Kiln cannot reach its storage.',
      };
    } else if (!ready.ok) next = { kind: 'kiln' };
    else if (currentApiKey()) {
      const models = await probe(`${API_BASE}/models`);
      if (models.status === 502 || models.status === 504) next = { kind: 'upstream' };
    }
  } catch {
    next = { kind: 'kiln' };
  }
  const was = outage.get();
  set(next);
  if (next) schedule();
  else if (was) recovered?.();
}

/** The current outage, or null when everything answers (as far as this tab knows). */
export function useOutage(): Outage | null {
  return useStore(outage);
}
