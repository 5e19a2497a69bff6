import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  LIMITS,
  modelTitle,
  type InputKind,
  parseCreateRequest,
  type CreateGenerationInput,
  type Task,
} from '../../../contract/index.ts';
import { AuthenticationError } from '../../../client/index.ts';
import { forgetKey } from '../../lib/key-store.ts';
import { useCredits } from '../../api/account.ts';
import {
  FALLBACK_CHOICES,
  useModels,
  type ModelChoice,
  newIdempotencyKey,
  useCreateTask,
} from '../../api/tasks.ts';
import { describeError, fieldMessage, type ShownError } from '../../lib/describe-error.ts';
import { takeDraft } from '../../lib/draft.ts';
import { formatNumber } from '../../lib/entry-format.ts';
import { useCutouts, useViewsCheck } from '../../api/input-check.ts';
import { useProviderModels, useProviders } from '../../api/providers.ts';
import { useVendorCreate } from './use-vendor-create.ts';
import { Shortfall } from './shortfall.tsx';
import { useWaitAtMost } from '../../ui/input-check.tsx';
import { MultiViewInput, SingleImageInput } from './image-inputs.tsx';
import {
  InputKindChoice,
  ModelPicker,
  vendorPriceWords,
  type VendorGroup,
} from './model-picker.tsx';
import { PromptInput, usePromptVerdictNow } from './prompt-input.tsx';
import { useImageItems } from './use-image-items.ts';

/** The longest Generate waits for the photos' check before going ahead without it. */
const CHECK_HOLD_MS = 10_000;

/** The studio's form: model, inputs for that model, mode, Generate. */
export function GenerateForm({
  onCreated,
  onWaiting,
}: {
  onCreated: (task: Task) => void;
  /** A sync create started (what it makes, since when), or ended (null). */
  onWaiting?: (wait: { model: string; subject: string; since: number } | null) => void;
}) {
  const models = useModels();
  const credits = useCredits();
  const choices: ModelChoice[] = models.data?.models ?? (models.isError ? FALLBACK_CHOICES : []);
  // A task's input handed back by "Try again" (its input was at fault): loaded, with the error.
  const [draft] = useState(takeDraft);
  const draftImages = (
    draft?.body.image_urls ?? (draft?.body.image_url ? [draft.body.image_url] : [])
  ).map((url) => ({
    url,
    name: draft?.names?.[url] ?? (url.includes('/api/uploads/') ? 'photo from the last try' : url),
  }));
  const [modelId, setModelId] = useState<string>(draft?.body.model ?? 'alpha');
  const { vendors, vendorModel, vendorChoice, setVendorKind } = useVendorChoice(modelId);
  const model = vendorChoice ?? choices.find((m) => m.id === modelId) ?? choices[0];
  const single = useImageItems(1, draft?.body.image_url ? draftImages : []);
  const views = useImageItems(LIMITS.maxImages, draft?.body.image_urls ? draftImages : []);
  const [prompt, setPrompt] = useState(draft?.body.prompt ?? '');
  // What the demo generator makes of the prompt as typed now: Generate waits for it (issue 32).
  const verdict = usePromptVerdictNow(prompt);
  const [wait, setWait] = useState(draft?.body.mode === 'sync');
  // What the last submit said, and the inputs it said it about: a field's error goes as soon as
  // the field changes (a refused key stays until the key changes). A draft's error is about the
  // inputs as loaded.
  const inputs = `${modelId}|${[...single.items, ...views.items].map((i) => `${i.id}:${i.status}`).join(',')}|${prompt}`;
  const [submitted, setSubmitted] = useState<(ShownError & { inputs: string }) | null>(() =>
    draft?.error ? { ...draft.error, inputs } : null,
  );
  const create = useCreateTask();
  const { send: sendVendor, isPending: vendorPending } = useVendorCreate();
  const creating = create.isPending || vendorPending;
  // A ref, not state: a second click in the same frame must see the first.
  const inFlight = useRef(false);
  // Entering the studio (from the key screen, or another page) puts focus on the form's heading
  // once it shows, when nothing else holds focus.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ready = !models.isPending;
  useEffect(() => {
    if (ready && (document.activeElement === document.body || !document.activeElement))
      headingRef.current?.focus();
  }, [ready]);

  // What the demo generator will make of the photos (mock mode): the cut-out of each, and
  // whether the views show one object. Generate waits for them, a few seconds at most (issue 32).
  const shownImages = model?.input === 'multiview' ? views : single;
  const readyUrls = shownImages.items.map((i) => (i.status === 'ready' ? i.url : null));
  const cutouts = useCutouts(model?.input === 'text' ? [] : readyUrls);
  const allReady = readyUrls.length >= 2 && readyUrls.every((u) => u !== null);
  const viewsCheck = useViewsCheck(readyUrls as string[], model?.input === 'multiview' && allReady);
  const checkingViews = viewsCheck.isPending && viewsCheck.fetchStatus !== 'idle';
  const checkingInput = useWaitAtMost(
    cutouts.checking || checkingViews,
    readyUrls.join(' '),
    CHECK_HOLD_MS,
  );

  if (models.isPending) return <p className="muted">Loading models…</p>;
  if (!model) return <p className="error">No models are available.</p>;
  const kind = model.input;
  const images = kind === 'multiview' ? views : single;
  const setShown = (error: ShownError | null) => setSubmitted(error && { ...error, inputs });
  // A refused key shows at once, before any submit: the models listing already told us.
  const shown =
    (submitted && (submitted.at === 'key' || submitted.inputs === inputs) ? submitted : null) ??
    (models.error instanceof AuthenticationError ? describeError(models.error) : null);
  const busyUploads = images.items.some((i) => i.status === 'checking' || i.status === 'uploading');
  const badUploads = images.items.some((i) => i.status === 'error');
  // A photo no tier can model is refused here, before anything is charged.
  const refusedAt = kind === 'text' ? -1 : cutouts.cutouts.findIndex((c) => c?.usable === false);
  const cautioned =
    kind !== 'text' &&
    (cutouts.cutouts.some((c) => c?.warning) || viewsCheck.data?.agree === false);

  const body = (): CreateGenerationInput => {
    const mode = wait ? 'sync' : 'async';
    if (kind === 'text') return { model: model.id as CreateGenerationInput['model'], prompt, mode };
    const urls = images.items.map((i) => i.url ?? '');
    return kind === 'multiview'
      ? { model: model.id as CreateGenerationInput['model'], image_urls: urls, mode }
      : {
          model: model.id as CreateGenerationInput['model'],
          ...(urls[0] !== undefined ? { image_url: urls[0] } : {}),
          mode,
        };
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (inFlight.current || creating) return;
    if (busyUploads) return setShown({ at: 'form', message: 'Wait for the uploads to finish.' });
    if (badUploads)
      return setShown({
        at: kind === 'multiview' ? 'image_urls' : 'image_url',
        message: 'Remove the images that could not be used.',
      });
    if (refusedAt >= 0)
      return setShown({
        at: kind === 'multiview' ? 'image_urls' : 'image_url',
        message:
          kind === 'multiview'
            ? `View ${refusedAt + 1} cannot be modelled: choose another photo. Nothing was charged.`
            : 'This photo cannot be modelled: choose another photo. Nothing was charged.',
      });
    const urls = images.items.map((i) => i.url ?? '');
    const deps = { setShown, onCreated, inFlight };
    if (vendorModel) return sendVendor(vendorModel, kind, { urls, prompt }, deps);
    const req = body();
    const local = parseCreateRequest(req);
    if (!local.ok) {
      const at = (local.error.param ?? 'form').replace(/\[\d+\]$/, '');
      return setShown({ at, message: fieldMessage(local.error, { count: images.items.length }) });
    }
    setShown(null);
    inFlight.current = true;
    if (req.mode === 'sync')
      onWaiting?.({
        model: model.id,
        subject: subjectOf(req),
        since: nowSeconds(),
      });
    create.mutate(
      { body: req, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (task) => onCreated(task),
        onError: (err) =>
          setShown(
            describeError(err, { price: model.credits, balance: credits.data?.balance ?? null }),
          ),
        onSettled: () => {
          inFlight.current = false;
          onWaiting?.(null);
        },
      },
    );
  };

  const errorAt = (field: string) => (shown?.at === field ? shown.message : undefined);
  // What the balance can buy, said before anything is sent (as the batch planner does): a
  // model it cannot pay for names the shortfall and offers the ones it can; Generate waits for
  // enough credits when the balance is known exactly.
  const balance = credits.data?.balance ?? null;
  const balanceExact = credits.data?.exact !== false;
  const shortBy =
    balance !== null && model.credits !== null && balance < model.credits
      ? model.credits - balance
      : 0;
  const affordable =
    balance === null ? [] : choices.filter((m) => m.credits !== null && m.credits <= balance);
  const checkingPrompt = kind === 'text' && verdict.checking;
  const checkingPhotos = kind !== 'text' && checkingInput;
  const disabled =
    creating || busyUploads || checkingPrompt || checkingPhotos || (shortBy > 0 && balanceExact);

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
        onChange={(id) => (setModelId(id), setShown(null))}
        error={errorAt('model')}
        balance={credits.data?.balance ?? null}
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
      <fieldset className="inputs">
        <legend>
          {kind === 'text' ? 'Describe it' : kind === 'multiview' ? 'Photos (2–4 views)' : 'Photo'}
        </legend>
        {kind === 'image' && (
          <SingleImageInput
            images={single}
            error={errorAt('image_url')}
            cutout={cutouts.cutouts[0]}
          />
        )}
        {kind === 'multiview' && (
          <MultiViewInput
            images={views}
            error={errorAt('image_urls') ?? errorAt('image_url')}
            cutouts={cutouts.cutouts}
            viewsCheck={viewsCheck.data}
          />
        )}
        {kind === 'text' && (
          <PromptInput
            value={prompt}
            onChange={setPrompt}
            verdict={verdict}
            error={errorAt('prompt')}
          />
        )}
      </fieldset>
      {!vendorModel && (
        <label className="check">
          <input type="checkbox" checked={wait} onChange={(e) => setWait(e.target.checked)} />
          Wait for the result (sync mode; up to 55 s, then it keeps going in the background)
        </label>
      )}
      {shown?.at === 'key' && (
        <div className="form-error" role="alert">
          <p>{shown.message}</p>
          <button type="button" onClick={() => forgetKey()}>
            Change key
          </button>
        </div>
      )}
      {(shown?.at === 'form' || shown?.at === 'mode') && !(shown.credits && shortBy > 0) && (
        <p className="form-error" role="alert">
          {shown.message}
        </p>
      )}
      {shortBy > 0 && balance !== null && (
        <Shortfall
          model={model}
          balance={balance}
          exact={balanceExact}
          shortBy={shortBy}
          affordable={affordable}
          onPick={(id) => (setModelId(id), setShown(null))}
        />
      )}
      <div className="submit-row">
        <button
          type="submit"
          className="primary big"
          disabled={disabled}
          aria-describedby="price-note"
        >
          {creating
            ? wait && !vendorModel
              ? 'Generating… (waiting)'
              : 'Starting…'
            : checkingPrompt
              ? 'Checking the prompt…'
              : checkingPhotos
                ? kind === 'multiview'
                  ? 'Checking the views…'
                  : 'Checking the photo…'
                : cautioned
                  ? 'Generate anyway'
                  : 'Generate'}
        </button>
        <span id="price-note" className="muted small">
          {vendorModel ? vendorPriceWords({ ...vendorModel, inputs: [kind] }) : ''}
          {model.credits !== null ? `${model.credits} credits` : ''}
          {credits.data?.balance != null && !vendorModel
            ? ` · balance ${credits.data.exact === false ? 'about ' : ''}${formatNumber(credits.data.balance)}`
            : ''}
        </span>
      </div>
    </form>
  );
}

/** Now, in unix seconds (a sync wait's start). */
function nowSeconds(): number {
  return Date.now() / 1000;
}

/** Each connected provider's models, grouped for the picker (none connected: none). */
function useVendorGroups(): VendorGroup[] {
  const providers = useProviders();
  const infos = providers.data ?? [];
  const lists = useProviderModels(infos.map((p) => p.name));
  return lists.map(({ provider, query }) => ({
    provider,
    label: infos.find((p) => p.name === provider)?.label ?? provider,
    models: query.data ?? [],
    note: query.isPending
      ? 'Loading its models…'
      : query.isError
        ? `Its models could not be listed: ${query.error.message}`
        : null,
  }));
}

/** The provider's model picked, if one is, as the form's choice (its input: the one chosen). */
function useVendorChoice(modelId: string) {
  const vendors = useVendorGroups();
  const vendorModel = vendors.flatMap((g) => g.models).find((m) => m.id === modelId);
  // A provider's model may take several inputs: the one chosen, else its first.
  const [vendorKind, setVendorKind] = useState<InputKind>('image');
  const vendorChoice: ModelChoice | undefined = vendorModel && {
    id: vendorModel.id,
    input: vendorModel.inputs.includes(vendorKind) ? vendorKind : vendorModel.inputs[0]!,
    credits: null,
    description: vendorModel.description,
  };
  return { vendors, vendorModel, vendorChoice, setVendorKind };
}

/** What a request makes, as the task list says it (the one title rule, `modelTitle`). */
function subjectOf(req: CreateGenerationInput): string {
  return modelTitle({ prompt: req.prompt, photos: req.image_urls?.length ?? 1 });
}
