/** Test helpers: a scripted fetch that records requests, and a fake sleep. Not exported from index.ts. */
import { createClient, type ClientOptions } from '../client/index.ts';
import type { Task } from '../contract/index.ts';

interface RecordedRequest {
  url: string;
  method: string;
  headers: Headers;
  /** The JSON-parsed request body, when there was one. */
  body: unknown;
  signal: AbortSignal | undefined;
}

/**
 * One scripted answer: a Response (or a factory of one), an Error to throw as
 * a network failure, 'hang' (pending until the request's signal aborts, like a
 * real fetch), or 'deaf' (pending forever, ignoring the signal).
 */
export type Step =
  Response | Error | 'hang' | 'deaf' | ((request: RecordedRequest) => Response | Promise<Response>);

export function scriptedFetch(script: Step[]) {
  const steps = [...script];
  const requests: RecordedRequest[] = [];
  const fetch = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    const request: RecordedRequest = {
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      signal: init.signal ?? undefined,
    };
    requests.push(request);
    const step = steps.shift();
    if (step === undefined) return Promise.reject(new Error('scripted fetch: script exhausted'));
    if (step === 'deaf') return new Promise<Response>(() => {});
    if (step === 'hang')
      return new Promise<Response>((_, reject) => {
        const signal = init.signal;
        if (!signal) return;
        if (signal.aborted) reject(signal.reason as unknown);
        signal.addEventListener('abort', () => reject(signal.reason as unknown), { once: true });
      });
    if (step instanceof Error) return Promise.reject(step);
    if (step instanceof Response) return Promise.resolve(step);
    return Promise.resolve(step(request));
  };
  return { fetch: fetch as typeof globalThis.fetch, requests, remaining: () => steps.length };
}

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function text(
  status: number,
  body: string | null,
  headers: Record<string, string> = {},
  statusText?: string,
): Response {
  const init: ResponseInit = { status, headers };
  if (statusText !== undefined) init.statusText = statusText;
  return new Response(body, init);
}

export function errorJson(
  status: number,
  error: { message: string; type?: string; code?: string; param?: string },
  headers: Record<string, string> = {},
): Response {
  return json(status, { error }, headers);
}

/** A sleep that records each delay and resolves at once; `onSleep` may act (e.g. abort) first. */
export function fakeSleep(onSleep?: (ms: number, call: number) => void) {
  const delays: number[] = [];
  const sleep = (ms: number, _signal?: AbortSignal): Promise<void> => {
    delays.push(ms);
    onSleep?.(ms, delays.length);
    return Promise.resolve();
  };
  return { sleep, delays };
}

/**
 * Clients over a scripted fetch and a fake sleep, with no jitter: `defaults` (base URL, key) for
 * each; a call takes the script, options over the defaults, and what each sleep does first.
 */
export function scriptedClients(defaults: ClientOptions) {
  return (script: Step[], options: Partial<ClientOptions> = {}, onSleep?: () => void) => {
    const scripted = scriptedFetch(script);
    const sleeper = fakeSleep(onSleep);
    const client = createClient({
      ...defaults,
      fetch: scripted.fetch,
      sleep: sleeper.sleep,
      random: () => 0,
      ...options,
    });
    return {
      client,
      requests: scripted.requests,
      delays: sleeper.delays,
      remaining: scripted.remaining,
    };
  };
}

/** What `promise` rejects with; throws when it fulfils. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

export function pendingTask(id: string, progress?: number, extra: Partial<Task> = {}): Task {
  const task: Task = { id, object: 'task', status: 'pending', created: 1_700_000_000, data: null };
  if (progress !== undefined) {
    task.object = '3d.generation';
    task.progress = progress;
  }
  return { ...task, ...extra };
}

export function completedTask(id: string): Task {
  return {
    id,
    object: '3d.generation',
    status: 'completed',
    created: 1_700_000_000,
    completed_at: 1_700_000_030,
    progress: 100,
    progress_stage: 'Completed',
    data: { model_url: `https://cdn.example/${id}.glb`, format: 'glb', model: 'alpha' },
    usage: { credits_consumed: 10, credits_remaining: 990 },
  };
}

export function failedTask(id: string): Task {
  return {
    id,
    object: '3d.generation',
    status: 'failed',
    created: 1_700_000_000,
    progress: 20,
    progress_stage: 'Downloading images',
    data: null,
    error: { message: 'The image could not be downloaded.', code: 'image_download_failed' },
  };
}
