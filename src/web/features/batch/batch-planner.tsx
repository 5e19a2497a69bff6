import { usePromptVerdicts } from '../../ui/prompt-verdict.tsx';
import { useId, useMemo, useState } from 'react';
import { useCredits } from '../../api/account.ts';
import { FALLBACK_CHOICES, useModels, type ModelChoice } from '../../api/tasks.ts';
import { formatNumber } from '../../lib/entry-format.ts';
import {
  MAX_BATCH,
  blockedReason,
  checkPrice,
  modelsFor,
  parsePromptList,
  type BatchKind,
  type PriceCheck,
  type PromptList,
} from './batch-plan.ts';
import type { NewBatch } from './new-batch.ts';
import { PhotoDrop, PhotoList } from './planned-photos.tsx';
import { usePlannedPhotos, type PlannedPhoto } from './use-planned-photos.ts';

const credits = (n: number) => `${formatNumber(n)} credit${n === 1 ? '' : 's'}`;

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

/** Photos or prompts: what the batch makes its models from. */
function KindChoice({ kind, onKind }: { kind: BatchKind; onKind: (kind: BatchKind) => void }) {
  return (
    <fieldset className="batch-kind">
      <legend>Make models from</legend>
      <div className="radio-row">
        <label>
          <input
            type="radio"
            name="batch-kind"
            checked={kind === 'photos'}
            onChange={() => onKind('photos')}
          />
          Photos, one model each
        </label>
        <label>
          <input
            type="radio"
            name="batch-kind"
            checked={kind === 'prompts'}
            onChange={() => onKind('prompts')}
          />
          A list of prompts
        </label>
      </div>
    </fieldset>
  );
}

/** The prompts, one a line, with their count, what is wrong with the list, and their warnings. */
function PromptsField({
  id,
  text,
  list,
  onText,
}: {
  id: string;
  text: string;
  list: PromptList;
  onText: (text: string) => void;
}) {
  return (
    <div className="field batch-prompts">
      <label htmlFor={`${id}-prompts`}>Prompts, one a line</label>
      <textarea
        id={`${id}-prompts`}
        rows={8}
        value={text}
        onChange={(e) => onText(e.target.value)}
        placeholder={'a red ceramic vase\na wooden chair\na small brass lamp'}
        aria-invalid={list.problems.length > 0 ? true : undefined}
        aria-describedby={`${id}-prompts-help`}
      />
      <p id={`${id}-prompts-help`} className="muted small">
        {list.prompts.length} of at most {MAX_BATCH} prompts; empty lines are skipped.
      </p>
      {list.problems.map((p) => (
        <p key={p} className="error small" role="alert">
          {p}
        </p>
      ))}
      <PromptWarnings prompts={list.prompts} />
    </div>
  );
}

/** What the batch costs against the balance, or that the price shows here before sending. */
function PriceSummary({
  id,
  count,
  what,
  model,
  price,
  balance,
}: {
  id: string;
  count: number;
  /** "photo", "prompts"… */
  what: string;
  model: ModelChoice | null;
  price: PriceCheck | null;
  balance: number | null;
}) {
  return (
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
            id={`${id}-price-message`}
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
  );
}

/**
 * The plan as it stands: the models that take its kind and the one chosen, how many items will be
 * sent (photos refused by the check are not: they must be removed first, and `blocked` says so),
 * its price against the balance, and why it cannot start yet (null when it can).
 */
function useBatchPlan({
  kind,
  chosen,
  photos,
  promptList,
  busy,
}: {
  kind: BatchKind;
  chosen: string | null;
  photos: readonly PlannedPhoto[];
  promptList: PromptList;
  busy: boolean;
}) {
  const listing = useModels();
  const balance = useCredits().data?.balance ?? null;
  const models = useMemo(
    () => modelsFor(kind, listing.data?.models ?? FALLBACK_CHOICES),
    [kind, listing.data],
  );
  const model = models.find((m) => m.id === chosen) ?? models[0] ?? null;
  const count =
    kind === 'photos' ? photos.filter((p) => !p.problem).length : promptList.prompts.length;
  const checking = kind === 'photos' ? photos.filter((p) => p.problem === undefined).length : 0;
  const problems =
    kind === 'photos' ? photos.flatMap((p) => (p.problem ? [p.problem] : [])) : promptList.problems;
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
  return { models, model, count, price, balance, blocked };
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
  const promptList = useMemo(() => parsePromptList(promptText), [promptText]);
  const { models, model, count, price, balance, blocked } = useBatchPlan({
    kind,
    chosen,
    photos: planned.photos,
    promptList,
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
      <KindChoice kind={kind} onKind={setKind} />

      {kind === 'photos' ? (
        <div className="batch-photos">
          <PhotoDrop onFiles={planned.add} full={planned.photos.length >= MAX_BATCH} />
          {planned.overflow && (
            <p className="error small" role="alert">
              {planned.overflow}
            </p>
          )}
          {planned.photos.length > 0 && (
            <PhotoList photos={planned.photos} onRemove={planned.remove} />
          )}
        </div>
      ) : (
        <PromptsField id={ids} text={promptText} list={promptList} onText={setPromptText} />
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

      <PriceSummary
        id={ids}
        count={count}
        what={what}
        model={model}
        price={price}
        balance={balance}
      />

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
