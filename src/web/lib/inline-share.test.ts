import { describe, expect, it } from 'vitest';
import { dropFirstPaint, firstPaintShown, inlineShare, shareTokenOf } from './inline-share.ts';

const page = (text: string | null) => ({
  getElementById: (id: string) =>
    (id === 'kiln-share' && text !== null ? { textContent: text } : null) as HTMLElement | null,
});

describe('the share facts a page was served with', () => {
  it('knows a share page by its address, embed included, and no other page', () => {
    expect(shareTokenOf('/s/AbC-_123')).toBe('AbC-_123');
    expect(shareTokenOf('/s/AbC-_123/embed')).toBe('AbC-_123');
    expect(shareTokenOf('/s/AbC-_123/')).toBe('AbC-_123');
    for (const other of ['/', '/viewer', '/s/', '/c/AbC', '/s/a/b', '/gallery/s/AbC'])
      expect(shareTokenOf(other), other).toBeNull();
  });

  it("reads them on that link's page only, and nothing that does not parse", () => {
    const facts = { model_url: '/api/shares/tok/model.glb', url: 'http://127.0.0.1:8080/s/tok' };
    const json = JSON.stringify(facts);
    expect(inlineShare('tok', page(json), '/s/tok')).toEqual(facts);
    expect(inlineShare('tok', page(json), '/s/tok/embed')).toEqual(facts);
    // The SPA moved on to another link, or another page: not these facts.
    expect(inlineShare('other', page(json), '/s/other')).toBeUndefined();
    expect(inlineShare('tok', page(json), '/gallery')).toBeUndefined();
    expect(inlineShare('tok', page(null), '/s/tok')).toBeUndefined();
    expect(inlineShare('tok', page('{not json'), '/s/tok')).toBeUndefined();
    expect(inlineShare('tok', page('null'), '/s/tok')).toBeUndefined();
  });
});

describe("the server's first paint of a share page", () => {
  it('is shown until the SPA drops it, once', () => {
    const removed: string[] = [];
    let present = true;
    const doc = {
      getElementById: (id: string) =>
        (id === 'kiln-first-paint' && present
          ? {
              remove: () => {
                removed.push(id);
                present = false;
              },
            }
          : null) as HTMLElement | null,
    };
    expect(firstPaintShown(doc)).toBe(true);
    dropFirstPaint(doc);
    expect(firstPaintShown(doc)).toBe(false);
    // Drawn again (StrictMode, another render): nothing left to drop.
    dropFirstPaint(doc);
    expect(removed).toEqual(['kiln-first-paint']);
  });
});
