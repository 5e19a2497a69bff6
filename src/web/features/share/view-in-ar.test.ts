// @vitest-environment jsdom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublicShare } from '../../../contract/index.ts';
import type { ArViewer } from './ar-links.ts';
import { ViewInAr } from './view-in-ar.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const unmounts: (() => void)[] = [];
afterEach(() => {
  for (const unmount of unmounts.splice(0)) unmount();
});

const TOKEN = 'AAAAAAAAAAAAAAAAAAAAAAAA';
const MODEL: PublicShare = {
  object: 'shared_model',
  title: 'Grandma’s jug',
  name: 'Grandma’s jug',
  model: 'beta-text',
  input: 'prompt',
  prompt: 'a small blue jug',
  created: 1_800_000_000,
  model_url: `/api/shares/${TOKEN}/model.glb`,
  thumbnail_url: null,
  usdz_url: `/api/shares/${TOKEN}/model.usdz`,
  url: `https://kiln.example/s/${TOKEN}`,
};

function render(viewer: ArViewer, model: Partial<PublicShare> = {}): HTMLElement {
  const el = document.createElement('div');
  const root = createRoot(el);
  act(() => root.render(createElement(ViewInAr, { model: { ...MODEL, ...model }, viewer })));
  unmounts.push(() => act(() => root.unmount()));
  return el;
}

describe('View in AR', () => {
  it('is a Quick Look link to the USDZ on iPhone and iPad, its one child an image', () => {
    const link = render('quick-look').querySelector('a')!;
    expect(link.getAttribute('rel')).toBe('ar');
    expect(link.getAttribute('href')).toBe(MODEL.usdz_url);
    expect([...link.children].map((c) => c.tagName)).toEqual(['IMG']);
    expect(link.querySelector('img')!.getAttribute('alt')).toBe('View in AR');
  });

  it('is not offered on iPhone and iPad before the USDZ is there (or by an older server)', () => {
    expect(render('quick-look', { usdz_url: null }).innerHTML).toBe('');
    const { usdz_url: _omitted, ...older } = MODEL;
    const el = document.createElement('div');
    const root = createRoot(el);
    act(() => root.render(createElement(ViewInAr, { model: older, viewer: 'quick-look' })));
    unmounts.push(() => act(() => root.unmount()));
    expect(el.innerHTML).toBe('');
  });

  it('is a Scene Viewer intent with the absolute GLB on Android', () => {
    const link = render('scene-viewer', { usdz_url: null }).querySelector('a')!;
    expect(link.textContent?.trim()).toBe('View in AR');
    const href = link.getAttribute('href')!;
    expect(href).toMatch(/^intent:\/\/arvr\.google\.com\/scene-viewer\/1\.2\?file=/);
    const query = new URLSearchParams(href.slice(href.indexOf('?') + 1, href.indexOf('#')));
    expect(query.get('file')).toBe(new URL(MODEL.model_url, window.location.href).href);
    expect(query.get('title')).toBe('Grandma’s jug');
    expect(href).toContain(`S.browser_fallback_url=${encodeURIComponent(MODEL.url)};end;`);
  });

  it('offers the page on a phone from a computer, folded until asked', () => {
    const el = render(null);
    expect(el.querySelector('a')).toBeNull();
    const button = el.querySelector('button')!;
    expect(button.textContent?.trim()).toBe('View on a phone');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const panel = [...el.querySelectorAll('[id]')].find(
      (node) => node.id === button.getAttribute('aria-controls'),
    );
    expect(panel?.hasAttribute('hidden')).toBe(true);
    act(() => button.click());
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(panel?.hasAttribute('hidden')).toBe(false);
  });
});
