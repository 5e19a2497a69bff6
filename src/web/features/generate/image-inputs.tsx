import { useEffect, useId, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { LIMITS } from '../../../contract/index.ts';
import type { ImageItem, ImageItems } from './use-image-items.ts';

function ItemStatus({ item }: { item: ImageItem }) {
  if (item.status === 'error')
    return (
      <p className="error small" role="alert">
        {item.error}
      </p>
    );
  if (item.status === 'ready') return <span className="ok small">Ready</span>;
  const pct = Math.round(item.progress * 100);
  return (
    <div className="upload-progress">
      <div
        className="progress"
        role="progressbar"
        aria-label={`Uploading ${item.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
      >
        <span style={{ width: `${pct}%` }} />
      </div>
      <span className="muted small">
        {item.status === 'checking' ? 'Checking…' : `Uploading ${pct}%`}
      </span>
    </div>
  );
}

function Drop({
  onFiles,
  multiple,
  label,
  hint,
  disabled,
}: {
  onFiles: (files: File[]) => void;
  multiple: boolean;
  label: string;
  hint: string;
  disabled?: boolean;
}) {
  // Every file goes through Kiln's own check (by content), so nothing is filtered silently here.
  // The drop area is a plain region; a real button opens the file picker (no nested controls).
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    onDrop: (accepted) => onFiles(accepted),
    multiple,
    disabled: disabled ?? false,
    noClick: true,
    noKeyboard: true,
  });
  return (
    <div
      {...getRootProps({
        className: `dropzone${isDragActive ? ' active' : ''}${disabled ? ' disabled' : ''}`,
      })}
    >
      <input {...getInputProps({ name: 'file' })} data-testid="file-input" />
      <button type="button" className="primary" onClick={open} disabled={disabled}>
        {label}
      </button>
      <span className="muted small">{isDragActive ? 'Drop it here' : hint}</span>
    </div>
  );
}

/** Paste an image from the clipboard anywhere on the page. */
function usePasteImages(onFiles: (files: File[]) => void, enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    const onPaste = (e: ClipboardEvent) => {
      const files = [...(e.clipboardData?.files ?? [])];
      if (files.length === 0) return;
      const target = e.target as HTMLElement | null;
      if (
        target &&
        (target.tagName === 'TEXTAREA' ||
          (target.tagName === 'INPUT' && (target as HTMLInputElement).type !== 'file'))
      )
        return;
      e.preventDefault();
      onFiles(files);
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, [onFiles, enabled]);
}

function UrlField({ onUrl, error }: { onUrl: (url: string) => void; error?: string | undefined }) {
  const id = useId();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const v = value.trim();
    if (!/^(https?:\/\/|data:image\/)/i.test(v)) {
      setProblem('Paste a full image link starting with http:// or https://.');
      return;
    }
    setProblem(null);
    onUrl(v);
    setValue('');
  };
  const shown = problem ?? error;
  return (
    <div className="field url-field">
      <label htmlFor={id}>…or paste an image URL</label>
      <div className="row">
        <input
          id={id}
          type="url"
          inputMode="url"
          placeholder="https://example.com/photo.jpg"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? `${id}-error` : undefined}
        />
        <button type="button" onClick={add} disabled={!value.trim()}>
          Use URL
        </button>
      </div>
      {shown && (
        <p id={`${id}-error`} className="error small" role="alert">
          {shown}
        </p>
      )}
    </div>
  );
}

export function SingleImageInput({
  images,
  error,
}: {
  images: ImageItems;
  error?: string | undefined;
}) {
  const item = images.items[0];
  const onFiles = (files: File[]) => {
    if (files[0]) images.addFiles([files[0]], true);
  };
  usePasteImages(onFiles, true);
  return (
    <div className="image-input">
      {item ? (
        <div className="single-preview">
          {item.preview && <img src={item.preview} alt={`Preview of ${item.name}`} />}
          <div className="single-meta">
            <strong className="file-name">{item.name}</strong>
            <ItemStatus item={item} />
            <button type="button" className="small" onClick={() => images.remove(item.id)}>
              Remove
            </button>
          </div>
        </div>
      ) : (
        <Drop
          onFiles={onFiles}
          multiple={false}
          label="Choose a photo"
          hint="…or drop it here, or paste it. PNG, JPEG or WebP up to 20 MB."
        />
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!item && <UrlField onUrl={(u) => images.addUrl(u, true)} />}
    </div>
  );
}

export function MultiViewInput({
  images,
  error,
}: {
  images: ImageItems;
  error?: string | undefined;
}) {
  const count = images.items.length;
  const full = count >= LIMITS.maxImages;
  const [overflow, setOverflow] = useState<string | null>(null);
  const onFiles = (files: File[]) => {
    const dropped = images.addFiles(files);
    setOverflow(
      dropped > 0
        ? `Only ${LIMITS.maxImages} views fit; ${dropped} ${dropped === 1 ? 'was' : 'were'} left out.`
        : null,
    );
  };
  usePasteImages(onFiles, !full);
  return (
    <div className="image-input">
      <p
        className={`count-rule${count > 0 && count < LIMITS.minImages ? ' error' : ' muted'}`}
        aria-live="polite"
      >
        {count} of {LIMITS.minImages}–{LIMITS.maxImages} views of the same object.
        {count > 0 && count < LIMITS.minImages ? ` Add ${LIMITS.minImages - count} more.` : ''}
      </p>
      {count > 0 && (
        <ol className="views">
          {images.items.map((it, i) => (
            <li key={it.id} className="view">
              {it.preview ? (
                <img src={it.preview} alt={`View ${i + 1}: ${it.name}`} />
              ) : (
                <div className="thumb-blank" />
              )}
              <span className="small view-name">
                {i + 1}. {it.name}
              </span>
              <ItemStatus item={it} />
              <div className="view-actions">
                <button
                  type="button"
                  className="small"
                  onClick={() => images.move(it.id, -1)}
                  disabled={i === 0}
                  aria-label={`Move view ${i + 1} earlier`}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="small"
                  onClick={() => images.move(it.id, 1)}
                  disabled={i === count - 1}
                  aria-label={`Move view ${i + 1} later`}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="small"
                  onClick={() => images.remove(it.id)}
                  aria-label={`Remove view ${i + 1}`}
                >
                  ✕
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
      {!full && (
        <Drop
          onFiles={onFiles}
          multiple
          label={count === 0 ? 'Choose 2–4 photos' : 'Add another view'}
          hint="…or drop them here. Front first, then the other sides. PNG, JPEG or WebP up to 20 MB each."
        />
      )}
      {overflow && (
        <p className="error small" role="alert">
          {overflow}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!full && <UrlField onUrl={(u) => images.addUrl(u)} />}
    </div>
  );
}
