// What the mock's demo generator understands of a prompt: GET /v1/mock/prompt-check, a mock-only
// endpoint (src/mock/prompt-knowledge.ts), reached through Kiln's proxy. Asked in mock mode only.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS, PromptCheckSchema, type PromptCheck } from '../../contract/index.ts';
import { API_BASE } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

export type { PromptCheck };

export function fetchPromptCheck(prompt: string, signal?: AbortSignal): Promise<PromptCheck> {
  return kilnFetch(`${API_BASE}/mock/prompt-check?prompt=${encodeURIComponent(prompt)}`, {
    signal,
    auth: false,
    parse: (body) => PromptCheckSchema.parse(body),
  });
}

export function promptCheckQuery(prompt: string) {
  return queryOptions({
    queryKey: queryKeys.promptCheck(prompt),
    queryFn: ({ signal }) => fetchPromptCheck(prompt, signal),
    // The same prompt always reads the same; a failed check just says nothing.
    staleTime: Infinity,
    retry: false,
  });
}

/**
 * What the demo generator will make of `prompt` (pass it debounced), or nothing while `enabled`
 * is false (not mock mode), the prompt is blank or too long, or the check fails. While a new
 * prompt is checked, the last answer stays (no flicker as one types).
 */
export function usePromptCheck(prompt: string, enabled: boolean) {
  const checkable = prompt.trim() !== '' && prompt.length <= LIMITS.maxPromptLength;
  return useQuery({
    ...promptCheckQuery(prompt),
    enabled: enabled && checkable,
    placeholderData: keepPreviousData,
  });
}
