import { usePromptVerdicts } from '../../ui/prompt-verdict.tsx';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { useCredits } from '../../api/account.ts';
import { FALLBACK_CHOICES, useModels, type ModelChoice } from '../../api/tasks.ts';
import { ACCEPTED_IMAGES, checkImageFile } from '../../lib/file-check.ts';
import { formatNumber } from '../../lib/entry-format.ts';
import {
  MAX_BATCH,
  blockedReason,
  checkPrice,
  modelsFor,
  parsePromptList,
  type BatchKind,
} from './batch-plan.ts';
import type { NewBatch } from './new-batch.ts';

interface PlannedPhoto {
  id: string;
  file: File;
  preview: string;
  /** null once checked and fine; a sentence when it cannot be used; undefined while checking. */
  problem: string | null | undefined;
}

let photoCounter = 0;
const credits = (n: number) => `${formatNumber(n)} credit${n === 1 ? '' : 's'}`;

/** The photos of the plan: checked by content as they come, previews revoked when they go. */
function usePlannedPhotos() {
  // The list lives in a ref that handlers change (so two quick drops both see the room left),
  // and in state that renders it.
  const list = useRef<PlannedPhoto[]>([]);
  const [photos, setPhotos] = useState<PlannedPhoto[]>([]);
  const [overflow, setOverflow] = useState<string | null>(null);
  const commit = useCallback((next: PlannedPhoto[]) => {
    list.current = next;
    setPhotos(next);
  }, []);
  useEffect(() => {
    const kept = list;
    return () => kept.current.forEach((p) => URL.revokeObjectURL(p.preview));
  }, []);

  const add = useCallback(
    (files: readonly File[]) => {
      const room = MAX_BATCH - list.current.length;
      const taken = files.slice(0, Math.max(0, room));
      const left = files.length - taken.length;
      setOverflow(
        left > 0
          ? `A batch takes at most ${MAX_BATCH} photos; ${left} ${left === 1 ? 'was' : 'were'} left out.`
          : null,
      );
      const fresh = taken.map((file) => ({
        id: `photo-${++photoCounter}`,
        file,
        preview: URL.createObjectURL(file),
        problem: undefined,
      }));
      commit([...list.current, ...fresh]);
      for (const photo of fresh)
        void checkImageFile(photo.file).then((problem) =>
          commit(list.current.map((p) => (p.id === photo.id ? { ...p, problem } : p))),
        );
    },
    [commit],
  );

  const remove = useCallback(
    (id: string) => {
      setOverflow(null);
      const gone = list.current.find((p) => p.id === id);
      if (gone) URL.revokeObjectURL(gone.preview);
      commit(list.current.filter((p) => p.id !== id));
    },
    [commit],
  );

  /** Hands the files over (the batch keeps them) and empties the plan. */
  const takeAll = useCallback((): File[] => {
    const files = list.current.map((p) => p.file);
    list.current.forEach((p) => URL.revokeObjectURL(p.preview));
    commit([]);
    return files;
  }, [commit]);

  return { photos, overflow, add, remove, takeAll };
}

function PhotoDrop({ onFiles, full }: { onFiles: (files: File[]) => void; full: boolean }) {
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

function ModelChoices({
  models,
  value,
  onChange,
  count,
}: {
  models: ModelChoice[];
  value: string | null;
  onChange: (id: string) => void;
  count: number;
}) {
  return (
    <fieldset className="batch-models">
      <legend>Model</legend>
      <div className="batch-model-grid">
        {models.map((m) => (
          <label key={m.id} className={`batch-model${m.id === value ? ' selected' : ''}`}>
            <input
              type="radio"
              name="batch-model"
              value={m.id}
              checked={m.id === value}
              onChange={() => onChange(m.id)}
            />
            <span className="batch-model-name">{m.id}</span>
            <span className="muted small">
              {m.credits === null
                ? 'price not known'
                : `${credits(m.credits)} each${count > 1 ? ` · ${credits(m.credits * count)} for ${count}` : ''}`}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Prompts the demo generator does not know, or makes from a nearby model (mock mode). */
function PromptWarnings({ prompts }: { prompts: readonly string[] }) {
  const verdicts = usePromptVerdicts(prompts);
  if (verdicts.length === 0) return null;
  return (
    <ul
      className="batch-prompt-warnings small"
      aria-label="Prompts the demo generator does not make as written"
    >
      {verdicts.map((v) => (
        <li key={`${v.line}-${v.prompt}`} data-testid="prompt-warning">
          <span aria-hidden="true">⚠ </span>
          Line {v.line}, “{v.prompt.length > 50 ? `${v.prompt.slice(0, 47)}…` : v.prompt}”:{' '}
          {v.check?.message}
        </li>
      ))}
    </ul>
  );
}

/** The batch to be: photos or prompts, one model, and its price against the balance. */
export function BatchPlanner({
  busy,
  onStart,
  onCancel,
}: {
  /** A batch is still being sent: a new one waits. */
  busy: boolean;
  onStart: (plan: NewBatch) => void;
  /** Back to the current batch's board, when there is one. */
  onCancel?: (() => void) | undefined;
}) {
  const ids = useId();
  const [kind, setKind] = useState<BatchKind>('photos');
  const [promptText, setPromptText] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const planned = usePlannedPhotos();
  const listing = useModels();
  const balance = useCredits().data?.balance ?? null;

  const models = useMemo(
    () => modelsFor(kind, listing.data?.models ?? FALLBACK_CHOICES),
    [kind, listing.data],
  );
  const model = models.find((m) => m.id === chosen) ?? models[0] ?? null;
  const promptList = useMemo(() => parsePromptList(promptText), [promptText]);

  // What will be sent, and priced: photos refused by the check are not (they must be removed
  // first, and blockedReason says so).
  const count =
    kind === 'photos' ? planned.photos.filter((p) => !p.problem).length : promptList.prompts.length;
  const checking =
    kind === 'photos' ? planned.photos.filter((p) => p.problem === undefined).length : 0;
  const problems =
    kind === 'photos'
      ? planned.photos.flatMap((p) => (p.problem ? [p.problem] : []))
      : promptList.problems;
  const cheaper =
    model?.credits != null && models.some((m) => m.credits !== null && m.credits < model.credits!);
  const price =
    model && count > 0
      ? checkPrice({ items: count, creditsPerItem: model.credits, balance, cheaper })
      : null;
  const blocked = blockedReason({
    kind,
    items: count,
    checking,
    problems,
    model: model?.id ?? null,
    price,
    busy,
  });

  const start = () => {
    if (blocked || !model) return;
    onStart({
      kind,
      model: model.id,
      creditsPerItem: model.credits,
      ...(kind === 'photos' ? { photos: planned.takeAll() } : { prompts: promptList.prompts }),
    });
    if (kind === 'prompts') setPromptText('');
  };

  const what =
    kind === 'photos' ? (count === 1 ? 'photo' : 'photos') : count === 1 ? 'prompt' : 'prompts';
  return (
    <section className="card batch-planner" aria-labelledby={`${ids}-title`}>
      <div className="batch-planner-head">
        <h2 id={`${ids}-title`}>New batch</h2>
        {onCancel && (
          <button type="button" className="small" onClick={onCancel}>
            Back to the batch
          </button>
        )}
      </div>
      <fieldset className="batch-kind">
        <legend>Make models from</legend>
        <div className="radio-row">
          <label>
            <input
              type="radio"
              name="batch-kind"
              checked={kind === 'photos'}
              onChange={() => setKind('photos')}
            />
            Photos, one model each
          </label>
          <label>
            <input
              type="radio"
              name="batch-kind"
              checked={kind === 'prompts'}
              onChange={() => setKind('prompts')}
            />
            A list of prompts
          </label>
        </div>
      </fieldset>

      {kind === 'photos' ? (
        <div className="batch-photos">
          <PhotoDrop onFiles={planned.add} full={planned.photos.length >= MAX_BATCH} />
          {planned.overflow && (
            <p className="error small" role="alert">
              {planned.overflow}
            </p>
          )}
          {planned.photos.length > 0 && (
            <ul className="batch-photo-list" aria-label="Photos in this batch">
              {planned.photos.map((p) => (
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
                    onClick={() => planned.remove(p.id)}
                    aria-label={`Remove ${p.file.name}`}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : (
        <div className="field batch-prompts">
          <label htmlFor={`${ids}-prompts`}>Prompts, one a line</label>
          <textarea
            id={`${ids}-prompts`}
            rows={8}
            value={promptText}
            onChange={(e) => setPromptText(e.target.value)}
            placeholder={'a red ceramic vase\na wooden chair\na small brass lamp'}
            aria-invalid={promptList.problems.length > 0 ? true : undefined}
            aria-describedby={`${ids}-prompts-help`}
          />
          <p id={`${ids}-prompts-help`} className="muted small">
            {promptList.prompts.length} of at most {MAX_BATCH} prompts; empty lines are skipped.
          </p>
          {promptList.problems.map((p) => (
            <p key={p} className="error small" role="alert">
              {p}
            </p>
          ))}
          <PromptWarnings prompts={promptList.prompts} />
        </div>
      )}

      {models.length > 0 ? (
        <ModelChoices
          models={models}
          value={model?.id ?? null}
          onChange={setChosen}
          count={count}
        />
      ) : (
        <p className="error">No model takes {kind === 'photos' ? 'one photo' : 'a prompt'} here.</p>
      )}

      <div
        className={`batch-price${price?.verdict === 'short' ? ' short' : ''}`}
        data-testid="batch-price"
        aria-live="polite"
      >
        {price && model ? (
          <>
            <p className="batch-total">
              {count} {what} × {model.id}
              {price.total !== null && (
                <>
                  {' = '}
                  <strong>{credits(price.total)}</strong>
                </>
              )}
              {balance !== null && <span className="muted"> · balance {credits(balance)}</span>}
            </p>
            <p
              id={`${ids}-price-message`}
              className={price.verdict === 'short' ? 'error small' : 'muted small'}
            >
              {price.message}
            </p>
          </>
        ) : (
          <p className="muted small">
            The price shows here before anything is sent
            {balance !== null ? `; your balance is ${credits(balance)}.` : '.'}
          </p>
        )}
      </div>

      <div className="batch-go">
        <button
          type="button"
          className="primary"
          onClick={start}
          disabled={blocked !== null}
          aria-describedby={
            blocked === null
              ? undefined
              : blocked === price?.message
                ? `${ids}-price-message`
                : `${ids}-blocked`
          }
        >
          {count > 0 ? `Generate ${count} ${count === 1 ? 'task' : 'tasks'}` : 'Generate'}
        </button>
        {blocked && blocked !== price?.message && (
          <p id={`${ids}-blocked`} className="muted small">
            {blocked}
          </p>
        )}
      </div>
    </section>
  );
}
