import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, STAGES } from '../contract/index.ts';
import { startTestMock, type TestMock } from '../testing/mock.ts';
import type { PromptCheck } from '../contract/index.ts';

let mock: TestMock;
beforeAll(async () => {
  mock = await startTestMock();
});
afterAll(async () => {
  await mock.close();
});

const check = (prompt: string, key: string | null = null) =>
  mock.request(`/mock/prompt-check?prompt=${encodeURIComponent(prompt)}`, { key });

describe('GET /v1/mock/prompt-check (mock only)', () => {
  it('says what the demo generator knows of a prompt, without a key', async () => {
    const res = await check('a ceramic teapot with wheels');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await res.json()) as PromptCheck;
    expect(body).toMatchObject({
      object: 'mock.prompt_check',
      prompt: 'a ceramic teapot with wheels',
      known: true,
      name: 'teapot',
      made_from: 'teapot',
      approximate: false,
      material: 'ceramic',
      colour: null,
      modifiers: [],
      ignored_modifiers: ['wheels'],
      abstract_form: null,
    });
    expect(body.message).toBe('Known object: ceramic teapot (it has no wheels).');
    expect(body.made_message).toBe('Made: ceramic teapot (it has no wheels).');
    expect(body.examples.length).toBeGreaterThanOrEqual(4);
  });

  it('says the words that did not shape the model, and that glass is opaque (issue 32)', async () => {
    const teapot = (await (await check('a melancholy teapot')).json()) as PromptCheck;
    expect(teapot).toMatchObject({ unused_words: ['melancholy'], opaque_materials: [] });
    expect(teapot.message).toBe('Known object: teapot. Not used: “melancholy”.');
    expect(teapot.made_message).toBe('Made: teapot. Not used: “melancholy”.');
    const dragon = (await (await check('a glass dragon')).json()) as PromptCheck;
    expect(dragon).toMatchObject({ material: 'glass', opaque_materials: ['glass'] });
    expect(dragon.message).toBe(
      'Known object: glass dragon. “glass” gives it colour and shine only: the model is opaque, not see-through.',
    );
    const both = (await (
      await check('a happy glass dragon with crystal wings')
    ).json()) as PromptCheck;
    expect(both.message).toBe(
      'Known object: glass dragon, with crystal wings. “glass” and “crystal” give it colour and shine only: the model is opaque, not see-through. Not used: “happy”.',
    );
    // Every word that shaped it is said: proportions, colour, material, a part's own finish.
    const vase = (await (
      await check('a tall red ceramic vase with gold handles')
    ).json()) as PromptCheck;
    expect(vase.message).toBe('Known object: tall red ceramic vase, with gold handle.');
    // An unknown or approximate object already says it was not made as named.
    for (const prompt of ['a melancholy time machine', 'a red fire truck'])
      expect(((await (await check(prompt)).json()) as PromptCheck).unused_words, prompt).toEqual(
        [],
      );
  });

  it('says when an object is made from a nearby model, and which', async () => {
    for (const [prompt, from] of [
      ['a red fire truck', 'car'],
      ['a lantern', 'lamp'],
      ['a chess knight', 'pawn'],
      ['a kettle', 'teapot'],
    ] as const) {
      const body = (await (await check(prompt)).json()) as PromptCheck;
      expect(body, prompt).toMatchObject({ known: true, approximate: true, made_from: from });
      expect(body.message, prompt).toMatch(
        new RegExp(`^Approximate: .*${from}.*the closest it has\\.$`),
      );
      expect(body.made_message, prompt).toMatch(/^Approximate: .* it made /);
    }
    const exact = (await (await check('a blue teapot')).json()) as PromptCheck;
    expect(exact).toMatchObject({ approximate: false, message: 'Known object: blue teapot.' });
  });

  it('says honestly that an unknown object becomes an abstract form, and offers examples', async () => {
    const body = (await (await check('a time machine', 'tr_test_key')).json()) as PromptCheck;
    expect(body.known).toBe(false);
    expect(body.name).toBeNull();
    expect(body.abstract_form).toMatch(/^(blob|spindle|twist|crystals)$/);
    expect(body.message).toBe('Not a known object: the demo generator will make an abstract form.');
    // Every example is one the generator knows.
    for (const example of body.examples) {
      const known = (await (await check(example)).json()) as PromptCheck;
      expect(known.known, example).toBe(true);
    }
  });

  it('names parts added and left out', async () => {
    const body = (await (await check('a green dragon without wings')).json()) as PromptCheck;
    expect(body).toMatchObject({ known: true, colour: 'green', modifiers: ['without wings'] });
    expect(body.message).toBe('Known object: green dragon, without wings.');
  });

  it('refuses a missing, empty or too long prompt in the spec’s error shape, naming the field', async () => {
    const missing = await mock.request('/mock/prompt-check', { key: null });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: {
        message: 'prompt is required: send the text to check as ?prompt=….',
        type: 'invalid_request_error',
        code: 'missing_field',
        param: 'prompt',
      },
    });
    const empty = await check('   ');
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({
      error: { code: 'missing_field', param: 'prompt', message: expect.stringMatching(/empty/) },
    });
    const long = await check('x'.repeat(LIMITS.maxPromptLength + 1));
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({
      error: {
        code: 'prompt_too_long',
        param: 'prompt',
        message: expect.stringContaining(String(LIMITS.maxPromptLength)),
      },
    });
  });

  it('leaves the spec’s API as it was: other methods and paths still need a key', async () => {
    expect(
      (await mock.request('/mock/prompt-check?prompt=a', { method: 'POST', key: null })).status,
    ).toBe(401);
    expect((await mock.request('/models', { key: null })).status).toBe(401);
    // A text task for an unknown object is an ordinary task with the spec's stages.
    const res = await mock.request('/3d/generations', {
      method: 'POST',
      body: JSON.stringify({ model: 'beta-text', prompt: 'a time machine', mode: 'sync' }),
    });
    expect(res.status).toBe(200);
    const task = (await res.json()) as { status: string; progress_stage: string };
    expect(task.status).toBe('completed');
    expect(STAGES.map((s) => s.label)).toContain(task.progress_stage);
  });
});
