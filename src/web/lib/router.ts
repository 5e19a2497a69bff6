import { createStore, useStore, type Store } from './store.ts';

/** Kiln's pages. A tiny router: the address is the state, kept in step with history. */
export type Route =
  | { page: 'studio' }
  | { page: 'gallery' }
  | { page: 'credits' }
  | { page: 'viewer' }
  | { page: 'batch' }
  /** A key per provider (Meshy, fal, …): added, tested, removed. */
  | { page: 'connections' }
  | { page: 'task'; id: string }
  /** Optimise a task's model for a target (`/tasks/{id}/optimise`). */
  | { page: 'optimise'; id: string }
  /** A shared model's public page (`/s/{token}`), or its frameable variant (`/s/{token}/embed`). */
  | { page: 'share'; token: string; embed: boolean }
  /**
   * A shared collection's public page (`/c/{token}`; `?m=` the model shown in its viewer), or its
   * frameable variant (`/c/{token}/embed`).
   */
  | { page: 'collection'; token: string; embed: boolean }
  | { page: 'not-found' };

export function parseRoute(pathname: string): Route {
  if (pathname === '/' || pathname === '') return { page: 'studio' };
  if (pathname === '/gallery') return { page: 'gallery' };
  if (pathname === '/credits') return { page: 'credits' };
  if (pathname === '/viewer') return { page: 'viewer' };
  if (pathname === '/batch') return { page: 'batch' };
  if (pathname === '/connections') return { page: 'connections' };
  const optimise = /^\/tasks\/([^/]+)\/optimise$/.exec(pathname);
  if (optimise?.[1]) return { page: 'optimise', id: decodeURIComponent(optimise[1]) };
  const task = /^\/tasks\/([^/]+)$/.exec(pathname);
  if (task?.[1]) return { page: 'task', id: decodeURIComponent(task[1]) };
  const share = /^\/s\/([A-Za-z0-9_-]+)(\/embed)?\/?$/.exec(pathname);
  if (share?.[1]) return { page: 'share', token: share[1], embed: Boolean(share[2]) };
  const collection = /^\/c\/([A-Za-z0-9_-]+)(\/embed)?\/?$/.exec(pathname);
  if (collection?.[1])
    return { page: 'collection', token: collection[1], embed: Boolean(collection[2]) };
  return { page: 'not-found' };
}

/** The part of the address the pages follow. */
export interface Address {
  pathname: string;
  search: string;
}

const here = (): Address =>
  typeof location === 'undefined'
    ? { pathname: '/', search: '' }
    : { pathname: location.pathname, search: location.search };

const current = createStore<Address>(here());

/** The address, kept in step with history (navigate, setSearch, back and forward). */
export const address: Store<Address> = current;

/** Reads the address again after history moved; a new object only when something changed. */
function follow() {
  current.set((was) => {
    const now = here();
    return now.pathname === was.pathname && now.search === was.search ? was : now;
  });
}

if (typeof window !== 'undefined') window.addEventListener('popstate', follow);

export function navigate(to: string) {
  if (to === location.pathname) return;
  history.pushState(null, '', to);
  follow();
  window.scrollTo({ top: 0 });
}

export function usePathname(): string {
  return useStore(address, (a) => a.pathname);
}

export function useRoute(): Route {
  return parseRoute(usePathname());
}

/**
 * The query string of the address ("?q=chair&sort=credits", or ""), as state: a page that keeps
 * its filters in the address re-renders on setSearch and on back/forward.
 */
export function useSearch(): string {
  return useStore(address, (a) => a.search);
}

/**
 * Puts a new query string in the address, on the same page and at the same scroll position:
 * a new history entry (back returns to the previous one), or, with `replace`, in place of the
 * current entry (a search being typed).
 */
export function setSearch(search: string, { replace = false }: { replace?: boolean } = {}) {
  const query =
    search === '' || search === '?' ? '' : search.startsWith('?') ? search : `?${search}`;
  if (query === location.search) return;
  const to = `${location.pathname}${query}${location.hash}`;
  if (replace) history.replaceState(history.state, '', to);
  else history.pushState(null, '', to);
  follow();
}
