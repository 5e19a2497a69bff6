import { beforeEach, describe, expect, it } from 'vitest';
import { clearDraft, draftVersion, isInputFailure, readDraft, saveDraft } from './draft.ts';

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
    // Read as often as a render needs it; gone once the form that shows it clears it.
    expect(readDraft()?.error?.at).toBe('image_url');
    expect(readDraft()?.error?.at).toBe('image_url');
    clearDraft();
    expect(readDraft()).toBeNull();
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
