import { beforeEach, describe, expect, it } from 'vitest';
import { anotherModel, draftVersion, isInputFailure, saveDraft, takeDraft } from './draft.ts';

const store = new Map<string, string>();
beforeEach(() => {
  store.clear();
  globalThis.sessionStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  } as Storage;
});

describe('drafts', () => {
  it('hands a request to the form once, and tells a form on screen', () => {
    let told = 0;
    const stop = draftVersion.subscribe(() => told++);
    const before = draftVersion.get();
    saveDraft({
      body: { model: 'alpha', image_url: 'http://k/api/uploads/a.png' },
      error: { at: 'image_url', message: 'No object found.' },
    });
    stop();
    expect(told).toBe(1);
    expect(draftVersion.get()).toBe(before + 1);
    expect(takeDraft()?.error?.at).toBe('image_url');
    expect(takeDraft()).toBeNull();
  });
});

describe('isInputFailure', () => {
  it('is true when the error names a field or calls the request invalid', () => {
    expect(isInputFailure({ type: 'api_error', param: 'image_url' })).toBe(true);
    expect(isInputFailure({ type: 'invalid_request_error' })).toBe(true);
  });
  it('is false for failures worth resending', () => {
    expect(isInputFailure({ type: 'api_error' })).toBe(false);
    expect(isInputFailure(null)).toBe(false);
  });
});

describe('anotherModel', () => {
  const models = [
    { id: 'alpha', input: 'image' },
    { id: 'alpha-multiview', input: 'multiview' },
    { id: 'beta', input: 'image' },
    { id: 'beta-multiview', input: 'multiview' },
    { id: 'gamma', input: 'image' },
    { id: 'beta-text', input: 'text' },
  ];
  it('is the next model for the same kind of input, wrapping round', () => {
    expect(anotherModel('alpha', models)).toBe('beta');
    expect(anotherModel('beta', models)).toBe('gamma');
    expect(anotherModel('gamma', models)).toBe('alpha');
    expect(anotherModel('alpha-multiview', models)).toBe('beta-multiview');
  });
  it('is the same model when it is the only one for its input, or unknown', () => {
    expect(anotherModel('beta-text', models)).toBe('beta-text');
    expect(anotherModel('omega', models)).toBe('omega');
  });
});
