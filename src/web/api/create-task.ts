import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateGenerationInput, Task } from '../../contract/index.ts';
import { InsufficientCreditsError } from '../../client/index.ts';
import { useClient, useKeyScope } from './api-client.ts';
import { rememberRequest } from '../lib/request-memory.ts';
import { queryKeys } from './query-keys.ts';

/**
 * Creates a task. Every attempt carries an Idempotency-Key made once per
 * submission, so the client's retries and a double click buy one task.
 */
export function useCreateTask() {
  const client = useClient();
  const scope = useKeyScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      body,
      idempotencyKey,
    }: {
      body: CreateGenerationInput;
      idempotencyKey: string;
    }) => client.createGeneration(body, { idempotencyKey }),
    onSuccess: (task: Task, { body }) => {
      rememberRequest(task.id, body);
      queryClient.setQueryData(queryKeys.task(scope, task.id), task);
      void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.credits(scope) });
    },
    // A refusal for want of credits tells the server the balance: the header shows it.
    onError: (err) => {
      if (err instanceof InsufficientCreditsError)
        void queryClient.invalidateQueries({ queryKey: queryKeys.credits(scope) });
    },
  });
}

export function newIdempotencyKey(): string {
  return `kiln-${crypto.randomUUID()}`;
}
