import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateGenerationInput, Task } from '../../../contract/index.ts';
import { useClient, useKeyScope } from '../../lib/api.ts';
import { rememberRequest } from './request-memory.ts';

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
      queryClient.setQueryData(['task', scope, task.id], task);
      void queryClient.invalidateQueries({ queryKey: ['library', scope] });
      void queryClient.invalidateQueries({ queryKey: ['credits', scope] });
    },
  });
}

export function newIdempotencyKey(): string {
  return `kiln-${crypto.randomUUID()}`;
}
