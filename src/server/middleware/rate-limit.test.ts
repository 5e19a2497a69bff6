import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../contract/index.ts';
import { openSqliteStorage, type Storage } from '../storage/database.ts';
import { onApiError } from '../../http/index.ts';
import { rateLimit } from './rate-limit.ts';

let storage: Storage | undefined;
afterEach(async () => {
  await storage?.close();
  storage = undefined;
});

async function appWith(limit: number, now: () => number) {
  storage = await openSqliteStorage(':memory:');
  // Two apps over one database: two replicas counting against one limit.
  const make = () =>
    new Hono().onError(onApiError(() => {})).post(
      '/x',
      rateLimit({
        limit,
        windowMs: 60_000,
        keyOf: (c) => c.req.header('x-who') ?? 'anyone',
        message: (wait) => `At most ${limit} a minute. Wait ${wait} s.`,
        counters: storage!.counters,
        now,
      }),
      (c) => c.text('ok'),
    );
  return [make(), make()] as const;
}

const hit = (app: Hono, who = 'a') =>
  app.request('/x', { method: 'POST', headers: { 'x-who': who } });

describe('rateLimit', () => {
  it('counts in the database across apps, answers 429 with Retry-After and the spec’s body', async () => {
    let now = 1_800_000_000_000;
    const [a, b] = await appWith(3, () => now);
    expect((await hit(a)).status).toBe(200);
    expect((await hit(b)).status).toBe(200);
    expect((await hit(a)).status).toBe(200);
    const refused = await hit(b);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    const error = ErrorBodySchema.parse(await refused.json()).error;
    expect(error.code).toBe('rate_limited');
    expect(error.message).toBe(`At most 3 a minute. Wait ${wait} s.`);
    // Someone else is counted apart; the next window starts afresh.
    expect((await hit(a, 'b')).status).toBe(200);
    now += 60_000;
    expect((await hit(a)).status).toBe(200);
  });

  it('is off at 0', async () => {
    const [a] = await appWith(0, () => 1_800_000_000_000);
    for (let i = 0; i < 5; i++) expect((await hit(a)).status).toBe(200);
  });
});
