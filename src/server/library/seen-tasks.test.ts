import { describe, expect, it, vi } from 'vitest';
import { completedRow } from '../../testing/library-rows.ts';
import { KEY, serverPerTest } from '../../testing/server.ts';
import { ownerHasher } from '../owner-id.ts';
import { createSeenTasks, type RecordedState } from './seen-tasks.ts';

const state = (signature: string, sha?: string): RecordedState => ({
  signature,
  sha,
  inLibrary: true,
});

describe('createSeenTasks: what this process last recorded of each task', () => {
  it('knows an answer only once it is recorded, for its owner and task alone', () => {
    const seen = createSeenTasks();
    expect(seen.sameBody('o', 't', '{"a":1}')).toBe(false);
    seen.rememberBody('o', 't', '{"a":1}');
    expect(seen.sameBody('o', 't', '{"a":1}')).toBe(true);
    expect(seen.sameBody('o', 't', '{"a":2}')).toBe(false);
    expect(seen.sameBody('other', 't', '{"a":1}')).toBe(false);
    expect(seen.sameBody('o', 't2', '{"a":1}')).toBe(false);
  });

  it('answers a state only while it is the one recorded last', () => {
    const seen = createSeenTasks();
    expect(seen.sameState('o', 't', 's1')).toBeUndefined();
    seen.rememberState('o', 't', state('s1', 'abc'));
    expect(seen.sameState('o', 't', 's1')).toEqual(state('s1', 'abc'));
    expect(seen.sameState('o', 't', 's2')).toBeUndefined();
    expect(seen.sameState('other', 't', 's1')).toBeUndefined();
  });

  it('forgets the answer of an older state when a new state is recorded, and keeps the state with its answer', () => {
    const seen = createSeenTasks();
    seen.rememberState('o', 't', state('s1'));
    seen.rememberBody('o', 't', 'body 1');
    expect(seen.sameState('o', 't', 's1')).toEqual(state('s1'));
    expect(seen.sameBody('o', 't', 'body 1')).toBe(true);
    // Recorded by another path (the library's catch-up reads the task itself): the old answer
    // no longer stands for what was written.
    seen.rememberState('o', 't', state('s2'));
    expect(seen.sameBody('o', 't', 'body 1')).toBe(false);
    expect(seen.sameState('o', 't', 's2')).toEqual(state('s2'));
  });

  it('keeps at most `max` tasks, dropping the one used longest ago', () => {
    const seen = createSeenTasks(2);
    seen.rememberBody('o', 'a', 'A');
    seen.rememberBody('o', 'b', 'B');
    seen.rememberState('o', 'a', state('sa')); // `a` is used again: `b` is now the oldest
    seen.rememberBody('o', 'c', 'C');
    expect(seen.size).toBe(2);
    expect(seen.sameBody('o', 'b', 'B')).toBe(false);
    expect(seen.sameState('o', 'a', 'sa')).toEqual(state('sa'));
    expect(seen.sameBody('o', 'c', 'C')).toBe(true);
  });
});

describe('a poll that says nothing new', () => {
  const startServer = serverPerTest();
  const OWNER = ownerHasher(Buffer.alloc(32, 7))(KEY);

  it('costs the database no write, through the proxy; one that says something new does', async () => {
    // The upstream's answer about task t1, as the test sets it.
    let answer: object = { id: 't1', object: 'task', status: 'pending', progress: 20 };
    const s = await startServer({
      upstream: {
        baseUrl: 'http://up.test/v1',
        fetch: async () => Response.json(answer),
      },
    });
    await s.store.insert(
      completedRow(OWNER, 't1', { status: 'pending', progress: 0, completedAt: null }),
    );
    const update = vi.spyOn(s.store, 'update');
    const poll = async () => {
      const res = await s.request('/api/v1/tasks/t1');
      expect(res.status).toBe(200);
      return res.json();
    };

    expect(await poll()).toEqual(answer);
    expect(update).toHaveBeenCalledTimes(1);
    await poll();
    await poll();
    expect(update).toHaveBeenCalledTimes(1);
    expect((await s.store.get(OWNER, 't1'))?.progress).toBe(20);

    answer = { id: 't1', object: 'task', status: 'pending', progress: 40 };
    expect(await poll()).toEqual(answer);
    expect(update).toHaveBeenCalledTimes(2);
    // The same state in other words (the keys in another order): parsed, but no write either.
    answer = { progress: 40, status: 'pending', object: 'task', id: 't1' };
    await poll();
    expect(update).toHaveBeenCalledTimes(2);
    expect((await s.store.get(OWNER, 't1'))?.progress).toBe(40);
  });
});
