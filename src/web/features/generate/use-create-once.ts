import { useRef } from 'react';
import type { CreateGenerationInput, Task } from '../../../contract/index.ts';
import { newIdempotencyKey, useCreateTask, type ModelChoice } from '../../api/tasks.ts';
import { describeError, type ShownError } from '../../lib/describe-error.ts';
import { subjectOf } from './form-request.ts';

/** A sync create started (what it makes, since when), or ended (null). */
export type OnWaiting = (wait: { model: string; subject: string; since: number } | null) => void;

/**
 * The form's create: one at a time (a second click in the same frame sees the first), a sync
 * one said to `onWaiting` while it waits, its error said in the form's words.
 */
export function useCreateOnce(onCreated: (task: Task) => void, onWaiting?: OnWaiting) {
  const create = useCreateTask();
  // A ref, not state: a second click in the same frame must see the first.
  const inFlight = useRef(false);
  const busy = () => inFlight.current || create.isPending;
  const send = (
    req: CreateGenerationInput,
    model: ModelChoice,
    balance: number | null,
    onError: (error: ShownError) => void,
  ) => {
    inFlight.current = true;
    if (req.mode === 'sync')
      onWaiting?.({ model: model.id, subject: subjectOf(req), since: Date.now() / 1000 });
    create.mutate(
      { body: req, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (task) => onCreated(task),
        onError: (err) => onError(describeError(err, { price: model.credits, balance })),
        onSettled: () => {
          inFlight.current = false;
          onWaiting?.(null);
        },
      },
    );
  };
  return { pending: create.isPending, busy, send };
}
