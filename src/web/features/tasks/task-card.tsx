import { progressOf, shownStage, type LibraryEntry } from '../../../contract/index.ts';
import { madeFromOf, titleOf } from '../../lib/entry-format.ts';
import { Link } from '../../ui/link.tsx';
import { useTask } from '../../api/tasks.ts';
import { vendorProgress } from '../../lib/provider-progress.ts';
import './tasks.css';

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
  const task = useTask(entry.id, { enabled: entry.status === 'pending' });
  const t = task.data;
  const status = t?.status ?? entry.status;
  const progress = t ? progressOf(t) : entry.progress;
  const thumb = entry.images[0]?.upload;
  const vendor = t ? vendorProgress(t) : undefined;
  const line =
    status === 'pending' && vendor
      ? `${vendor.words}${vendor.percent !== null ? ` · ${vendor.percent}%` : ''}`
      : status === 'pending'
        ? `${t ? shownStage(t.progress_stage, progress, Boolean(entry.prompt?.trim())).label : 'Starting'} · ${progress}%`
        : status === 'completed'
          ? 'Completed'
          : status === 'failed'
            ? 'Failed · refunded'
            : status;
  return (
    <li className={`task-card${selected ? ' selected' : ''}`}>
      <button type="button" className="task-card-main" onClick={onSelect} aria-pressed={selected}>
        {thumb ? (
          <img className="task-thumb" src={thumb} alt="" />
        ) : (
          <span className="task-thumb text-thumb" aria-hidden="true">
            Aa
          </span>
        )}
        <span className="task-card-text">
          {/* A named model says its name first, the model and what it was made from beside it. */}
          {entry.name?.trim() ? (
            <>
              <strong>{titleOf(entry)}</strong>{' '}
              <span className="muted">
                {entry.model} · {madeFromOf(entry)}
              </span>
            </>
          ) : (
            <>
              <strong>{entry.model}</strong> <span className="muted">{titleOf(entry)}</span>
            </>
          )}
          <span
            className={`small ${status === 'failed' ? 'error' : status === 'completed' ? 'ok' : ''}`}
          >
            {line}
          </span>
        </span>
      </button>
      {status === 'pending' && vendor && vendor.percent === null ? (
        <div
          className="progress indeterminate"
          role="progressbar"
          aria-label={`${entry.model} ${titleOf(entry)}`}
          aria-valuetext={vendor.words}
        >
          <span />
        </div>
      ) : status === 'pending' ? (
        <div
          className="progress"
          role="progressbar"
          aria-label={`${entry.model} ${titleOf(entry)}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
        >
          <span style={{ width: `${progress}%` }} />
        </div>
      ) : (
        <Link href={`/tasks/${encodeURIComponent(entry.id)}`} className="small">
          Open
        </Link>
      )}
    </li>
  );
}
