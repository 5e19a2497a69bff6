// @vitest-environment jsdom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { LibraryEntry } from '../../../contract/index.ts';
import { ShareButton } from './index.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const unmounts: (() => void)[] = [];
afterEach(() => {
  for (const unmount of unmounts.splice(0)) unmount();
});

function render(entry: Partial<LibraryEntry>, label?: string): HTMLElement {
  const el = document.createElement('div');
  const root = createRoot(el);
  const full = { id: 't1', prompt: 'a red vase', images: [], ...entry } as LibraryEntry;
  act(() => root.render(createElement(ShareButton, { entry: full, ...(label ? { label } : {}) })));
  unmounts.push(() => act(() => root.unmount()));
  return el;
}

describe('the Share button', () => {
  it('is offered for a finished model Kiln keeps, and says when it is shared', () => {
    const button = render({ status: 'completed', archived: true, share: null }).querySelector(
      'button',
    );
    expect(button?.textContent).toBe('Share');
    expect(button?.getAttribute('aria-haspopup')).toBe('dialog');
    const shared = render(
      { status: 'completed', archived: true, share: { url: 'u', created_ms: 1 } },
      'alpha task “a red vase”',
    ).querySelector('button');
    expect(shared?.textContent).toBe('Shared');
    expect(shared?.getAttribute('aria-label')).toBe('Shared: alpha task “a red vase”');
    expect(shared?.hasAttribute('data-shared')).toBe(true);
  });

  it('is not offered before the model is finished and kept', () => {
    expect(render({ status: 'pending', archived: false }).innerHTML).toBe('');
    expect(render({ status: 'completed', archived: false }).innerHTML).toBe('');
  });
});
