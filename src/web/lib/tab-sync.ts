/**
 * Tabs of one browser keep each other up to date (issue 23): a tab that starts a task, or
 * changes the library (hides, stars, shares), says so on a BroadcastChannel, and every other
 * tab refetches its library and balance. Browsers without BroadcastChannel still refetch when a
 * tab gets the focus back (the library and credits queries refetch on focus).
 */
const channel: BroadcastChannel | null =
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('kiln-tabs');

export type TabNews = 'library-changed';

/** Tells the other tabs that the library (and so the balance) changed. */
export function announce(news: TabNews = 'library-changed'): void {
  channel?.postMessage(news);
}

/** Runs `fn` whenever another tab announces a change. */
export function onAnnounced(fn: (news: TabNews) => void): () => void {
  if (!channel) return () => {};
  const listener = (e: MessageEvent) => {
    if (e.data === 'library-changed') fn(e.data);
  };
  channel.addEventListener('message', listener);
  return () => channel.removeEventListener('message', listener);
}
