import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { isTerminal, LIMITS, type Task } from '../../contract/index.ts';
import type { KilnClient } from '../../client/index.ts';
import { useClient, useKeyScope } from './api-client.ts';
import { announce } from '../lib/tab-sync.ts';
import { queryKeys } from './query-keys.ts';

/**
 * How often to poll a pending task: every 2 s for the first 20 s, then easing
 * by 0.5 s per 10 s up to every 5 s (the spec's recommended 2–5 s). Never for a
 * finished task.
 */
export function pollInterval(task: Task | undefined, nowMs = Date.now()): number | false {
  if (task && isTerminal(task)) return false;
  const ageS = task?.created ? Math.max(0, nowMs / 1000 - task.created) : 0;
  if (ageS <= 20) return LIMITS.pollMinMs;
  return Math.min(LIMITS.pollMaxMs, LIMITS.pollMinMs + Math.floor((ageS - 20) / 10) * 500);
}

export function taskQuery(client: KilnClient, scope: string, id: string) {
  return queryOptions({
    queryKey: queryKeys.task(scope, id),
    queryFn: ({ signal }) => client.getTask(id, { signal }),
    refetchInterval: (query) => pollInterval(query.state.data),
    refetchIntervalInBackground: true,
    staleTime: (query) => (query.state.data && isTerminal(query.state.data) ? Infinity : 0),
  });
}

/**
 * One task, polled until it completes or fails. When it ends, the library and
 * the balance are refreshed (they learn from the response that passed through).
 */
export function useTask(id: string, options: { initial?: Task; enabled?: boolean } = {}) {
  const client = useClient();
  const scope = useKeyScope();
  const queryClient = useQueryClient();
  const query = useQuery({
    ...taskQuery(client, scope, id),
    ...(options.initial ? { initialData: options.initial } : {}),
    enabled: options.enabled ?? true,
  });
  const status = query.data?.status;
  const seen = useRef(status);
  useEffect(() => {
    if (status !== seen.current && (status === 'completed' || status === 'failed')) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.credits(scope) });
      if (seen.current !== undefined) announce();
    }
    seen.current = status;
  }, [status, queryClient, scope]);
  return query;
}
