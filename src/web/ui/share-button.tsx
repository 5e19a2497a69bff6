import { useSyncExternalStore } from 'react';
import type { LibraryEntry } from '../../contract/index.ts';
import './share-button.css';

/** What the share dialog needs to know of a model: which task, and what to call it. */
export interface ShareTarget {
  id: string;
  /** "“a small red vase”", "chair.png", "3 photos". */
  title: string;
}

/** The app's way to open the share dialog, once it has one (see `provideShareDialog`). */
let opener: ((target: ShareTarget) => void) | null = null;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * Makes `open` what Share buttons call; returns the undo. The app provides it
 * (src/web/app/share-host.tsx, which loads the dialog from features/share when first used), so
 * any feature can offer Share without importing another feature.
 */
export function provideShareDialog(open: (target: ShareTarget) => void): () => void {
  opener = open;
  for (const l of listeners) l();
  return () => {
    if (opener !== open) return;
    opener = null;
    for (const l of listeners) l();
  };
}

/** What a model is called in the share dialog. */
export function shareTitleOf(entry: Pick<LibraryEntry, 'prompt' | 'images'>): string {
  const prompt = entry.prompt?.trim();
  if (prompt) return `“${prompt.length > 60 ? `${prompt.slice(0, 57)}…` : prompt}”`;
  const name = entry.images.find((i) => i.name)?.name;
  if (name) return entry.images.length > 1 ? `${name} + ${entry.images.length - 1}` : name;
  return entry.images.length > 1 ? `${entry.images.length} photos` : 'one photo';
}

/**
 * "Share" on a finished model Kiln keeps (nothing otherwise): opens the dialog to make, copy or
 * revoke its public link. Says "Shared" while a link is live.
 */
export function ShareButton({
  entry,
  className,
  label,
}: {
  entry: LibraryEntry;
  className?: string;
  /** The accessible name's subject when several buttons share a screen ("Share <label>"). */
  label?: string;
}) {
  const open = useSyncExternalStore(subscribe, () => opener);
  if (!open || entry.status !== 'completed' || !entry.archived) return null;
  const shared = Boolean(entry.share);
  return (
    <button
      type="button"
      className={className ? `share-button ${className}` : 'share-button'}
      aria-haspopup="dialog"
      aria-label={label ? `${shared ? 'Shared' : 'Share'}: ${label}` : undefined}
      data-shared={shared || undefined}
      onClick={() => open({ id: entry.id, title: shareTitleOf(entry) })}
    >
      <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none">
        <path
          d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1 1M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1-1"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </svg>
      {shared ? 'Shared' : 'Share'}
    </button>
  );
}
