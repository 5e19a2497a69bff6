import type { LibraryEntry } from '../../contract/index.ts';
import { statusView } from '../lib/entry-format.ts';
import './status-badge.css';

/** A task's status as a badge: Completed, Failed, In progress N%, or the upstream's own word. */
export function StatusBadge({ entry }: { entry: Pick<LibraryEntry, 'status' | 'progress'> }) {
  const { label, tone } = statusView(entry);
  return <span className={`badge status-badge status-${tone}`}>{label}</span>;
}
