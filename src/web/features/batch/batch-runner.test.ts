import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  InsufficientCreditsError,
  InvalidRequestError,
  RateLimitError,
} from '../../../client/index.ts';
import type { CreateGenerationInput } from '../../../contract/index.ts';
import { createPacer, retryWait, sendItems, withRetries, type RunnerDeps } from './batch-runner.ts';
import { promptItem } from './batch-fixtures.ts';
import type { BatchItem } from './batch-store.ts';

const rateLimited = (seconds: number | null) =>
  new RateLimitError(
    429,
    { error: { message: 'Too many requests.', type: 'rate_limit_error', code: 'rate_limited' } },
    seconds === null ? {} : { 'retry-after': String(seconds) },
  );

/** Item i`n`: "thing `n`", queued, sent under key-`n`. */
const item = (n: number, change: Partial<BatchItem> = {}) =>
  promptItem(n, `thing ${n}`, { id: `i${n}`, ...change });

/** Runner deps over an in-memory item list; `create` is the test's. */
function harness(items: BatchItem[], create: RunnerDeps['create']) {
  const state = new Map(items.map((i) => [i.id, i]));
  const deps: RunnerDeps = {
    get: (id) => state.get(id),
    update: (id, change) => state.set(id, { ...state.get(id)!, ...change }),
    upload: async () => ({ url: 'https://x.test/a.png', preview: '/api/uploads/a.png' }),
    create,
    describe: (err) => (err instanceof Error ? err.message : String(err)),
    random: () => 0.5,
  };
  return { state, deps };
}

describe('the pacer', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('runs at most 3 at once and holds every start for a 429’s Retry-After', async () => {
    const pacer = createPacer(3);
    const starts: { key: string; at: number }[] = [];
    let open = 0;
    let most = 0;
    let refused = false;
    const create = async (body: CreateGenerationInput, key: string) => {
      starts.push({ key, at: Date.now() });
      open++;
      most = Math.max(most, open);
      try {
        if (key === 'key-2' && !refused) {
          await new Promise((r) => setTimeout(r, 500));
          refused = true;
          throw rateLimited(5);
        }
        await new Promise((r) => setTimeout(r, 1000));
        return { id: `task_${key}` };
      } finally {
        open--;
      }
    };
    const items = Array.from({ length: 7 }, (_, i) => item(i + 1));
    const { state, deps } = harness(items, create);
    const done = sendItems(
      { model: 'beta-text' },
      items.map((i) => i.id),
      deps,
      pacer,
      new AbortController().signal,
    );

    await vi.advanceTimersByTimeAsync(0);
    expect(starts.map((s) => s.key)).toEqual(['key-1', 'key-2', 'key-3']);
    // At 0.5 s key-2 is refused with Retry-After: 5. At 1 s two slots free up, but nothing
    // starts until the 5 s are over.
    await vi.advanceTimersByTimeAsync(500);
    expect(pacer.pausedUntil).toBe(1_000_000 + 5500);
    await vi.advanceTimersByTimeAsync(4999);
    expect(starts).toHaveLength(3);
    expect(pacer.active).toBe(3); // key-2 waiting in its slot, items 4 and 5 in theirs
    await vi.advanceTimersByTimeAsync(1);
    expect(starts.slice(3).map((s) => [s.key, s.at])).toEqual([
      ['key-2', 1_005_500], // the refused one again, with its own key
      ['key-4', 1_005_500],
      ['key-5', 1_005_500],
    ]);
    await vi.runAllTimersAsync();
    await done;

    expect(most).toBeLessThanOrEqual(3);
    expect(starts.filter((s) => s.key === 'key-2')).toHaveLength(2);
    expect([...state.values()].map((i) => [i.state, i.taskId])).toEqual(
      items.map((i) => ['created', `task_${i.idempotencyKey}`]),
    );
  });
});

describe('the pacer’s retries', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('backs off a passing failure with the same key, and gives up on a refusal at once', async () => {
    const pacer = createPacer(3);
    const keys: string[] = [];
    let calls = 0;
    const flaky = withRetries(
      async () => {
        keys.push('same');
        if (++calls < 3) throw new APIConnectionError('reset');
        return 'ok';
      },
      pacer,
      { random: () => 0 },
    );
    await vi.runAllTimersAsync();
    await expect(flaky).resolves.toBe('ok');
    expect(calls).toBe(3);

    const refused = withRetries(async () => {
      throw new InvalidRequestError(400, { error: { message: 'bad', param: 'prompt' } });
    }, pacer);
    await expect(refused).rejects.toThrow('bad');
  });

  it('waits a 429 without Retry-After by the backoff, and stops after so many', () => {
    expect(retryWait(rateLimited(7), 0)).toBe(7000);
    expect(retryWait(rateLimited(null), 0, () => 0)).toBe(250);
    expect(retryWait(rateLimited(1), 9)).toBeUndefined();
    expect(retryWait(new APIConnectionError('x'), 3)).toBeUndefined();
    expect(
      retryWait(new InsufficientCreditsError(402, { error: { message: 'no' } }), 0),
    ).toBeUndefined();
  });
});

describe('sendItems', () => {
  it('keeps the create’s state before it goes, so a reload re-sends the same key', async () => {
    const seen: string[] = [];
    const items = [item(1)];
    const { state, deps } = harness(items, async (_body, key) => {
      seen.push(`${key}:${state.get('i1')?.state}`);
      return { id: 'task_1' };
    });
    await sendItems(
      { model: 'beta-text' },
      ['i1'],
      deps,
      createPacer(3),
      new AbortController().signal,
    );
    expect(seen).toEqual(['key-1:creating']);
    expect(state.get('i1')).toMatchObject({ state: 'created', taskId: 'task_1' });
  });

  it('uploads a photo first, and sends its URL', async () => {
    const bodies: CreateGenerationInput[] = [];
    const items = [item(1, { prompt: null, name: 'chair.png' })];
    const { state, deps } = harness(items, async (body) => {
      bodies.push(body);
      return { id: 'task_1' };
    });
    await sendItems({ model: 'beta' }, ['i1'], deps, createPacer(3), new AbortController().signal);
    expect(bodies).toEqual([{ model: 'beta', image_url: 'https://x.test/a.png' }]);
    expect(state.get('i1')?.upload).toEqual({
      url: 'https://x.test/a.png',
      preview: '/api/uploads/a.png',
    });
  });

  it('stops sending once the balance runs out, and says why on each item left', async () => {
    const items = [1, 2, 3, 4].map((n) => item(n));
    const sent: string[] = [];
    const { state, deps } = harness(items, async (_body, key) => {
      sent.push(key);
      if (key === 'key-1') return { id: 'task_1' };
      throw new InsufficientCreditsError(402, {
        error: { message: 'Not enough credits: this task costs 10 and the balance is 5.' },
      });
    });
    await sendItems(
      { model: 'beta-text' },
      items.map((i) => i.id),
      deps,
      createPacer(1),
      new AbortController().signal,
    );
    expect(sent).toEqual(['key-1', 'key-2']);
    expect(state.get('i2')).toMatchObject({ state: 'failed', taskId: null });
    expect(state.get('i3')?.error).toBe(
      'Not sent: the balance ran out (Not enough credits: this task costs 10 and the balance is 5).',
    );
    expect(state.get('i4')?.state).toBe('failed');
  });
});
