// The one client for Kiln's own `/api`, in Node or a browser (fetch only): the calls of
// `calls.ts` sent with the key, answers read by the contract and refusals as the typed errors of
// src/client/errors.ts; uploads and downloads of files; and the upstream's typed client through
// Kiln's proxy (`/api/v1`: create, poll, wait, models), with a vendor's key on its own tasks.
import {
  TaskSchema,
  UploadResultSchema,
  type CreateGenerationInput,
  type Task,
  type UploadResult,
} from '../../contract/index.ts';
import {
  LIBRARY_HEADER,
  PROVIDER_KEY_HEADER,
  splitModelId,
  splitTaskId,
  type VendorProvider,
} from '../../contract/provider-ids.ts';
import { createClient } from '../client.ts';
import { APIConnectionError, APIError, APIUserAbortError } from '../errors.ts';
import type { CreateOptions, GenerateOptions, KilnClient, WaitOptions } from '../types.ts';
import { kilnCalls, type Call } from './calls.ts';

export interface KilnApiOptions {
  /** Kiln's address (`http://127.0.0.1:5173`); `/api` is under it. */
  baseUrl: string;
  /** The Kiln (upstream) API key, sent as a bearer token. */
  apiKey?: string | undefined;
  /** Each connected vendor's key, sent as `x-provider-key` on that vendor's calls only. */
  providerKeys?: Partial<Record<VendorProvider, string>> | undefined;
  /** The library's own key when vendors' keys are used (decision 0114). */
  library?: string | undefined;
  /** fetch to use (tests pass an app's `fetch`; default the global one). */
  fetch?: typeof fetch | undefined;
}

/** A create's body: the spec's (`CreateGenerationInput`) or a vendor's model with one input. */
export type CreateBody =
  | CreateGenerationInput
  | { model: string; image_url: string }
  | { model: string; image_urls: string[] }
  | { model: string; prompt: string };

export interface SendOptions {
  signal?: AbortSignal | undefined;
}

/** A file's bytes and the answer's headers. */
export interface Downloaded {
  bytes: Uint8Array;
  headers: Headers;
}

/** `baseUrl` checked once: http or https, no query, no trailing slash. */
export function kilnBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`baseUrl: ${JSON.stringify(value)} is not an address (http://host:port).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`baseUrl: ${JSON.stringify(value)} is not an http or https address.`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function bodyOf(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : '';
  } catch {
    return text;
  }
}

/** Binds every call factory in `calls` (nested) to `send`: `api.library.get(id)` is a promise. */
type Bound<G> = {
  [K in keyof G]: G[K] extends (...args: infer A) => Call<infer T>
    ? (...args: A) => Promise<T>
    : G[K] extends (...args: infer A) => infer R
      ? (...args: A) => Bound<R>
      : G[K] extends object
        ? Bound<G[K]>
        : never;
};

function isCall(value: unknown): value is Call<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'method' in value &&
    'path' in value &&
    'parse' in value
  );
}

function bind<G extends object>(
  calls: G,
  send: (call: Call<unknown>) => Promise<unknown>,
): Bound<G> {
  const wrap = (value: unknown): unknown => {
    if (typeof value === 'function')
      return (...args: unknown[]) => {
        const made: unknown = (value as (...a: unknown[]) => unknown)(...args);
        return isCall(made) ? send(made) : wrap(made);
      };
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrap(v)]));
    return value;
  };
  return wrap(calls) as Bound<G>;
}

/** How one key's requests leave: headers, one exchange, a call, an upload, a download. */
function kilnTransport(options: KilnApiOptions) {
  const baseUrl = kilnBaseUrl(options.baseUrl);
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  const headersFor = (provider?: VendorProvider, auth = true): Record<string, string> => {
    const headers: Record<string, string> = {};
    if (auth && options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    if (options.library) headers[LIBRARY_HEADER] = options.library;
    const vendorKey = provider ? options.providerKeys?.[provider] : undefined;
    if (vendorKey) headers[PROVIDER_KEY_HEADER] = vendorKey;
    return headers;
  };

  /** One exchange: a failure to connect is APIConnectionError, a refusal the typed APIError. */
  async function exchange(path: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await doFetch(url(path), init);
    } catch (err) {
      if (init.signal?.aborted) throw new APIUserAbortError(undefined, { cause: err });
      throw new APIConnectionError(`Kiln could not be reached at ${baseUrl}.`, { cause: err });
    }
    if (!res.ok) {
      const body = bodyOf(await res.text());
      throw APIError.from(res.status, body, res.headers, res.statusText);
    }
    return res;
  }

  /** An absolute address for a path on Kiln (an address already absolute stays). */
  function url(path: string): string {
    return /^https?:\/\//i.test(path) ? path : `${baseUrl}${path}`;
  }

  async function send<T>(call: Call<T>, opts: SendOptions = {}): Promise<T> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...headersFor(undefined, call.auth !== false),
    };
    if (call.json !== undefined) headers['content-type'] = 'application/json';
    const res = await exchange(call.path, {
      method: call.method,
      headers,
      signal: opts.signal ?? null,
      ...(call.json !== undefined ? { body: JSON.stringify(call.json) } : {}),
    });
    const text = await res.text();
    return call.parse(res.status === 204 ? undefined : bodyOf(text));
  }

  /** `POST /api/uploads`: a photo's bytes, kept by Kiln (content-addressed; no key needed). */
  async function upload(
    bytes: Uint8Array,
    fileName: string,
    type: string,
    opts: SendOptions = {},
  ): Promise<UploadResult> {
    const form = new FormData();
    form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), fileName);
    const res = await exchange('/api/uploads', {
      method: 'POST',
      headers: headersFor(undefined, false),
      body: form,
      signal: opts.signal ?? null,
    });
    return UploadResultSchema.parse(bodyOf(await res.text()));
  }

  /** A file Kiln serves (a model, a picture, an optimised copy, a zip): its bytes. */
  async function download(path: string, opts: SendOptions = {}): Promise<Downloaded> {
    const res = await exchange(path, {
      headers: headersFor(),
      signal: opts.signal ?? null,
    });
    return { bytes: new Uint8Array(await res.arrayBuffer()), headers: res.headers };
  }

  return { baseUrl, doFetch, headersFor, exchange, url, send, upload, download };
}

/** Kiln's `/api` for one key: every call of `kilnCalls`, files, and the upstream's client. */
export function createKilnApi(options: KilnApiOptions) {
  const transport = kilnTransport(options);
  const { baseUrl, doFetch, headersFor, exchange } = transport;

  /**
   * `POST /api/v1/3d/generations` (async): the spec's models through the upstream's client
   * (checked locally, retried under one Idempotency-Key); a vendor's model (`meshy/…`) with its
   * key, once per call: the same Idempotency-Key again replays the first answer.
   */
  async function create(body: CreateBody, opts: CreateOptions = {}): Promise<Task> {
    const vendor = splitModelId(body.model)?.provider;
    if (!vendor) return upstream().createGeneration(body as CreateGenerationInput, opts);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      ...headersFor(vendor),
    };
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    const res = await exchange('/api/v1/3d/generations', {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: opts.signal ?? null,
    });
    return TaskSchema.parse(bodyOf(await res.text()));
  }

  const upstreams = new Map<string, KilnClient>();
  /** The upstream's typed client through Kiln's proxy; a vendor's tasks go with its key. */
  function upstream(provider?: VendorProvider): KilnClient {
    const name = provider ?? 'spec';
    let client = upstreams.get(name);
    if (!client) {
      client = createClient({
        baseURL: `${baseUrl}/api/v1`,
        apiKey: options.apiKey,
        fetch: doFetch,
        defaultHeaders: headersFor(provider, false),
      });
      upstreams.set(name, client);
    }
    return client;
  }

  return {
    baseUrl,
    url: transport.url,
    send: transport.send,
    upload: transport.upload,
    download: transport.download,
    upstream,
    create,
    /** Creates a task for `body.model` and waits for its end (`onProgress` hears each poll). */
    generate: async (body: CreateBody, opts: GenerateOptions = {}): Promise<Task> => {
      const task = await create(body, opts);
      return upstream(splitTaskId(task.id)?.provider).waitForTask(task.id, opts);
    },
    /** One task, as it is now. */
    task: (id: string, opts?: SendOptions): Promise<Task> =>
      upstream(splitTaskId(id)?.provider).getTask(id, opts),
    /** Polls a task until it completes or fails (`onProgress` hears each poll). */
    waitForTask: (id: string, opts?: WaitOptions): Promise<Task> =>
      upstream(splitTaskId(id)?.provider).waitForTask(id, opts),
    ...bind(kilnCalls, (call) => transport.send(call)),
  };
}

export type KilnApi = ReturnType<typeof createKilnApi>;
