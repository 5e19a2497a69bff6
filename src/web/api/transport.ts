// The one way out: every request the SPA makes leaves through this file (lint-enforced). Kiln's
// own endpoints (`request`; the one client's calls, `kilnCall` and `send`), uploads with progress (`upload`, XHR), files with progress
// (`download`), the connectivity probe (`probe`), and the upstream's typed client, which is
// handed `upstreamFetch`. It carries the current key as a bearer token and fails with the
// client's typed errors (src/client/errors.ts: APIError by status, APIConnectionError,
// APIUserAbortError). Those classes (and zod, which they use) load only when a request fails, so
// the app shell that asks `/api/info`, and /viewer's early start, stay small.
import type * as Errors from '../../client/errors.ts';
import type { Call, kilnCalls } from '../../client/kiln/calls.ts';
import {
  LIBRARY_HEADER,
  PROVIDER_KEY_HEADER,
  type VendorProvider,
} from '../../contract/provider-ids.ts';
import { DECODED_LENGTH_HEADER } from '../../contract/headers.ts';
import { currentApiKey } from '../lib/key-store.ts';
import { currentLibraryKey, currentProviderKey } from '../lib/provider-keys.ts';

/** Kiln's proxy of the upstream API (up to and including `/v1`). */
export const API_BASE = '/api/v1';

type ErrorFamily = typeof Errors;

/** The error classes, or null when even they cannot load (Kiln down before they ever were). */
const errorFamily = (): Promise<ErrorFamily | null> =>
  import('../../client/errors.ts').catch(() => null);

const UNREACHABLE = 'Kiln’s server could not be reached. Check that it is running.';

export interface SendOptions {
  signal?: AbortSignal | undefined;
  /** Send the current API key as a bearer token (default true; `/api/info`, uploads and shared links need none). */
  auth?: boolean;
  /** A vendor's call: its key goes along as `x-provider-key` (and to no one else). */
  provider?: VendorProvider | undefined;
  /** The vendor's key to send instead of the kept one (a key tested before it is kept). */
  providerKey?: string | undefined;
}

function headersFor(
  options: Pick<SendOptions, 'auth' | 'provider' | 'providerKey'>,
  accept?: string,
): Record<string, string> {
  const headers: Record<string, string> = accept ? { accept } : {};
  const apiKey = options.auth === false ? null : currentApiKey();
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const library = currentLibraryKey();
  if (library) headers[LIBRARY_HEADER] = library;
  const vendorKey =
    options.providerKey ?? (options.provider ? currentProviderKey(options.provider) : null);
  if (vendorKey) headers[PROVIDER_KEY_HEADER] = vendorKey;
  return headers;
}

/** fetch; a failure to connect becomes APIConnectionError, an abort stays what it is. */
async function exchange(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (init.signal?.aborted) throw err;
    const family = await errorFamily();
    throw family ? new family.APIConnectionError(UNREACHABLE, { cause: err }) : err;
  }
}

/** A text body as JSON when it is JSON, else the text ('' when empty). */
function bodyOf(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : '';
  } catch {
    return text;
  }
}

/** A non-2xx answer as the typed error for its status, carrying the server's sentence. */
async function refusal(
  status: number,
  body: unknown,
  headers: Headers,
  statusText: string,
): Promise<Error> {
  const family = await errorFamily();
  if (family) return family.APIError.from(status, body, headers, statusText);
  return new Error(`Kiln’s server answered ${status}${statusText ? ` ${statusText}` : ''}.`);
}

/**
 * Kiln's own JSON endpoints (`/api/info`, `/api/library`, `/api/credits`, …): the body parsed by
 * `parse` (a contract schema's parse; `undefined` for a 204).
 */
export async function request<T>(
  path: string,
  options: SendOptions & {
    method?: string;
    parse: (body: unknown) => T;
    /** A JSON body. */
    json?: unknown;
    /** A binary body (an image), sent with its own type. */
    blob?: Blob;
    /** More headers (a create's Idempotency-Key). */
    headers?: Record<string, string>;
  },
): Promise<T> {
  const headers = { ...options.headers, ...headersFor(options, 'application/json') };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  else if (options.blob) headers['content-type'] = options.blob.type || 'application/octet-stream';
  const res = await exchange(path, {
    method: options.method ?? 'GET',
    headers,
    signal: options.signal ?? null,
    ...(options.json !== undefined
      ? { body: JSON.stringify(options.json) }
      : options.blob
        ? { body: options.blob }
        : {}),
  });
  const body = bodyOf(await res.text());
  if (!res.ok) throw await refusal(res.status, body, res.headers, res.statusText);
  return options.parse(res.status === 204 ? undefined : body);
}

/**
 * One call of the one client (src/client/kiln/calls.ts: its method, path, JSON body and contract
 * parser) sent by `request`, so with the same key, library and vendor headers and typed errors. A
 * call that needs no key (`auth: false`) goes without one whatever `options` say.
 */
export function send<T>(call: Call<T>, options: SendOptions = {}): Promise<T> {
  return request(call.path, {
    ...options,
    method: call.method,
    auth: call.auth !== false && options.auth !== false,
    json: call.json,
    parse: call.parse,
  });
}

/**
 * `send` of the call `pick` chooses of `kilnCalls` (`(k) => k.credits()`), for a file of the app
 * shell: the calls, with the contract's schemas (and zod), load on first use, so the shell and
 * /viewer's early start import none of them.
 */
export async function kilnCall<T>(
  pick: (calls: typeof kilnCalls) => Call<T>,
  options?: SendOptions,
): Promise<T> {
  const { kilnCalls } = await import('../../client/kiln/calls.ts');
  return send(pick(kilnCalls), options);
}

/** What `download` brings: the bytes, and the answer's headers (its file name, its type). */
export interface Downloaded {
  bytes: Uint8Array<ArrayBuffer>;
  headers: Headers;
}

/**
 * A file's size as the body reads, once decoded (0 when the answer does not say it): a compressed
 * answer's `Content-Length` is its compressed size, so Kiln's server says the decoded one apart.
 */
export function decodedSize(headers: Headers): number {
  const encoded = (headers.get('content-encoding') ?? 'identity') !== 'identity';
  const size = headers.get(encoded ? DECODED_LENGTH_HEADER : 'content-length');
  return Number(size ?? 0) || 0;
}

/**
 * A file's bytes; `onProgress` hears the bytes received so far and the size (0 when the answer
 * does not say it) as they arrive.
 */
export async function download(
  url: string,
  options: SendOptions & {
    accept?: string;
    onProgress?: (received: number, total: number) => void;
    /** Hears each piece of the body as it arrives (before `onProgress` for it). */
    onChunk?: (chunk: Uint8Array) => void;
  } = {},
): Promise<Downloaded> {
  const res = await exchange(url, {
    headers: headersFor(options, options.accept),
    signal: options.signal ?? null,
  });
  if (!res.ok)
    throw await refusal(res.status, bodyOf(await res.text()), res.headers, res.statusText);
  const { onChunk } = options;
  const onProgress = options.onProgress ?? (onChunk ? () => {} : undefined);
  if (!res.body || !onProgress)
    return { bytes: new Uint8Array(await res.arrayBuffer()), headers: res.headers };
  const total = decodedSize(res.headers);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    onChunk?.(value);
    received += value.byteLength;
    onProgress(received, total);
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes, headers: res.headers };
}

/** The file name a Content-Disposition header gives, or undefined. */
export function dispositionName(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall back to the plain name
    }
  }
  return (
    /filename\s*=\s*"([^"]+)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1]
  );
}

/**
 * A POST of a form with upload progress (fetch cannot report it; XHR can): `onProgress` hears
 * the fraction sent, and 1 once the answer is in. A 2xx body that `parse` refuses is a 502.
 */
export function upload<T>(
  path: string,
  form: FormData,
  options: SendOptions & {
    parse: (body: unknown) => T;
    onProgress?: (fraction: number) => void;
  },
): Promise<T> {
  return new Promise((resolve, reject) => {
    const fail = (make: (family: ErrorFamily) => Error, fallback: () => Error) =>
      void errorFamily().then((family) => reject(family ? make(family) : fallback()));
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    for (const [name, value] of Object.entries(headersFor(options)))
      xhr.setRequestHeader(name, value);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = bodyOf(xhr.responseText);
      if (xhr.status === 201 || xhr.status === 200) {
        let parsed: T;
        try {
          parsed = options.parse(body);
        } catch {
          const message = 'The server answered the upload with an unexpected body.';
          return fail(
            (family) => family.APIError.from(502, message),
            () => new Error(message),
          );
        }
        options.onProgress?.(1);
        resolve(parsed);
      } else void refusal(xhr.status, body, responseHeaders(xhr), xhr.statusText).then(reject);
    };
    xhr.onerror = () => {
      const message = 'The upload could not reach Kiln’s server.';
      fail(
        (family) => new family.APIConnectionError(message),
        () => new Error(message),
      );
    };
    xhr.onabort = () => {
      const message = 'The upload was cancelled.';
      fail(
        (family) => new family.APIUserAbortError(message),
        () => new Error(message),
      );
    };
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** An XHR's response headers (Retry-After on a 429 among them), as fetch would give them. */
function responseHeaders(xhr: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
}

/**
 * A question whose answer is its status (the connectivity probe's): never cached, never an HTTP
 * error; a failure to connect throws as fetch does.
 */
export async function probe(
  path: string,
  options: SendOptions = {},
): Promise<{ status: number; ok: boolean; body: unknown }> {
  const res = await fetch(path, {
    headers: headersFor(options),
    cache: 'no-store',
    signal: options.signal ?? null,
  });
  return { status: res.status, ok: res.ok, body: bodyOf(await res.text()) };
}

/**
 * The fetch the upstream's typed client (src/client, made in tasks.ts) is given: its exchanges
 * leave here too, with the client's own bearer header, retries, timeouts and typed errors, and
 * the library key.
 */
export const upstreamFetch: typeof fetch = (input, init) => {
  const library = currentLibraryKey();
  if (!library) return fetch(input, init);
  const headers = new Headers(init?.headers);
  headers.set(LIBRARY_HEADER, library);
  return fetch(input, { ...init, headers });
};
