import type { ModelChoice } from '../../api/models-query.ts';

const KIND_LABEL = { image: 'One photo', multiview: '2–4 photos', text: 'Text prompt' } as const;

export function ModelPicker({
  models,
  value,
  onChange,
  error,
}: {
  models: ModelChoice[];
  value: string;
  onChange: (id: string) => void;
  error?: string | undefined;
}) {
  return (
    <fieldset className="model-picker" aria-describedby={error ? 'model-error' : undefined}>
      <legend>Model</legend>
      <div className="model-grid">
        {models.map((m) => (
          <label key={m.id} className={`model-option${m.id === value ? ' selected' : ''}`}>
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
          </label>
        ))}
      </div>
      {error && (
        <p id="model-error" className="error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
