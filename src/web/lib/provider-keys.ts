import { isVendorProvider, type VendorProvider } from '../../contract/provider-ids.ts';
import { currentApiKey } from './key-store.ts';
import { createStore, useStore, type Store } from './store.ts';

/**
 * The vendors' keys (Meshy, fal, …) and the library key live only in this browser, in
 * localStorage beside the spec key (decision 0115). A vendor's key is sent only as
 * `x-provider-key` on that vendor's calls; the library key names the artist's one library
 * (`x-kiln-library`, decision 0114) on every request to Kiln.
 */
const PROVIDER_KEYS = 'kiln.providerKeys';
const LIBRARY_KEY = 'kiln.libraryKey';

export type ProviderKeys = Partial<Record<VendorProvider, string>>;

function readKeys(): ProviderKeys {
  try {
    const raw = localStorage.getItem(PROVIDER_KEYS);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    const keys: ProviderKeys = {};
    if (parsed && typeof parsed === 'object')
      for (const [name, value] of Object.entries(parsed))
        if (isVendorProvider(name) && typeof value === 'string' && value) keys[name] = value;
    return keys;
  } catch {
    return {};
  }
}

function readLibraryKey(): string | null {
  try {
    return localStorage.getItem(LIBRARY_KEY) ?? sessionStorage.getItem(LIBRARY_KEY);
  } catch {
    return null;
  }
}

const keys = createStore<ProviderKeys>(typeof window === 'undefined' ? {} : readKeys());
const pinned = createStore<string | null>(typeof window === 'undefined' ? null : readLibraryKey());

/** The vendors' keys of this browser, for components (`useProviderKeys()`). */
const providerKeys: Store<ProviderKeys> = keys;

// Another tab connected or removed a key: follow it.
if (typeof window !== 'undefined')
  window.addEventListener('storage', (e) => {
    if (e.key === PROVIDER_KEYS || e.key === null) keys.set(readKeys());
    if (e.key === LIBRARY_KEY || e.key === null) pinned.set(readLibraryKey());
  });

export function useProviderKeys(): ProviderKeys {
  return useStore(providerKeys);
}

/** The library key as state (null: the spec key names the library, or there is none yet). */
export function usePinnedLibraryKey(): string | null {
  return useStore(pinned);
}

/** A vendor's key right now (null: not connected), for calls made outside render. */
export function currentProviderKey(provider: VendorProvider): string | null {
  return keys.get()[provider] ?? null;
}

/** `kl_` and 43 base64url characters: 32 random bytes from `random` (crypto by default). */
export function newLibraryKey(
  random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer> = (b) =>
    crypto.getRandomValues(b),
): string {
  const bytes = random(new Uint8Array(32));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `kl_${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/**
 * The key naming this browser's library: the one pinned when the first vendor key was
 * connected, else the spec key (the library it has always named), else none.
 */
export function currentLibraryKey(): string | null {
  return pinned.get() ?? currentApiKey();
}

/**
 * Pins the library key once: the spec key when one is saved (its library stays where it is,
 * kept where the spec key is kept), else a new `kl_` key in localStorage.
 */
function pinLibraryKey(): void {
  if (pinned.get()) return;
  const spec = currentApiKey();
  const next = spec ?? newLibraryKey();
  try {
    const sessionOnly = spec !== null && sessionStorage.getItem('kiln.apiKey') === spec;
    (sessionOnly ? sessionStorage : localStorage).setItem(LIBRARY_KEY, next);
  } catch {
    // storage unavailable: the key names the library for this page's life
  }
  pinned.set(next);
}

function writeKeys(next: ProviderKeys) {
  try {
    if (Object.keys(next).length) localStorage.setItem(PROVIDER_KEYS, JSON.stringify(next));
    else localStorage.removeItem(PROVIDER_KEYS);
  } catch {
    // storage unavailable: kept for this page's life
  }
  keys.set(next);
}

/** Keeps a vendor's key (trimmed) and pins the library key, so its models have a home. */
export function saveProviderKey(provider: VendorProvider, key: string): void {
  pinLibraryKey();
  writeKeys({ ...keys.get(), [provider]: key.trim() });
}

/** Forgets a vendor's key; the library key stays, and with it every model the key made. */
export function removeProviderKey(provider: VendorProvider): void {
  const next = { ...keys.get() };
  delete next[provider];
  writeKeys(next);
}

/** How each vendor's keys look, where the vendor documents it. */
const KEY_SHAPES: Partial<Record<VendorProvider, { test: RegExp; says: string }>> = {
  meshy: { test: /^msy_[A-Za-z0-9_-]{8,}$/, says: 'Meshy keys start with msy_' },
  fal: {
    test: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:[0-9a-f]{16,}$/i,
    says: 'fal keys are <key id>:<key secret> (a UUID, a colon, then hex)',
  },
};

/** The provider a pasted key belongs to, by its documented shape, or undefined. */
export function recogniseProviderKey(key: string): VendorProvider | undefined {
  const k = key.trim();
  for (const [name, shape] of Object.entries(KEY_SHAPES))
    if (isVendorProvider(name) && shape.test.test(k)) return name;
  return undefined;
}

/** What is wrong with a vendor's key as typed, or null when it looks right. */
export function providerKeyProblem(provider: VendorProvider, key: string): string | null {
  const k = key.trim();
  const shape = KEY_SHAPES[provider];
  if (!k) return 'Paste the key.';
  if (/\s/.test(k)) return 'The key has a space in it — copy it again without spaces.';
  if (shape && !shape.test.test(k)) {
    const other = recogniseProviderKey(k);
    return other
      ? `This looks like a ${other} key, not a ${provider} key.`
      : `${shape.says} — check that you copied the whole key.`;
  }
  return null;
}
