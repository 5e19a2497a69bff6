// Tasks, on the upstream API through Kiln's proxy: their inputs (uploads), creating one (the
// form's and the batch's), polling it, the models to make it with, and (mock mode) what the demo
// generator understands of a prompt.
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import {
  createClient,
  InsufficientCreditsError,
  type ClientOptions,
  type KilnClient,
} from '../../client/index.ts';
import { kilnCalls } from '../../client/kiln/calls.ts';
import {
  FALLBACK_MODELS,
  isModelAlias,
  isTerminal,
  LIMITS,
  MODEL_INPUT,
  PromptCheckSchema,
  splitTaskId,
  TaskSchema,
  UploadResultSchema,
  type CreateGenerationInput,
  type InputKind,
  type ModelRecord,
  type PromptCheck,
  type Task,
  type UploadResult,
} from '../../contract/index.ts';
import { useApiKey } from '../lib/key-store.ts';
import { rememberRequest } from '../lib/request-memory.ts';
import { announce } from '../lib/tab-sync.ts';
import { queryKeys, useKeyScope } from './query-keys.ts';
import { API_BASE, request, send, upload, upstreamFetch } from './transport.ts';

export type { PromptCheck };

// ---- The upstream's client ------------------------------------------------------------------

/** The typed client for the upstream API (through Kiln's proxy) for `apiKey`. */
export function upstreamClient(
  apiKey: string | undefined,
  options: Omit<ClientOptions, 'baseURL' | 'apiKey' | 'fetch'> = {},
): KilnClient {
  return createClient({ ...options, baseURL: API_BASE, apiKey, fetch: upstreamFetch });
}

/** The upstream's client with the current key. */
export function useClient(): KilnClient {
  const apiKey = useApiKey();
  return useMemo(() => upstreamClient(apiKey ?? undefined), [apiKey]);
}

// ---- Inputs: uploads -------------------------------------------------------------------------

/**
 * `POST /api/uploads` with upload progress. Uploads need no key (content-addressed: the
 * upstream fetches them). Errors are the client's typed errors, carrying the server's sentence.
 */
export function uploadImage(
  file: Blob,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<UploadResult> {
  const form = new FormData();
  form.append('file', file);
  return upload('/api/uploads', form, {
    ...options,
    auth: false,
    parse: (body) => UploadResultSchema.parse(body),
  });
}

/**
 * `POST /api/uploads/from-url`: Kiln fetches a pasted image address once (public addresses only),
 * checks it and stores it like an upload, so the preview comes from Kiln and an address that
 * does not work is known before any create.
 */
export function uploadFromUrl(url: string, signal?: AbortSignal): Promise<UploadResult> {
  return send(kilnCalls.uploadFromUrl(url), { signal });
}

/** Where Kiln serves a stored upload (`/api/uploads/{sha}.{ext}`), for previews on this origin. */
export function uploadPath(result: UploadResult): string {
  const fromUrl = /\/api\/uploads\/([a-f0-9]{64}\.(?:png|jpg|webp))(?:$|[?#])/.exec(result.url);
  if (fromUrl) return `/api/uploads/${fromUrl[1]}`;
  const mime = /^data:image\/(png|jpeg|webp)[;,]/.exec(result.url)?.[1];
  const ext = mime === 'jpeg' ? 'jpg' : (mime ?? 'png');
  return `/api/uploads/${result.sha256}.${ext}`;
}

// ---- Create ----------------------------------------------------------------------------------

export function newIdempotencyKey(): string {
  return `kiln-${crypto.randomUUID()}`;
}

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

// ---- Poll ------------------------------------------------------------------------------------

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
    queryFn: ({ signal }) => {
      // A vendor's task (`meshy_…`, `fal_…`) is asked for with that vendor's key.
      const vendor = splitTaskId(id)?.provider;
      return vendor
        ? request(`${API_BASE}/tasks/${encodeURIComponent(id)}`, {
            signal,
            provider: vendor,
            parse: (b) => TaskSchema.parse(b),
          })
        : client.getTask(id, { signal });
    },
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
      // A vendor's task moved that vendor's balance: the header's chip reads it again.
      const vendor = splitTaskId(id)?.provider;
      if (vendor) void queryClient.invalidateQueries({ queryKey: ['providers', vendor] });
      if (seen.current !== undefined) announce();
    }
    seen.current = status;
  }, [status, queryClient, scope, id]);
  return query;
}

// ---- Batch -----------------------------------------------------------------------------------

/** What a batch sends, bound to the current key: one attempt per call (the batch retries). */
export interface BatchApi {
  /** The key scope the calls are made for. */
  scope: string;
  /**
   * `POST /3d/generations` with this Idempotency-Key, once (no retries inside: the batch's
   * runner retries, pacing 429s for every item at once). The same key and body again replays
   * the first answer.
   */
  create(body: CreateGenerationInput, idempotencyKey: string, signal?: AbortSignal): Promise<Task>;
  /** `POST /api/uploads` with progress. */
  upload(
    file: Blob,
    options: { signal?: AbortSignal; onProgress?: (fraction: number) => void },
  ): Promise<UploadResult>;
  /** Where this browser shows an upload. */
  uploadPath(result: UploadResult): string;
}

/** The batch's calls for the current key; a new task lands in the caches as one made by the form. */
export function useBatchApi(): BatchApi {
  const client = useClient();
  const scope = useKeyScope();
  const queryClient = useQueryClient();
  return useMemo(
    () => ({
      scope,
      async create(body, idempotencyKey, signal) {
        let task: Task;
        try {
          task = await client.createGeneration(body, {
            idempotencyKey,
            maxRetries: 0,
            ...(signal ? { signal } : {}),
          });
        } catch (err) {
          // A refusal for want of credits tells the server the balance: the header shows it.
          if (err instanceof InsufficientCreditsError)
            void queryClient.invalidateQueries({ queryKey: queryKeys.credits(scope) });
          throw err;
        }
        rememberRequest(task.id, body);
        queryClient.setQueryData(queryKeys.task(scope, task.id), task);
        void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) });
        void queryClient.invalidateQueries({ queryKey: queryKeys.credits(scope) });
        announce();
        return task;
      },
      upload: (file, options) => uploadImage(file, options),
      uploadPath,
    }),
    [client, scope, queryClient],
  );
}

// ---- Models ----------------------------------------------------------------------------------

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

function modelsQuery(client: KilnClient, scope: string) {
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

// ---- Prompt check (mock mode) ----------------------------------------------------------------

/**
 * What the mock's demo generator understands of a prompt: `GET /v1/mock/prompt-check`, a
 * mock-only endpoint (src/mock/prompt-knowledge.ts), reached through Kiln's proxy without a key.
 */
function fetchPromptCheck(prompt: string, signal?: AbortSignal): Promise<PromptCheck> {
  return request(`${API_BASE}/mock/prompt-check?prompt=${encodeURIComponent(prompt)}`, {
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
