// The vendors behind Kiln (issue 34): which ones this Kiln reaches, each one's models and balance
// for the key this browser keeps, and a create or a poll of a vendor's task (`x-provider-key`).
import {
  queryOptions,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  ProviderBalanceSchema,
  ProviderModelListSchema,
  TaskSchema,
  type CreateGenerationInput,
  type ProviderBalanceRecord,
  type ProviderInfo,
  type ProviderModelRecord,
  type Task,
  type VendorProvider,
} from '../../contract/index.ts';
import { kilnCalls } from '../../client/kiln/calls.ts';
import { useProviderKeys } from '../lib/provider-keys.ts';
import { rememberRequest } from '../lib/request-memory.ts';
import { announce } from '../lib/tab-sync.ts';
import { queryKeys, useKeyScope } from './query-keys.ts';
import { API_BASE, request, send } from './transport.ts';

export type { ProviderBalanceRecord, ProviderInfo, ProviderModelRecord };

/** Query keys of the vendors' data: under the key's fingerprint, never the key. */
const providerKeys = {
  list: () => ['providers'] as const,
  balance: (provider: VendorProvider, key: string) =>
    ['providers', provider, fingerprint(key), 'balance'] as const,
  models: (provider: VendorProvider, key: string) =>
    ['providers', provider, fingerprint(key), 'models'] as const,
};

function fingerprint(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return `p${(h >>> 0).toString(36)}`;
}

/** `GET /api/providers`: the vendors this Kiln reaches (none: the section stays away). */
export function useProviders() {
  return useQuery({
    queryKey: providerKeys.list(),
    queryFn: ({ signal }) => send(kilnCalls.providers(), { signal }),
    staleTime: Infinity,
  });
}

/**
 * A vendor's balance for `key` (a key being tested, or the kept one). This and the models below are
 * the SPA's own calls: they send a vendor's key the browser keeps, or one under test.
 */
export function fetchProviderBalance(
  provider: VendorProvider,
  key: string,
  signal?: AbortSignal,
): Promise<ProviderBalanceRecord> {
  return request(`/api/providers/${provider}/balance`, {
    signal,
    provider,
    providerKey: key,
    parse: (b) => ProviderBalanceSchema.parse(b),
  });
}

function balanceQuery(provider: VendorProvider, key: string) {
  return queryOptions({
    queryKey: providerKeys.balance(provider, key),
    queryFn: ({ signal }) => fetchProviderBalance(provider, key, signal),
    refetchOnWindowFocus: true,
    retry: 1,
  });
}

/** Each connected vendor's balance, in the order of `providers`. */
export function useProviderBalances(providers: readonly VendorProvider[]) {
  const keys = useProviderKeys();
  const connected = providers.filter((p) => keys[p]);
  const results = useQueries({
    queries: connected.map((p) => balanceQuery(p, keys[p]!)),
  });
  return connected.map((provider, i) => ({ provider, query: results[i]! }));
}

/** Each connected vendor's models (for the form's picker), as they load. */
function useProviderModels(providers: readonly VendorProvider[]) {
  const keys = useProviderKeys();
  const connected = providers.filter((p) => keys[p]);
  const results = useQueries({
    queries: connected.map((p) => {
      const key = keys[p]!;
      return {
        queryKey: providerKeys.models(p, key),
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          request(`/api/providers/${p}/models`, {
            signal,
            provider: p,
            providerKey: key,
            parse: (b) => ProviderModelListSchema.parse(b).data,
          }),
        staleTime: 5 * 60_000,
      };
    }),
  });
  return connected.map((provider, i) => ({ provider, query: results[i]! }));
}

/**
 * Every connected vendor's models with its label, as they load (`models` empty until then): the
 * form's grouped picker, and the models a result's input can be sent to again.
 */
export function useConnectedModels() {
  const providers = useProviders();
  const infos = providers.data ?? [];
  return useProviderModels(infos.map((p) => p.name)).map(({ provider, query }) => ({
    provider,
    label: infos.find((p) => p.name === provider)?.label ?? provider,
    models: query.data ?? [],
    query,
  }));
}

/** What a vendor's create sends: one input, views in Kiln's order (front, right, back, left). */
export type ProviderCreateBody =
  | { model: string; image_url: string }
  | { model: string; image_urls: string[] }
  | { model: string; prompt: string };

/** `POST /api/v1/3d/generations` for a vendor's model, with its key and an Idempotency-Key. */
function createProviderTask(
  provider: VendorProvider,
  body: ProviderCreateBody,
  idempotencyKey: string,
): Promise<Task> {
  return request(`${API_BASE}/3d/generations`, {
    method: 'POST',
    provider,
    json: body,
    headers: { 'idempotency-key': idempotencyKey },
    parse: (b) => TaskSchema.parse(b),
  });
}

/** Creates a vendor's task; it lands in the caches as one the spec's create made. */
export function useCreateProviderTask() {
  const scope = useKeyScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      provider,
      body,
      idempotencyKey,
    }: {
      provider: VendorProvider;
      body: ProviderCreateBody;
      idempotencyKey: string;
    }) => createProviderTask(provider, body, idempotencyKey),
    onSuccess: (task: Task, { provider, body }) => {
      // "Try again" and "Same input, another model" send what this task was made with.
      rememberRequest(task.id, body as CreateGenerationInput);
      queryClient.setQueryData(queryKeys.task(scope, task.id), task);
      void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) });
      void queryClient.invalidateQueries({ queryKey: ['providers', provider] });
      announce();
    },
  });
}
