// Optimise jobs: a copy of an archived model made for the web, a game engine or a 3D printer
// (`POST /api/library/{id}/optimise`), and the job's progress, then its result.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { kilnCalls } from '../../client/kiln/calls.ts';
import type { OptimiseJob, OptimiseRequestInput } from '../../contract/index.ts';
import { NO_KEY, queryKeys, useKeyScope } from './query-keys.ts';
import { send } from './transport.ts';

/**
 * Starts an optimise job (`POST /api/library/{id}/optimise`, on the task's archived model); its
 * status is then read with `useOptimiseJob(job_id)`.
 */
export function useStartOptimise(taskId: string) {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (body: OptimiseRequestInput) => send(kilnCalls.optimise.start(taskId, body)),
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
    queryFn: ({ signal }) => send(kilnCalls.optimise.job(jobId ?? ''), { signal }),
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
