import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  OptimiseStartSchema,
  type OptimiseRequestInput,
  type OptimiseStart,
} from '../../contract/index.ts';
import { useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

/** `POST /api/library/{id}/optimise`: starts a job on the task's archived model. */
export function startOptimise(
  taskId: string,
  request: OptimiseRequestInput,
  signal?: AbortSignal,
): Promise<OptimiseStart> {
  return kilnFetch(`/api/library/${encodeURIComponent(taskId)}/optimise`, {
    method: 'POST',
    json: request,
    signal,
    parse: (b) => OptimiseStartSchema.parse(b),
  });
}

/** Starts an optimise job; its status is then read with `useOptimiseJob(job_id)`. */
export function useStartOptimise(taskId: string) {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (request: OptimiseRequestInput) => startOptimise(taskId, request),
    // The same options again may answer a job already known: read it afresh.
    onSuccess: ({ job_id }) =>
      queryClient.invalidateQueries({ queryKey: queryKeys.optimiseJob(scope, job_id) }),
  });
}
