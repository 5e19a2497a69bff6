import { afterEach, describe, expect, it } from 'vitest';
import { CompletedTaskSchema, ErrorBodySchema, PendingTaskSchema } from '../contract/index.ts';
import { IDEMPOTENCY_WINDOW_MS } from '../contract/index.ts';
import { hashKey } from './keys.ts';
import { ledgerOf, startTestMock, type TestMock } from '../testing/mock.ts';

let mock: TestMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const create = (m: TestMock, body: unknown, idem?: string, key?: string) =>
  m.request('/3d/generations', {
    method: 'POST',
    body: JSON.stringify(body),
    ...(key ? { key } : {}),
    headers: idem === undefined ? {} : { 'Idempotency-Key': idem },
  });

const KEYS = [
  { key: 'tr_test_key', balance: 100 },
  { key: 'tr_other_key', balance: 100 },
];

describe('Idempotency-Key, as Stripe honours it', () => {
  it('answers a repeat with the same task and answer, charging once', async () => {
    mock = await startTestMock({ keys: KEYS });
    const body = { model: 'beta-text', prompt: 'a red vase' };
    const first = await create(mock, body, 'order-1');
    expect(first.status).toBe(202);
    const firstText = await first.text();
    const again = await create(mock, { prompt: 'a red vase', model: 'beta-text' }, 'order-1');
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(firstText);
    const ledger = await ledgerOf(mock.store, hashKey('tr_test_key'));
    expect(ledger.balance).toBe(90);
    expect(await mock.store.tasksOf(hashKey('tr_test_key'))).toHaveLength(1);
  });

  it('refuses the same key with another body (409), charging nothing more', async () => {
    mock = await startTestMock({ keys: KEYS });
    await create(mock, { model: 'beta-text', prompt: 'a red vase' }, 'order-2');
    const res = await create(mock, { model: 'beta-text', prompt: 'a blue vase' }, 'order-2');
    expect(res.status).toBe(409);
    expect(ErrorBodySchema.parse(await res.json()).error).toMatchObject({
      code: 'idempotency_key_reused',
      param: 'Idempotency-Key',
    });
    expect((await ledgerOf(mock.store, hashKey('tr_test_key'))).balance).toBe(90);
  });

  it('scopes keys to the API key', async () => {
    mock = await startTestMock({ keys: KEYS });
    const body = { model: 'beta-text', prompt: 'a red vase' };
    const a = PendingTaskSchema.parse(await (await create(mock, body, 'shared')).json());
    const b = PendingTaskSchema.parse(
      await (await create(mock, body, 'shared', 'tr_other_key')).json(),
    );
    expect(a.id).not.toBe(b.id);
    expect((await ledgerOf(mock.store, hashKey('tr_other_key'))).balance).toBe(90);
  });

  it('replays a sync create’s completed answer, and 20 concurrent repeats make one task', async () => {
    mock = await startTestMock({ keys: KEYS });
    const m = mock;
    const body = { model: 'beta-text', prompt: 'a cube', mode: 'sync' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => create(m, body, 'burst').then((r) => r.json())),
    );
    const ids = new Set(answers.map((a) => (a as { id: string }).id));
    expect(ids.size).toBe(1);
    const done = CompletedTaskSchema.parse(answers[0]);
    expect(done.usage.credits_remaining).toBe(90);
    const later = await create(m, body, 'burst');
    expect(later.status).toBe(200);
    expect(CompletedTaskSchema.parse(await later.json()).id).toBe(done.id);
    expect((await ledgerOf(m.store, hashKey('tr_test_key'))).balance).toBe(90);
  });

  it('forgets a key after a day', async () => {
    let now = 1_800_000_000_000;
    mock = await startTestMock({ keys: KEYS, now: () => now });
    const body = { model: 'beta-text', prompt: 'a cube' };
    const a = PendingTaskSchema.parse(await (await create(mock, body, 'daily')).json());
    now += IDEMPOTENCY_WINDOW_MS + 1;
    const b = PendingTaskSchema.parse(await (await create(mock, body, 'daily')).json());
    expect(b.id).not.toBe(a.id);
  });

  it('refuses a malformed key with 400 naming the header, before any charge', async () => {
    mock = await startTestMock({ keys: KEYS });
    const res = await create(mock, { model: 'beta-text', prompt: 'a' }, 'has space');
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(await res.json()).error.param).toBe('Idempotency-Key');
    expect((await ledgerOf(mock.store, hashKey('tr_test_key'))).balance).toBe(100);
  });
});
