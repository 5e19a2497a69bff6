// Every React Query key the SPA uses, and the key scope that the key-dependent ones carry.
import { useMemo } from 'react';
import { useApiKey } from '../lib/key-store.ts';
import { usePinnedLibraryKey } from '../lib/provider-keys.ts';

/**
 * Every React Query key the web app uses, from one factory. Keys under a key scope (a short
 * fingerprint of the API key, `useKeyScope`) never show one key's data to another; `library`
 * is a prefix of `libraryEntry`, so invalidating the library refreshes its entries too.
 */
export const queryKeys = {
  info: () => ['info'] as const,
  models: (scope: string) => ['models', scope] as const,
  task: (scope: string, id: string) => ['task', scope, id] as const,
  library: (scope: string) => ['library', scope] as const,
  libraryEntry: (scope: string, id: string) => ['library', scope, 'entry', id] as const,
  /**
   * The library searched, filtered or sorted (the gallery; `filters` is its normalised query
   * string). Without any, the list is `library(scope)` itself.
   */
  libraryList: (scope: string, filters: string) => ['library', scope, 'list', filters] as const,
  /** The other completed generations of an entry's input ("Compare with…"). */
  sameInput: (scope: string, id: string) => ['library', scope, 'same-input', id] as const,
  credits: (scope: string) => ['credits', scope] as const,
  /** One optimise job: its progress, then its result (`GET /api/optimise/{id}`). */
  optimiseJob: (scope: string, id: string) => ['optimise', scope, id] as const,
  /** The owner's link to one entry (under the entry, so refreshing the library refreshes it). */
  share: (scope: string, id: string) => ['library', scope, 'entry', id, 'share'] as const,
  /** What a public link shows (no key: the same for everyone). */
  sharedModel: (token: string) => ['shared-model', token] as const,
  /** Whether the key's owner owns the link (the share page's owner-only tools). */
  shareOwnership: (scope: string, token: string) => ['shared-model', token, 'mine', scope] as const,
  /** The owner's collections, by name (decision 0087). */
  collections: (scope: string) => ['collections', scope] as const,
  /** What a shared collection's public page shows (no key: the same for everyone). */
  sharedCollection: (token: string) => ['shared-collection', token] as const,
  /** What the mock's demo generator understands of a prompt (mock mode; no key: the same for all). */
  promptCheck: (prompt: string) => ['prompt-check', prompt] as const,
  /** What the demo generator will model of a photo (mock mode; the address names the image). */
  cutout: (scope: string, url: string) => ['cutout', scope, url] as const,
  /** Whether 2–4 photos show one object (mock mode), in the order sent. */
  viewsCheck: (scope: string, urls: readonly string[]) => ['views-check', scope, ...urls] as const,
};

/** The scope while there is no key: queries that need one wait (`enabled: scope !== NO_KEY`). */
export const NO_KEY = 'no-key';

/**
 * A key-scoped query key prefix, so switching keys never shows another key's data.
 * A short non-reversible fingerprint, not the key.
 */
export function useKeyScope(): string {
  const key = useApiKey();
  // The library a key's data comes from is part of its scope (decision 0114).
  const library = usePinnedLibraryKey();
  return useMemo(
    () => (key ? fingerprint(library ? `${key} ${library}` : key) : NO_KEY),
    [key, library],
  );
}

function fingerprint(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return `k${(h >>> 0).toString(36)}`;
}
