import type { RefObject } from 'react';
import { splitModelId, type InputKind, type Task } from '../../../contract/index.ts';
import {
  useCreateProviderTask,
  type ProviderCreateBody,
  type ProviderModelRecord,
} from '../../api/providers.ts';
import { newIdempotencyKey } from '../../api/tasks.ts';
import type { ShownError } from '../../lib/describe-error.ts';

/** What the form gives a provider's create: what it says, where the task goes, its guard. */
interface VendorCreateDeps {
  setShown: (error: ShownError | null) => void;
  onCreated: (task: Task) => void;
  /** A second click in the same frame must see the first. */
  inFlight: RefObject<boolean>;
}

/** The input as a provider's create body, or the field that is missing (named). */
function vendorBody(
  model: string,
  kind: InputKind,
  input: { urls: string[]; prompt: string },
): { ok: true; body: ProviderCreateBody } | { ok: false; error: ShownError } {
  if (kind === 'text')
    return input.prompt.trim()
      ? { ok: true, body: { model, prompt: input.prompt.trim() } }
      : { ok: false, error: { at: 'prompt', message: 'Describe the model to make.' } };
  if (kind === 'multiview')
    return input.urls.length >= 2
      ? { ok: true, body: { model, image_urls: input.urls } }
      : { ok: false, error: { at: 'image_urls', message: 'Add 2–4 photos of the object.' } };
  return input.urls[0]
    ? { ok: true, body: { model, image_url: input.urls[0] } }
    : { ok: false, error: { at: 'image_url', message: 'Add a photo.' } };
}

/** A provider's model's create: one input, checked here, sent with its key (`x-provider-key`). */
export function useVendorCreate() {
  const create = useCreateProviderTask();
  const send = (
    m: ProviderModelRecord,
    kind: InputKind,
    input: { urls: string[]; prompt: string },
    deps: VendorCreateDeps,
  ) => {
    const provider = splitModelId(m.id)?.provider;
    if (!provider) return;
    const built = vendorBody(m.id, kind, input);
    if (!built.ok) return deps.setShown(built.error);
    deps.setShown(null);
    deps.inFlight.current = true;
    create.mutate(
      { provider, body: built.body, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (task) => deps.onCreated(task),
        onError: (err) => deps.setShown({ at: 'form', message: err.message }),
        onSettled: () => {
          deps.inFlight.current = false;
        },
      },
    );
  };
  return { send, isPending: create.isPending };
}
