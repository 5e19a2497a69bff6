import { useSyncExternalStore } from 'react';

/**
 * The API key lives only in this browser: localStorage ("remember on this device")
 * or sessionStorage ("this session only"). It is sent only in the Authorization header.
 */
const STORAGE_KEY = 'kiln.apiKey';
const listeners = new Set<() => void>();

export type KeyPersistence = 'device' | 'session';

export const KEY_PREFIX = 'tr_';

function read(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

let current = typeof window === 'undefined' ? null : read();

// Another tab saved or forgot a key on this device: follow it (sessionStorage is per tab).
if (typeof window !== 'undefined')
  window.addEventListener('storage', (e) => {
    if (e.key !== STORAGE_KEY && e.key !== null) return;
    const next = read();
    if (next === current) return;
    current = next;
    emit();
  });

function emit() {
  for (const l of listeners) l();
}

export function saveKey(key: string, persistence: KeyPersistence) {
  forgetKey(false);
  (persistence === 'device' ? localStorage : sessionStorage).setItem(STORAGE_KEY, key);
  current = key;
  emit();
}

export function forgetKey(notify = true) {
  try {
    localStorage.removeItem(STORAGE_KEY);
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage unavailable: nothing was kept
  }
  current = null;
  if (notify) emit();
}

export function keyPersistence(): KeyPersistence | null {
  try {
    if (localStorage.getItem(STORAGE_KEY)) return 'device';
    if (sessionStorage.getItem(STORAGE_KEY)) return 'session';
  } catch {
    // ignore
  }
  return null;
}

/** The key right now, for query functions (which run outside render). */
export function currentApiKey(): string | null {
  return current;
}

export function useApiKey(): string | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      const onStorage = (e: StorageEvent) => {
        if (e.key === STORAGE_KEY) {
          current = read();
          l();
        }
      };
      window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(l);
        window.removeEventListener('storage', onStorage);
      };
    },
    () => current,
  );
}

/** `tr_demo…kiln`: enough to recognise a key, not enough to use it. */
export function maskKey(key: string): string {
  if (key.length <= 10) return `${key.slice(0, 3)}…`;
  return `${key.slice(0, 7)}…${key.slice(-4)}`;
}

/** What is wrong with a key as typed, or null when it looks right. */
export function keyProblem(key: string): string | null {
  const k = key.trim();
  if (!k) return 'Paste your API key.';
  if (!k.startsWith(KEY_PREFIX))
    return `API keys start with ${KEY_PREFIX} — check that you copied the whole key.`;
  if (/\s/.test(k)) return 'The key has a space in it — copy it again without spaces.';
  if (k.length < 8) return 'This key looks too short — copy the whole key.';
  return null;
}
