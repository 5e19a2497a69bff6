import { describe, expect, it } from 'vitest';
import { promptCheck } from '../../mock/prompt-knowledge.ts';
import { queryKeys } from './query-keys.ts';
import { PromptCheckSchema } from '../../contract/index.ts';
import { promptCheckQuery } from './prompt-check-query.ts';

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
