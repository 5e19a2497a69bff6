import { describe, expect, it } from 'vitest';
import { PromptCheckSchema } from '../../contract/index.ts';
import { promptCheck } from '../../mock/prompt-knowledge.ts';
import { queryKeys } from './query-keys.ts';
import { pollInterval, promptCheckQuery } from './tasks.ts';

const at = (created: number, status = 'pending') => ({ id: 't', status, created });
const now = 1_000_000 * 1000;

describe('pollInterval', () => {
  it('polls every 2 s for young tasks, easing to 5 s', () => {
    expect(pollInterval(at(now / 1000 - 5), now)).toBe(2000);
    expect(pollInterval(at(now / 1000 - 35), now)).toBe(2500);
    expect(pollInterval(at(now / 1000 - 120), now)).toBe(5000);
    expect(pollInterval(at(now / 1000 - 3600), now)).toBe(5000);
  });

  it('never polls a finished task', () => {
    expect(pollInterval(at(0, 'completed'), now)).toBe(false);
    expect(pollInterval(at(0, 'failed'), now)).toBe(false);
  });

  it('polls a task it knows nothing about yet', () => {
    expect(pollInterval(undefined, now)).toBe(2000);
  });
});

describe('prompt check (mock only)', () => {
  it('parses what the mock answers, known or not', () => {
    for (const prompt of ['a ceramic teapot with wheels', 'a time machine', 'a wingless dragon'])
      expect(PromptCheckSchema.parse(promptCheck(prompt))).toMatchObject({
        object: 'mock.prompt_check',
      });
  });

  it('refuses an answer of another shape', () => {
    expect(() => PromptCheckSchema.parse({ object: 'task', known: true })).toThrow();
  });

  it('keys each prompt once, for everyone (no key involved)', () => {
    expect(promptCheckQuery('a cat').queryKey).toEqual(queryKeys.promptCheck('a cat'));
    expect(queryKeys.promptCheck('a cat')).toEqual(['prompt-check', 'a cat']);
  });
});
