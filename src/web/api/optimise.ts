// Optimise jobs: a copy of an archived model made for the web, a game engine or a 3D printer
// (`POST /api/library/{id}/optimise`), and the job's progress, then its result.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  OptimiseJobSchema,
  OptimiseStartSchema,
  type OptimiseJob,
  type OptimiseRequestInput,
  type OptimiseStart,
} from '../../contract/index.ts';
import { NO_KEY, queryKeys, useKeyScope } from './query-keys.ts';
import { request } from './transport.ts';

/** `POST /api/library/{id}/optimise`: starts a job on the task's archived model. */
function startOptimise(
  taskId: string,
  body: OptimiseRequestInput,
  signal?: AbortSignal,
): Promise<OptimiseStart> {
  return request(`/api/library/${encodeURIComponent(taskId)}/optimise`, {
    method: 'POST',
    json: body,
    signal,
    parse: (b) => OptimiseStartSchema.parse(b),
  });
}

/** Starts an optimise job; its status is then read with `useOptimiseJob(job_id)`. */
export function useStartOptimise(taskId: string) {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (body: OptimiseRequestInput) => startOptimise(taskId, body),
    // The same options again may answer a job already known: read it afresh.
    onSuccess: ({ job_id }) =>
      queryClient.invalidateQueries({ queryKey: queryKeys.optimiseJob(scope, job_id) }),
  });
}

/** How often a job is polled: every half second while it is queued or running; then never. */
function optimisePollInterval(job: OptimiseJob | undefined): number | false {
  if (job && (job.status === 'succeeded' || job.status === 'failed')) return false;
  return 500;
}

/** `GET /api/optimise/{job_id}`: progress, then the before/after facts and the result's URL. */
function optimiseJobQuery(scope: string, jobId: string | null) {
  return queryOptions({
    queryKey: queryKeys.optimiseJob(scope, jobId ?? ''),
    queryFn: ({ signal }) =>
      request(`/api/optimise/${encodeURIComponent(jobId ?? '')}`, {
        signal,
        parse: (b) => OptimiseJobSchema.parse(b),
      }),
    enabled: scope !== NO_KEY && jobId !== null,
    refetchInterval: (query) => optimisePollInterval(query.state.data),
    refetchIntervalInBackground: true,
    // A job that failed to load (forgotten after a restart) is not asked again and again.
    retry: 1,
  });
}

export function useOptimiseJob(jobId: string | null) {
  return useQuery(optimiseJobQuery(useKeyScope(), jobId));
}
