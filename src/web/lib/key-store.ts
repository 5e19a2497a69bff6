import { createStore, useStore, type Store } from './store.ts';

/**
 * The API key lives only in this browser: localStorage ("remember on this device")
 * or sessionStorage ("this session only"). It is sent only in the Authorization header.
 */
const STORAGE_KEY = 'kiln.apiKey';

export type KeyPersistence = 'device' | 'session';

const KEY_PREFIX = 'tr_';

function read(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

const key = createStore<string | null>(typeof window === 'undefined' ? null : read());

/** The key of this tab (null: none), for components (`useStore(apiKey)`, or `useApiKey()`). */
export const apiKey: Store<string | null> = key;

// Another tab saved or forgot a key on this device: follow it (sessionStorage is per tab).
if (typeof window !== 'undefined')
  window.addEventListener('storage', (e) => {
    if (e.key !== STORAGE_KEY && e.key !== null) return;
    key.set(read());
  });

function removeStored() {
  try {
    localStorage.removeItem(STORAGE_KEY);
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage unavailable: nothing was kept
  }
}

export function saveKey(next: string, persistence: KeyPersistence) {
  removeStored();
  (persistence === 'device' ? localStorage : sessionStorage).setItem(STORAGE_KEY, next);
  key.set(next);
}

export function forgetKey() {
  removeStored();
  key.set(null);
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
  return key.get();
}

/** The key as state. */
export function useApiKey(): string | null {
  return useStore(apiKey);
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
