import type { ProviderModelRecord } from '../../api/providers.ts';
import type { ModelChoice } from '../../api/tasks.ts';
import { formatNumber } from '../../lib/entry-format.ts';
import { KIND_LABEL, vendorPriceWords } from '../../lib/model-offers.ts';

/** A connected provider's models for the picker, as they load. */
export interface VendorGroup {
  provider: string;
  label: string;
  models: ProviderModelRecord[];
  /** Why its models are not listed (its key refused, the vendor unreachable), or loading. */
  note: string | null;
}

/** One model to choose: its name, what it takes at what price, and why it cannot be paid for. */
function ModelOption(p: {
  id: string;
  name: string;
  meta: string;
  description?: string | null | undefined;
  short: string | null | undefined;
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <label
      className={`model-option${p.id === p.value ? ' selected' : ''}${p.short ? ' unaffordable' : ''}`}
    >
      <input
        type="radio"
        name="model"
        value={p.id}
        checked={p.id === p.value}
        onChange={() => p.onChange(p.id)}
      />
      <span className="model-name">{p.name}</span>
      <span className="model-meta">{p.meta}</span>
      {p.description && <span className="model-desc">{p.description}</span>}
      {p.short && <span className="model-short">{p.short}</span>}
    </label>
  );
}

export function ModelPicker({
  models,
  vendors = [],
  value,
  onChange,
  error,
  balance = null,
}: {
  models: ModelChoice[];
  /** Each connected provider's models, after the spec's. */
  vendors?: VendorGroup[];
  value: string;
  onChange: (id: string) => void;
  error?: string | undefined;
  /** The last known balance: models it cannot pay for say so up front. */
  balance?: number | null;
}) {
  const grouped = vendors.length > 0;
  const specGrid = (
    <div className="model-grid">
      {models.map((m) => {
        const short = cannotAfford(m, balance);
        return (
          <ModelOption
            key={m.id}
            id={m.id}
            name={m.id}
            meta={`${KIND_LABEL[m.input]}${m.credits !== null ? ` · ${m.credits} credits` : ''}`}
            description={m.description}
            short={short}
            value={value}
            onChange={onChange}
          />
        );
      })}
    </div>
  );
  return (
    <fieldset className="model-picker" aria-describedby={error ? 'model-error' : undefined}>
      <legend>Model</legend>
      {grouped ? (
        <>
          <div role="group" aria-labelledby="model-group-spec" className="model-group">
            <h3 id="model-group-spec" className="model-group__title">
              Kiln API
            </h3>
            {specGrid}
          </div>
          {vendors.map((g) => (
            <div
              key={g.provider}
              role="group"
              aria-labelledby={`model-group-${g.provider}`}
              className="model-group"
              data-testid={`models-${g.provider}`}
            >
              <h3 id={`model-group-${g.provider}`} className="model-group__title">
                {g.label}
              </h3>
              {g.note && <p className="muted small">{g.note}</p>}
              <div className="model-grid">
                {g.models.map((m) => (
                  <ModelOption
                    key={m.id}
                    id={m.id}
                    name={m.label}
                    meta={vendorPriceWords(m)}
                    description={m.description}
                    short={null}
                    value={value}
                    onChange={onChange}
                  />
                ))}
              </div>
            </div>
          ))}
        </>
      ) : (
        specGrid
      )}
      {error && (
        <p id="model-error" className="error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

const INPUT_KIND_WORDS = { image: 'One photo', multiview: '2–4 photos', text: 'A prompt' } as const;

/** A provider's model that takes several inputs: which one to make it from. */
export function InputKindChoice({
  inputs,
  value,
  onChange,
}: {
  inputs: readonly ('image' | 'multiview' | 'text')[];
  value: string;
  onChange: (kind: 'image' | 'multiview' | 'text') => void;
}) {
  if (inputs.length < 2) return null;
  return (
    <fieldset className="input-kind-row">
      <legend>Make it from</legend>
      {inputs.map((k) => (
        <label key={k}>
          <input
            type="radio"
            name="input-kind"
            checked={value === k}
            onChange={() => onChange(k)}
          />
          {INPUT_KIND_WORDS[k]}
        </label>
      ))}
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
