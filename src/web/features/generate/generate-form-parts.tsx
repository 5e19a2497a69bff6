import type { ModelChoice } from '../../api/tasks.ts';
import type { CutoutCheck, ViewsCheck } from '../../api/input-check.ts';
import type { ShownError } from '../../lib/describe-error.ts';
import { formatNumber } from '../../lib/entry-format.ts';
import { forgetKey } from '../../lib/key-store.ts';
import type { Shortfall } from './form-request.ts';
import { MultiViewInput, SingleImageInput } from './image-inputs.tsx';
import { PromptInput, type PromptVerdictNow } from './prompt-input.tsx';
import type { ImageItems } from './use-image-items.ts';

/** The inputs the chosen model takes: one photo, 2–4 views, or a prompt. */
export function FormInputs({
  kind,
  single,
  views,
  prompt,
  onPrompt,
  verdict,
  cutouts,
  viewsCheck,
  errorAt,
}: {
  kind: ModelChoice['input'];
  single: ImageItems;
  views: ImageItems;
  prompt: string;
  onPrompt: (value: string) => void;
  verdict: PromptVerdictNow;
  cutouts: readonly (CutoutCheck | undefined)[];
  viewsCheck: ViewsCheck | undefined;
  /** The message of the last submit about this field, if any. */
  errorAt: (field: string) => string | undefined;
}) {
  return (
    <fieldset className="inputs">
      <legend>
        {kind === 'text' ? 'Describe it' : kind === 'multiview' ? 'Photos (2–4 views)' : 'Photo'}
      </legend>
      {kind === 'image' && (
        <SingleImageInput images={single} error={errorAt('image_url')} cutout={cutouts[0]} />
      )}
      {kind === 'multiview' && (
        <MultiViewInput
          images={views}
          error={errorAt('image_urls') ?? errorAt('image_url')}
          cutouts={cutouts}
          viewsCheck={viewsCheck}
        />
      )}
      {kind === 'text' && (
        <PromptInput
          value={prompt}
          onChange={onPrompt}
          verdict={verdict}
          error={errorAt('prompt')}
        />
      )}
    </fieldset>
  );
}

/**
 * What the last submit said about the key or the form as a whole (a refused key offers to
 * change it). A refusal for want of credits is left to the shortfall note when it shows.
 */
export function FormAlerts({ shown, short }: { shown: ShownError | null; short: boolean }) {
  if (shown?.at === 'key')
    return (
      <div className="form-error" role="alert">
        <p>{shown.message}</p>
        <button type="button" onClick={() => forgetKey()}>
          Change key
        </button>
      </div>
    );
  if ((shown?.at === 'form' || shown?.at === 'mode') && !(shown.credits && short))
    return (
      <p className="form-error" role="alert">
        {shown.message}
      </p>
    );
  return null;
}

/**
 * What the balance can buy, said before anything is sent (as the batch planner does): the
 * chosen model's shortfall, and the models the balance pays for (a click picks one).
 */
export function ShortfallNote({
  model,
  shortfall: { balance, exact, shortBy, affordable },
  onPick,
}: {
  model: ModelChoice;
  shortfall: Shortfall;
  onPick: (id: string) => void;
}) {
  if (shortBy <= 0 || balance === null) return null;
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

/** What Generate says: what it is doing or waiting for, else whether it goes ahead anyway. */
function generateLabel(state: {
  kind: ModelChoice['input'];
  pending: boolean;
  wait: boolean;
  checkingPrompt: boolean;
  checkingPhotos: boolean;
  cautioned: boolean;
}): string {
  if (state.pending) return state.wait ? 'Generating… (waiting)' : 'Starting…';
  if (state.checkingPrompt) return 'Checking the prompt…';
  if (state.checkingPhotos)
    return state.kind === 'multiview' ? 'Checking the views…' : 'Checking the photo…';
  return state.cautioned ? 'Generate anyway' : 'Generate';
}

/** Generate, and beside it the model's price and the balance. */
export function SubmitRow({
  disabled,
  price,
  vendorPrice,
  shortfall,
  ...state
}: Parameters<typeof generateLabel>[0] & {
  disabled: boolean;
  price: number | null;
  /** A provider's model: its price in its own unit, and no Kiln balance beside it. */
  vendorPrice: string | null;
  shortfall: Shortfall;
}) {
  const { balance, exact } = shortfall;
  return (
    <div className="submit-row">
      <button
        type="submit"
        className="primary big"
        disabled={disabled}
        aria-describedby="price-note"
      >
        {generateLabel(state)}
      </button>
      <span id="price-note" className="muted small">
        {vendorPrice ?? ''}
        {price !== null ? `${price} credits` : ''}
        {balance != null && vendorPrice === null
          ? ` · balance ${exact ? '' : 'about '}${formatNumber(balance)}`
          : ''}
      </span>
    </div>
  );
}
