// One HTTP(S) exchange of a safe fetch: a GET with exactly Kiln's headers to a pinned address,
// and the size-capped, checked reading of its body.
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import { pinnedLookup, type Target } from './resolve-target.ts';
import { SafeFetchError } from './safe-fetch-error.ts';
import { effectivePort } from './url-rules.ts';

/**
 * Opens one HTTP(S) request. The default is `https.request` for `https:` and `http.request`
 * otherwise. Injectable so tests can observe the connect target (the pinned `lookup`, `hostname`,
 * `servername`, headers) without any packet leaving the machine.
 */
export type RequestFunction = (options: https.RequestOptions) => http.ClientRequest;

export const defaultRequest: RequestFunction = (options) =>
  options.protocol === 'https:' ? https.request(options) : http.request(options);

export interface Exchange {
  req: http.ClientRequest;
  res: http.IncomingMessage;
}

export function send(
  target: Target,
  request: RequestFunction,
  signal: AbortSignal,
  identity: { accept: string; userAgent: string },
): Promise<Exchange> {
  const { url, hostname, addresses } = target;
  const options: https.RequestOptions = {
    protocol: url.protocol,
    hostname,
    port: effectivePort(url),
    path: `${url.pathname}${url.search}`,
    method: 'GET',
    // Exactly these headers: no Authorization, no cookies, ever.
    headers: {
      host: url.host,
      accept: identity.accept,
      'accept-encoding': 'identity',
      'user-agent': identity.userAgent,
    },
    // A fresh socket per hop: no pooled connection chosen by host name alone.
    agent: false,
    lookup: pinnedLookup(addresses),
    signal,
    // SNI and certificate checks use the URL's hostname even though we connect to a pinned address.
    ...(url.protocol === 'https:' && isIP(hostname) === 0 ? { servername: hostname } : {}),
  };
  return new Promise<Exchange>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    let req: http.ClientRequest;
    try {
      req = request(options);
    } catch (err) {
      reject(err as Error);
      return;
    }
    let settled = false;
    const onAbort = () => req.destroy(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    // Errors after the response (socket resets) surface on the response; keep this one quiet.
    req.on('error', (err) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      reject(err);
    });
    req.once('response', (res) => {
      settled = true;
      signal.removeEventListener('abort', onAbort);
      resolve({ req, res });
    });
    req.end();
  });
}

export function discard({ req, res }: Exchange): void {
  res.resume();
  res.destroy();
  req.destroy();
}

export interface BodyRules {
  maxBytes: number;
  headBytes: number;
  checkHead: ((head: Uint8Array) => string | undefined) | undefined;
  checkBody: ((body: Uint8Array) => string | undefined) | undefined;
}

export function readBody(
  exchange: Exchange,
  rules: BodyRules,
  signal: AbortSignal,
): Promise<Uint8Array> {
  const { res } = exchange;
  const { maxBytes } = rules;
  const declared = res.headers['content-length'];
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
    discard(exchange);
    return Promise.reject(
      new SafeFetchError('too_large', `Content-Length ${declared} is over ${maxBytes} bytes`),
    );
  }
  // A check answers a sentence (→ bad_body), or throws a SafeFetchError of its own choosing.
  const judge = (check: ((b: Uint8Array) => string | undefined) | undefined, b: Uint8Array) => {
    try {
      const problem = check?.(b);
      return problem === undefined ? undefined : new SafeFetchError('bad_body', problem);
    } catch (err) {
      if (err instanceof SafeFetchError) return err;
      throw err;
    }
  };
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let headChecked = false;
    let settled = false;
    const finish = (err: unknown, value?: Uint8Array) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (err !== undefined || value === undefined) {
        discard(exchange);
        reject(err as Error);
      } else {
        resolve(value);
      }
    };
    const onAbort = () => finish(signal.reason);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });

    res.on('data', (chunk: Buffer) => {
      if (settled) return;
      total += chunk.byteLength;
      if (total > maxBytes) {
        finish(new SafeFetchError('too_large', `body is over ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
      if (!headChecked && total >= rules.headBytes) {
        headChecked = true;
        // Fail fast on a body that is not what was asked for, before reading the rest.
        const err = judge(rules.checkHead, Buffer.concat(chunks, total));
        if (err) finish(err);
      }
    });
    res.on('end', () => {
      if (settled) return;
      if (!res.complete) {
        finish(new SafeFetchError('network', 'connection closed before the body completed'));
        return;
      }
      // Copy into a fresh buffer so the result never shares Node's pooled memory.
      const body = new Uint8Array(total);
      let offset = 0;
      for (const c of chunks) {
        body.set(c, offset);
        offset += c.byteLength;
      }
      const err =
        (headChecked ? undefined : judge(rules.checkHead, body)) ?? judge(rules.checkBody, body);
      finish(err, body);
    });
    res.on('error', (err) => finish(err));
    res.on('close', () => {
      if (!settled) {
        finish(new SafeFetchError('network', 'connection closed before the body completed'));
      }
    });
  });
}
