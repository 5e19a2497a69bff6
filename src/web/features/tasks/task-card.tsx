import { progressOf, type LibraryEntry } from '../../../contract/index.ts';
import { Link } from '../../ui/link.tsx';
import { useTask } from './task-query.ts';

/** A compact line for a recent task; a pending one is polled and shows its stage. */
export function TaskCard({
  entry,
  selected,
  onSelect,
}: {
  entry: LibraryEntry;
  selected: boolean;
  onSelect: () => void;
}) {
  const pending = entry.status === 'pending';
  return pending ? (
    <PendingCard entry={entry} selected={selected} onSelect={onSelect} />
  ) : (
    <DoneCard entry={entry} selected={selected} onSelect={onSelect} />
  );
}

function title(entry: LibraryEntry) {
  return entry.prompt
    ? `“${entry.prompt.slice(0, 40)}${entry.prompt.length > 40 ? '…' : ''}”`
    : `${entry.images.length} photo${entry.images.length === 1 ? '' : 's'}`;
}

function Thumb({ entry }: { entry: LibraryEntry }) {
  const src = entry.images[0]?.upload;
  return src ? (
    <img className="task-thumb" src={src} alt="" />
  ) : (
    <span className="task-thumb text-thumb" aria-hidden="true">
      Aa
    </span>
  );
}

function PendingCard({
  entry,
  selected,
  onSelect,
}: {
  entry: LibraryEntry;
  selected: boolean;
  onSelect: () => void;
}) {
  const task = useTask(entry.id);
  const t = task.data;
  const progress = t ? progressOf(t) : entry.progress;
  const status = t?.status ?? entry.status;
  return (
    <li className={`task-card${selected ? ' selected' : ''}`}>
      <button type="button" className="task-card-main" onClick={onSelect} aria-pressed={selected}>
        <Thumb entry={entry} />
        <span className="task-card-text">
          <strong>{entry.model}</strong> <span className="muted">{title(entry)}</span>
          <span className="small">
            {status === 'pending'
              ? `${t?.progress_stage ?? 'Starting'} · ${progress}%`
              : status === 'completed'
                ? 'Completed'
                : 'Failed'}
          </span>
        </span>
      </button>
      {status === 'pending' && (
        <div
          className="progress"
          role="progressbar"
          aria-label={`${entry.model} ${title(entry)}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
        >
          <span style={{ width: `${progress}%` }} />
        </div>
      )}
    </li>
  );
}

function DoneCard({
  entry,
  selected,
  onSelect,
}: {
  entry: LibraryEntry;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <li className={`task-card${selected ? ' selected' : ''}`}>
      <button type="button" className="task-card-main" onClick={onSelect} aria-pressed={selected}>
        <Thumb entry={entry} />
        <span className="task-card-text">
          <strong>{entry.model}</strong> <span className="muted">{title(entry)}</span>
          <span className={`small ${entry.status === 'failed' ? 'error' : 'ok'}`}>
            {entry.status === 'completed'
              ? 'Completed'
              : entry.status === 'failed'
                ? 'Failed · refunded'
                : entry.status}
          </span>
        </span>
      </button>
      <Link href={`/tasks/${encodeURIComponent(entry.id)}`} className="small">
        Open
      </Link>
    </li>
  );
}
