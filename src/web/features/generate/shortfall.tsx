import type { ModelChoice } from '../../api/tasks.ts';
import { formatNumber } from '../../lib/entry-format.ts';

/** A model the balance cannot pay for: the shortfall, and the models the balance buys. */
export function Shortfall({
  model,
  balance,
  exact,
  shortBy,
  affordable,
  onPick,
}: {
  model: ModelChoice;
  balance: number;
  exact: boolean;
  shortBy: number;
  affordable: ModelChoice[];
  onPick: (id: string) => void;
}) {
  return (
    <div className="shortfall" data-testid="shortfall" role="status">
      <p>
        <strong>{model.id}</strong> costs {model.credits} credits; your balance is{' '}
        {exact ? '' : 'about '}
        {formatNumber(balance)}: {formatNumber(shortBy)} short.
      </p>
      {affordable.length > 0 ? (
        <p className="shortfall-choices">
          <span>Your balance buys:</span>
          {affordable.map((m) => (
            <button key={m.id} type="button" className="chip-button" onClick={() => onPick(m.id)}>
              {m.id} · {m.credits} credits
            </button>
          ))}
        </p>
      ) : (
        <p>
          No model costs {formatNumber(balance)} credits or less. Add credits to your account with
          the provider of your API key, then come back.
        </p>
      )}
    </div>
  );
}
