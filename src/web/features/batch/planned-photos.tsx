// The batch planner's photos: the drop area (with its picker button) and the list of those planned.
import { useDropzone } from 'react-dropzone';
import { ACCEPTED_IMAGES } from '../../lib/file-check.ts';
import { MAX_BATCH } from './batch-plan.ts';
import type { PlannedPhoto } from './use-planned-photos.ts';

export function PhotoDrop({ onFiles, full }: { onFiles: (files: File[]) => void; full: boolean }) {
  // Every file goes through Kiln's own check (by content), so nothing is filtered here; a real
  // button opens the picker (the drop area itself is not a control).
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    onDrop: (accepted) => onFiles(accepted),
    multiple: true,
    disabled: full,
    noClick: true,
    noKeyboard: true,
  });
  return (
    <div
      {...getRootProps({
        className: `batch-drop${isDragActive ? ' active' : ''}${full ? ' disabled' : ''}`,
      })}
    >
      <input {...getInputProps({ name: 'photos' })} data-testid="batch-file-input" />
      <button type="button" className="primary" onClick={open} disabled={full}>
        Choose photos
      </button>
      <span className="muted small">
        {full
          ? `${MAX_BATCH} photos: the batch is full.`
          : isDragActive
            ? 'Drop them here'
            : `…or drop up to ${MAX_BATCH} here. One task per photo; ${ACCEPTED_IMAGES} each.`}
      </span>
    </div>
  );
}

/** The planned photos, each with its preview (or why it cannot be used) and Remove. */
export function PhotoList({
  photos,
  onRemove,
}: {
  photos: readonly PlannedPhoto[];
  onRemove: (id: string) => void;
}) {
  return (
    <ul className="batch-photo-list" aria-label="Photos in this batch">
      {photos.map((p) => (
        <li key={p.id} className={p.problem ? 'bad' : undefined}>
          {p.problem ? (
            <span className="batch-photo-bad" aria-hidden="true">
              ✕
            </span>
          ) : (
            <img src={p.preview} alt="" />
          )}
          <span className="batch-photo-name" title={p.file.name}>
            {p.file.name}
          </span>
          {p.problem === undefined && <span className="muted small">Checking…</span>}
          {p.problem && (
            <span className="error small" role="alert">
              {p.problem}
            </span>
          )}
          <button
            type="button"
            className="small"
            onClick={() => onRemove(p.id)}
            aria-label={`Remove ${p.file.name}`}
          >
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
