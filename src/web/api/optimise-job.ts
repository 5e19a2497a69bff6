import { queryOptions, useQuery } from '@tanstack/react-query';
import { OptimiseJobSchema, type OptimiseJob } from '../../contract/index.ts';
import { NO_KEY, useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

/** How often a job is polled: every half second while it is queued or running; then never. */
export function optimisePollInterval(job: OptimiseJob | undefined): number | false {
  if (job && (job.status === 'succeeded' || job.status === 'failed')) return false;
  return 500;
}

/** `GET /api/optimise/{job_id}`: progress, then the before/after facts and the result's URL. */
export function optimiseJobQuery(scope: string, jobId: string | null) {
  return queryOptions({
    queryKey: queryKeys.optimiseJob(scope, jobId ?? ''),
    queryFn: ({ signal }) =>
      kilnFetch(`/api/optimise/${encodeURIComponent(jobId ?? '')}`, {
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
