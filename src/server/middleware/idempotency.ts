import { createHash } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { sleep } from '../../async/index.ts';
import {
  canonicalJson,
  ERROR_CODES,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_WINDOW_MS,
} from '../../contract/index.ts';
import type { IdempotencyStore, StoredResponse } from '../storage/idempotency.ts';
import { ApiError, idempotencyKeyOf, idempotencyKeyReused } from '../../http/index.ts';
import type { OwnerEnv } from './owner.ts';

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /** This process's name in the records it holds. */
  holder: string;
  now: () => number;
  /** How long an answer is replayed. Default 24 h, as Stripe and Kiln's mock. */
  windowMs?: number;
  /** How long a holder's claim lasts without renewal (renewed every third of it). Default 10 s. */
  leaseMs?: number;
  /** How long a repeat waits for the answer of a create still in flight. Default 90 s. */
  maxWaitMs?: number;
}

/**
 * `Idempotency-Key` on creates, crash-safe and shared by every replica:
 *
 * 1. The key is recorded *in flight* (per owner, with the body's canonical hash) before the
 *    request goes on, and the holder renews its lease while it waits for the upstream.
 * 2. A repeat with the same key and body waits for the first answer (polling the record) and
 *    replays it with `Idempotent-Replayed: true`; with another body it gets 409.
 * 3. When the holder dies (kill -9, a lost replica), its lease runs out and the next repeat
 *    takes the record over and forwards again. The key goes upstream with the create, so an
 *    upstream that honours it (Kiln's mock does) answers with the same task instead of a second.
 * 4. Answers worth repeating are kept; 5xx and 429 are not, so a retry can still succeed, and
 *    neither are 401 and 403: a key the upstream does not know leaves nothing behind.
 *
 * Replays do not reach the middlewares after this one (the create rate limit).
 */
export function idempotency(options: IdempotencyOptions) {
  const windowMs = options.windowMs ?? IDEMPOTENCY_WINDOW_MS;
  const leaseMs = options.leaseMs ?? 10_000;
  const maxWaitMs = options.maxWaitMs ?? 90_000;
  const { store, holder, now } = options;
  let purges = 0;

  return createMiddleware<OwnerEnv>(async (c, next) => {
    const owner = c.var.owner;
    if (!owner) return next();
    const key = idempotencyKeyOf(c);
    if (key === undefined) return next();
    const text = new TextDecoder().decode(await c.req.arrayBuffer());
    const bodySha256 = createHash('sha256').update(canonicalJson(text)).digest('hex');

    // Claim the key, or learn who has it.
    const waitUntil = now() + maxWaitMs;
    for (let pause = 25; ; pause = Math.min(pause * 2, 500)) {
      if (await store.claim(owner, key, bodySha256, holder, now(), leaseMs)) break;
      const record = await store.get(owner, key);
      if (!record) continue; // released meanwhile: claim again
      if (record.createdMs < now() - windowMs) {
        await store.purge(now() - windowMs);
        continue;
      }
      if (record.bodySha256 !== bodySha256) throw idempotencyKeyReused();
      if (record.response) return replay(record.response);
      if (record.leaseUntilMs < now() && (await store.takeOver(owner, key, holder, now(), leaseMs)))
        break;
      if (now() >= waitUntil)
        throw new ApiError(
          409,
          {
            code: ERROR_CODES.idempotencyKeyInUse,
            message:
              'A request with this Idempotency-Key is still in progress. Retry in a moment to get its answer.',
            param: IDEMPOTENCY_HEADER,
          },
          { headers: { 'retry-after': '1' } },
        );
      await sleep(pause);
    }

    // This process holds the key: renew the lease while the request goes on.
    const renewal = setInterval(
      () => void store.renew(owner, key, holder, now() + leaseMs).catch(() => {}),
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    renewal.unref?.();
    let kept = false;
    try {
      await next();
      const res = c.res.clone();
      const answer: StoredResponse = {
        status: res.status,
        headers: Object.fromEntries(res.headers),
        body: new Uint8Array(await res.arrayBuffer()),
      };
      // A database gone between the upstream's answer and this write loses only the replay:
      // the answer (the upstream's word) still goes out, and a retry after the lease runs out
      // is answered by the upstream's own replay (decision 0091).
      if (answer.status < 500 && ![401, 403, 429].includes(answer.status))
        kept = await store.finish(owner, key, holder, answer).then(
          () => true,
          () => false,
        );
    } finally {
      clearInterval(renewal);
      if (!kept) await store.release(owner, key, holder).catch(() => {});
      if (++purges % 100 === 0) await store.purge(now() - windowMs).catch(() => {});
    }
  });
}

function replay(stored: StoredResponse): Response {
  const headers = new Headers(stored.headers);
  headers.set('idempotent-replayed', 'true');
  return new Response(stored.body as Uint8Array<ArrayBuffer>, { status: stored.status, headers });
}
