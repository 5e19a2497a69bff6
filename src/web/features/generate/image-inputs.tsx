import { useEffect, useId, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { LIMITS } from '../../../contract/index.ts';
import { ACCEPTED_IMAGES } from '../../lib/file-check.ts';
import type { CutoutCheck, ViewsCheck } from '../../api/input-check.ts';
import { CutoutFigure, CutoutKey, CutoutWords, ViewsVerdict } from '../../ui/input-check.tsx';
import type { ImageItem, ImageItems } from './use-image-items.ts';

function ItemStatus({ item, cutout }: { item: ImageItem; cutout?: CutoutCheck | undefined }) {
  if (item.status === 'error')
    return (
      <p className="error small" role="alert">
        {item.error}
      </p>
    );
  if (item.status === 'ready')
    return cutout?.usable === false ? null : <span className="ok small">Ready</span>;
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

/**
 * Focus that fell to the page because the control holding it went away (the file picker's
 * button once a photo is chosen, Remove once it is removed, the URL field once a URL is used):
 * when `shows` changes, it goes to the first button of the input instead (issue 32).
 */
function useFocusKept(shows: string) {
  const root = useRef<HTMLDivElement>(null);
  const before = useRef(shows);
  useEffect(() => {
    if (before.current === shows) return;
    before.current = shows;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    root.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }, [shows]);
  return root;
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
        <button type="button" className="nowrap" onClick={add} disabled={!value.trim()}>
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
  cutout,
}: {
  images: ImageItems;
  error?: string | undefined;
  /** What the demo generator will model of the photo (mock mode). */
  cutout?: CutoutCheck | undefined;
}) {
  const item = images.items[0];
  const onFiles = (files: File[]) => {
    if (files[0]) images.addFiles([files[0]], true);
  };
  usePasteImages(onFiles, true);
  const root = useFocusKept(item?.id ?? '');
  return (
    <div className="image-input" ref={root}>
      {item ? (
        <div className="single-preview">
          {item.preview && (
            <CutoutFigure src={item.preview} alt={`Preview of ${item.name}`} check={cutout} />
          )}
          <div className="single-meta">
            <strong className="file-name">{item.name}</strong>
            <ItemStatus item={item} cutout={cutout} />
            <CutoutWords check={cutout} />
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
          hint={`…or drop it here, or paste it. ${ACCEPTED_IMAGES}.`}
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

/** The sides the views are taken as, in order (the generator's front, right, back, left). */
const VIEW_SIDES = [
  { id: 'front', label: 'Front' },
  { id: 'right', label: 'Right side' },
  { id: 'back', label: 'Back' },
  { id: 'left', label: 'Left side' },
] as const;

/** Seen from above: the object, and where each of the four photos is taken from. */
function ViewDiagram() {
  const at = [
    { n: 1, x: 50, y: 88 },
    { n: 2, x: 88, y: 50 },
    { n: 3, x: 50, y: 12 },
    { n: 4, x: 12, y: 50 },
  ];
  return (
    <svg
      className="view-diagram"
      viewBox="0 0 100 100"
      role="img"
      aria-label="Seen from above: photo 1 from the front, 2 from the right side, 3 from the back, 4 from the left side"
    >
      <circle
        cx="50"
        cy="50"
        r="36"
        fill="none"
        stroke="currentColor"
        strokeDasharray="3 4"
        opacity="0.5"
      />
      <rect x="38" y="38" width="24" height="24" rx="4" fill="currentColor" opacity="0.25" />
      <text x="50" y="67" textAnchor="middle" fontSize="8" fill="currentColor">
        front
      </text>
      {at.map((p) => (
        <g key={p.n}>
          <circle cx={p.x} cy={p.y} r="9" fill="var(--accent, #c2410c)" />
          <text
            x={p.x}
            y={p.y + 3.5}
            textAnchor="middle"
            fontSize="10"
            fill="#fff"
            fontWeight="700"
          >
            {p.n}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** How to take the views: the diagram from above, and the order in words. */
function ViewGuide() {
  return (
    <div className="view-guide">
      <ViewDiagram />
      <p className="small">
        Walk around the object to your right, one photo per side, in this order:{' '}
        <strong>1 front</strong>, <strong>2 right</strong> (the side on your right as you face the
        front), <strong>3 back</strong>, <strong>4 left</strong>. With two photos, the second is the
        right side, not the back; with three, front, right and back.
      </p>
    </div>
  );
}

/** One view of the list: its side, its picture (cut out), its state, and moving or removing it. */
function ViewItem({
  item: it,
  at: i,
  count,
  images,
  cutout,
}: {
  item: ImageItem;
  /** Its place in the list, from 0. */
  at: number;
  count: number;
  images: ImageItems;
  cutout: CutoutCheck | undefined;
}) {
  const side = VIEW_SIDES[i]!;
  return (
    <li className="view" data-side={side.id}>
      <span className="view-side">
        {i + 1} · {side.label}
      </span>
      {it.preview ? (
        <CutoutFigure
          src={it.preview}
          alt={`View ${i + 1}, ${side.id}: ${it.name}`}
          check={cutout}
        />
      ) : (
        <div className="thumb-blank" />
      )}
      <span className="small view-name">{it.name}</span>
      <ItemStatus item={it} cutout={cutout} />
      <CutoutWords check={cutout} compact />
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
  );
}

export function MultiViewInput({
  images,
  error,
  cutouts = [],
  viewsCheck,
}: {
  images: ImageItems;
  error?: string | undefined;
  /** What the demo generator will model of each view, in order (mock mode). */
  cutouts?: readonly (CutoutCheck | undefined)[];
  /** Whether the views show one object (mock mode). */
  viewsCheck?: ViewsCheck | undefined;
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
  const next = VIEW_SIDES[Math.min(count, VIEW_SIDES.length - 1)]!;
  const root = useFocusKept(images.items.map((i) => i.id).join());
  return (
    <div className="image-input" ref={root}>
      <p
        className={`count-rule${count > 0 && count < LIMITS.minImages ? ' error' : ' muted'}`}
        aria-live="polite"
      >
        {count} of {LIMITS.minImages}–{LIMITS.maxImages} views of the same object.
        {count > 0 && count < LIMITS.minImages ? ` Add ${LIMITS.minImages - count} more.` : ''}
      </p>
      <ViewGuide />
      {count > 0 && (
        <ol className="views">
          {images.items.map((it, i) => (
            <ViewItem
              key={it.id}
              item={it}
              at={i}
              count={count}
              images={images}
              cutout={cutouts[i]}
            />
          ))}
        </ol>
      )}
      {cutouts.some((c) => c?.usable) && (
        <p className="small cutout-words">
          <CutoutKey /> Each photo as Kiln will model it.
        </p>
      )}
      <ViewsVerdict check={viewsCheck} />
      {!full && (
        <Drop
          onFiles={onFiles}
          multiple
          label={
            count === 0
              ? 'Choose 2–4 photos'
              : `Add view ${count + 1}: the ${next.id}${next.id === 'front' ? '' : ' side'}`
          }
          hint={`…or drop them here, in the order above. ${ACCEPTED_IMAGES} each.`}
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
