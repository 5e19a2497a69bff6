import { useRef, useState } from 'react';
import {
  PROVIDER_LABELS,
  splitModelId,
  type CreateGenerationInput,
  type Task,
} from '../../../contract/index.ts';
import { useConnectedModels } from '../../api/providers.ts';
import { newIdempotencyKey, useCreateTask } from '../../api/tasks.ts';
import { describeError } from '../../lib/describe-error.ts';
import { requestKind } from '../../lib/model-offers.ts';
import { useVendorCreate } from '../generate/index.ts';

/**
 * A task's input sent again, to its own model ("Try again") or another ("Try on another
 * provider…"): a provider's model through the studio's vendor create (its key, its checks), the
 * spec's through the spec's create. Photos go by the addresses Kiln already keeps: nothing is
 * uploaded again. One send at a time (a ref: a second click in the same frame sees the first).
 */
export function useResend() {
  const spec = useCreateTask();
  const vendor = useVendorCreate();
  const connected = useConnectedModels();
  const inFlight = useRef(false);
  const [error, setError] = useState<string | null>(null);
  const send = (body: CreateGenerationInput, model: string, onCreated: (task: Task) => void) => {
    if (inFlight.current || spec.isPending || vendor.isPending) return;
    const split = splitModelId(model);
    if (split) {
      const record = connected.flatMap((g) => g.models).find((m) => m.id === model);
      if (!record)
        return setError(
          `${PROVIDER_LABELS[split.provider]} is not connected here: add its key on Connections to send this to ${model}.`,
        );
      const urls = body.image_urls ?? (body.image_url ? [body.image_url] : []);
      return vendor.send(
        record,
        requestKind(body),
        { urls, prompt: body.prompt ?? '' },
        { setShown: (e) => setError(e?.message ?? null), onCreated, inFlight },
      );
    }
    inFlight.current = true;
    setError(null);
    spec.mutate(
      {
        body: {
          ...body,
          model: model as CreateGenerationInput['model'],
          // The same model keeps its mode; another gets the default.
          mode: model === body.model ? body.mode : 'async',
        },
        idempotencyKey: newIdempotencyKey(),
      },
      {
        onSuccess: onCreated,
        onError: (err) => setError(describeError(err).message),
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };
  return { send, pending: spec.isPending || vendor.isPending, error };
}
