import type { ModelChoice } from '../../api/tasks.ts';
import { formatNumber } from '../../lib/entry-format.ts';

const KIND_LABEL = { image: 'One photo', multiview: '2–4 photos', text: 'Text prompt' } as const;

export function ModelPicker({
  models,
  value,
  onChange,
  error,
  balance = null,
}: {
  models: ModelChoice[];
  value: string;
  onChange: (id: string) => void;
  error?: string | undefined;
  /** The last known balance: models it cannot pay for say so up front. */
  balance?: number | null;
}) {
  return (
    <fieldset className="model-picker" aria-describedby={error ? 'model-error' : undefined}>
      <legend>Model</legend>
      <div className="model-grid">
        {models.map((m) => {
          const short = cannotAfford(m, balance);
          return (
            <label
              key={m.id}
              className={`model-option${m.id === value ? ' selected' : ''}${short ? ' unaffordable' : ''}`}
            >
              <input
                type="radio"
                name="model"
                value={m.id}
                checked={m.id === value}
                onChange={() => onChange(m.id)}
              />
              <span className="model-name">{m.id}</span>
              <span className="model-meta">
                {KIND_LABEL[m.input]}
                {m.credits !== null && ` · ${m.credits} credits`}
              </span>
              {m.description && <span className="model-desc">{m.description}</span>}
              {short && <span className="model-short">{short}</span>}
            </label>
          );
        })}
      </div>
      {error && (
        <p id="model-error" className="error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** "Needs 30 credits; you have 5." when the known balance cannot pay for the model, else null. */
export function cannotAfford(
  model: Pick<ModelChoice, 'credits'>,
  balance: number | null,
): string | null {
  if (balance === null || model.credits === null || model.credits <= balance) return null;
  return `Needs ${formatNumber(model.credits)} credits; you have ${formatNumber(balance)}.`;
}
