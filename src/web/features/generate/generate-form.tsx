import { useEffect, useRef, useState, type FormEvent } from 'react';
import { LIMITS, type InputKind, type Task } from '../../../contract/index.ts';
import { AuthenticationError } from '../../../client/index.ts';
import { useCredits } from '../../api/account.ts';
import { FALLBACK_CHOICES, useModels, type ModelChoice } from '../../api/tasks.ts';
import { describeError, type ShownError } from '../../lib/describe-error.ts';
import { clearDraft, readDraft, type Draft } from '../../lib/draft.ts';
import { draftImages, inputProblem, requestBody, shortfallOf } from './form-request.ts';
import { FormAlerts, FormInputs, ShortfallNote, SubmitRow } from './generate-form-parts.tsx';
import { useConnectedModels, type ProviderModelRecord } from '../../api/providers.ts';
import { InputKindChoice, ModelPicker, type VendorGroup } from './model-picker.tsx';
import { requestKind, vendorPriceWords } from '../../lib/model-offers.ts';
import { useVendorCreate } from './use-vendor-create.ts';
import { usePromptVerdictNow } from './prompt-input.tsx';
import { useCreateOnce, type OnWaiting } from './use-create-once.ts';
import { useImageItems } from './use-image-items.ts';
import { usePhotoCheck } from './use-photo-check.ts';

/**
 * Entering the studio (from the key screen, or another page) puts focus on the form's heading
 * once it shows, when nothing else holds focus.
 */
function useHeadingFocus(ready: boolean) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (ready && (document.activeElement === document.body || !document.activeElement))
      headingRef.current?.focus();
  }, [ready]);
  return headingRef;
}

/**
 * What the form holds, loaded from a task's input handed back by "Try again" (its input was at
 * fault) when there is one: the model, the photo or the views, the prompt, the mode.
 */
function useFormInputs(draft: Draft | null) {
  const images = draftImages(draft);
  const [modelId, setModelId] = useState<string>(draft?.body.model ?? 'alpha');
  const single = useImageItems(1, draft?.body.image_url ? images : []);
  const views = useImageItems(LIMITS.maxImages, draft?.body.image_urls ? images : []);
  const [prompt, setPrompt] = useState(draft?.body.prompt ?? '');
  const [wait, setWait] = useState(draft?.body.mode === 'sync');
  // What the inputs are now, in one string: an error said about them goes once they change.
  const inputs = `${modelId}|${[...single.items, ...views.items].map((i) => `${i.id}:${i.status}`).join(',')}|${prompt}`;
  return { modelId, setModelId, single, views, prompt, setPrompt, wait, setWait, inputs };
}

/** The studio's form: model, inputs for that model, mode, Generate. */
export function GenerateForm({
  onCreated,
  onWaiting,
}: {
  onCreated: (task: Task) => void;
  /** A sync create started (what it makes, since when), or ended (null). */
  onWaiting?: OnWaiting;
}) {
  const models = useModels();
  const credits = useCredits();
  const choices: ModelChoice[] = models.data?.models ?? (models.isError ? FALLBACK_CHOICES : []);
  const [draft] = useState(readDraft);
  // Cleared once the form is on screen: a first render React discards (a lazy part suspending)
  // runs this hook's state again and must read the same draft.
  useEffect(() => clearDraft(), []);
  const form = useFormInputs(draft);
  const { modelId, single, views, prompt, wait, inputs } = form;
  const { vendors, vendorModel, vendorChoice, setVendorKind } = useVendorChoice(modelId, draft);
  const model = vendorChoice ?? choices.find((m) => m.id === modelId) ?? choices[0];
  // What the demo generator makes of the prompt as typed now: Generate waits for it (issue 32).
  const verdict = usePromptVerdictNow(prompt);
  // What the last submit said, and the inputs it said it about: a field's error goes as soon as
  // the field changes (a refused key stays until the key changes). A draft's error is about the
  // inputs as loaded.
  const [submitted, setSubmitted] = useState<(ShownError & { inputs: string }) | null>(() =>
    draft?.error ? { ...draft.error, inputs } : null,
  );
  const create = useCreateOnce(onCreated, onWaiting);
  const vendor = useVendorSubmit(onCreated);
  const pending = create.pending || vendor.pending;
  const headingRef = useHeadingFocus(!models.isPending);
  const images = model?.input === 'multiview' ? views : single;
  const check = usePhotoCheck(model?.input, images.items);

  if (models.isPending) return <p className="muted">Loading models…</p>;
  if (!model) return <p className="error">No models are available.</p>;
  const kind = model.input;
  const setShown = (error: ShownError | null) => setSubmitted(error && { ...error, inputs });
  const pick = (id: string) => (form.setModelId(id), setShown(null));
  // A refused key shows at once, before any submit: the models listing already told us.
  const shown =
    (submitted && (submitted.at === 'key' || submitted.inputs === inputs) ? submitted : null) ??
    (models.error instanceof AuthenticationError ? describeError(models.error) : null);
  const errorAt = (field: string) => (shown?.at === field ? shown.message : undefined);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (create.busy() || vendor.busy()) return;
    const urls = images.items.map((i) => i.url ?? '');
    if (vendorModel) return vendor.send(vendorModel, kind, { urls, prompt }, setShown);
    const req = requestBody(model, { prompt, items: images.items, wait });
    const problem = inputProblem(kind, images.items, check.refusedAt, req);
    if (problem) return setShown(problem);
    setShown(null);
    create.send(req, model, credits.data?.balance ?? null, setShown);
  };

  // What the balance can buy: Generate waits for enough credits when the balance is exact.
  const shortfall = shortfallOf(model, choices, credits.data);
  const checkingPrompt = kind === 'text' && verdict.checking;
  const busyUploads = images.items.some((i) => i.status === 'checking' || i.status === 'uploading');
  const disabled =
    pending ||
    busyUploads ||
    checkingPrompt ||
    check.checking ||
    (shortfall.shortBy > 0 && shortfall.exact);

  return (
    <form
      className="generate-form card"
      onSubmit={submit}
      noValidate
      aria-labelledby="generate-title"
    >
      <h2 id="generate-title" ref={headingRef} tabIndex={-1}>
        New model
      </h2>
      <ModelPicker
        models={choices}
        value={model.id}
        vendors={vendors}
        onChange={pick}
        error={errorAt('model')}
        balance={shortfall.balance}
      />
      {vendorModel && (
        <InputKindChoice
          inputs={vendorModel.inputs}
          value={kind}
          onChange={(k) => (setVendorKind(k), setShown(null))}
        />
      )}
      {models.data?.fallback && (
        <p className="muted small">
          The model list could not be loaded; showing the standard models.
        </p>
      )}
      <FormInputs
        kind={kind}
        single={single}
        views={views}
        prompt={prompt}
        onPrompt={form.setPrompt}
        verdict={verdict}
        cutouts={check.cutouts}
        viewsCheck={check.views}
        errorAt={errorAt}
      />
      {!vendorModel && (
        <label className="check">
          <input type="checkbox" checked={wait} onChange={(e) => form.setWait(e.target.checked)} />
          Wait for the result (sync mode; up to 55 s, then it keeps going in the background)
        </label>
      )}
      <FormAlerts shown={shown} short={shortfall.shortBy > 0} />
      <ShortfallNote model={model} shortfall={shortfall} onPick={pick} />
      <SubmitRow
        disabled={disabled}
        price={model.credits}
        vendorPrice={vendorModel ? vendorPriceWords({ ...vendorModel, inputs: [kind] }) : null}
        shortfall={shortfall}
        kind={kind}
        pending={pending}
        wait={wait && !vendorModel}
        checkingPrompt={checkingPrompt}
        checkingPhotos={check.checking}
        cautioned={check.cautioned}
      />
    </form>
  );
}

/** Each connected provider's models, grouped for the picker (none connected: none). */
function useVendorGroups(): VendorGroup[] {
  return useConnectedModels().map(({ provider, label, models, query }) => ({
    provider,
    label,
    models,
    note: query.isPending
      ? 'Loading its models…'
      : query.isError
        ? `Its models could not be listed: ${query.error.message}`
        : null,
  }));
}

/** The provider's model picked, if one is, as the form's choice (its input: the one chosen). */
function useVendorChoice(modelId: string, draft: Draft | null) {
  const vendors = useVendorGroups();
  const vendorModel = vendors.flatMap((g) => g.models).find((m) => m.id === modelId);
  // A provider's model may take several inputs: the one chosen (a draft's), else its first.
  const [vendorKind, setVendorKind] = useState<InputKind>(() =>
    draft ? requestKind(draft.body) : 'image',
  );
  const vendorChoice: ModelChoice | undefined = vendorModel && {
    id: vendorModel.id,
    input: vendorModel.inputs.includes(vendorKind) ? vendorKind : vendorModel.inputs[0]!,
    credits: null,
    description: vendorModel.description,
  };
  return { vendors, vendorModel, vendorChoice, setVendorKind };
}

/** A provider's create from the form, once at a time (a ref: a second click in the same frame sees the first). */
function useVendorSubmit(onCreated: (task: Task) => void) {
  const vendor = useVendorCreate();
  const inFlight = useRef(false);
  return {
    pending: vendor.isPending,
    busy: () => inFlight.current || vendor.isPending,
    send: (
      ...[m, kind, input, setShown]: [
        ProviderModelRecord,
        InputKind,
        { urls: string[]; prompt: string },
        (error: ShownError | null) => void,
      ]
    ) => vendor.send(m, kind, input, { setShown, onCreated, inFlight }),
  };
}
