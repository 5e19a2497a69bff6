import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  FALLBACK_MODELS,
  MODEL_INPUT,
  isModelAlias,
  type InputKind,
  type ModelRecord,
} from '../../contract/index.ts';
import type { KilnClient } from '../../client/index.ts';
import { useClient, useKeyScope } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export interface ModelChoice {
  id: string;
  input: InputKind;
  credits: number | null;
  description: string | null;
}

function toChoice(m: ModelRecord): ModelChoice | null {
  const input = m.input ?? (isModelAlias(m.id) ? MODEL_INPUT[m.id] : undefined);
  if (!input) return null;
  return {
    id: m.id,
    input,
    credits: m.credits_per_task ?? null,
    description: m.description ?? null,
  };
}

export function modelsQuery(client: KilnClient, scope: string) {
  return queryOptions({
    queryKey: queryKeys.models(scope),
    queryFn: async ({ signal }) => {
      const listing = await client.listModels({ signal });
      return {
        models: listing.models.map(toChoice).filter((m): m is ModelChoice => m !== null),
        fallback: listing.fallback,
      };
    },
    staleTime: 5 * 60_000,
  });
}

/** The models from GET /models, or the spec's six aliases when the listing fails. */
export function useModels() {
  const client = useClient();
  return useQuery(modelsQuery(client, useKeyScope()));
}

/** The spec's six aliases, for when even the listing's fallback is not reached (a refused key). */
export const FALLBACK_CHOICES: ModelChoice[] = FALLBACK_MODELS.data
  .map(toChoice)
  .filter((m): m is ModelChoice => m !== null);
