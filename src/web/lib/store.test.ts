// @vitest-environment jsdom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore, useStore, type Store } from './store.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('createStore', () => {
  it('holds a value and tells every listener when it changes', () => {
    const store = createStore(1);
    const told: string[] = [];
    store.subscribe(() => told.push(`a${store.get()}`));
    store.subscribe(() => told.push(`b${store.get()}`));
    expect(store.get()).toBe(1);
    store.set(2);
    expect(store.get()).toBe(2);
    expect(told).toEqual(['a2', 'b2']);
  });

  it('derives the next value from the last one', () => {
    const store = createStore({ n: 1 });
    store.set((s) => ({ n: s.n + 1 }));
    store.set((s) => ({ n: s.n * 10 }));
    expect(store.get()).toEqual({ n: 20 });
  });

  it('tells no one when the value is the same one', () => {
    const same = { n: 1 };
    const store = createStore(same);
    let told = 0;
    store.subscribe(() => told++);
    store.set(same);
    store.set((s) => s);
    expect(told).toBe(0);
    store.set({ n: 1 }); // equal, but another object: a change
    expect(told).toBe(1);
    const nan = createStore(Number.NaN);
    nan.subscribe(() => told++);
    nan.set(Number.NaN);
    expect(told).toBe(1);
  });

  it('stops telling a listener once it unsubscribes, and only that one', () => {
    const store = createStore('a');
    const told: string[] = [];
    const stop = store.subscribe(() => told.push('first'));
    store.subscribe(() => told.push('second'));
    stop();
    stop(); // twice is harmless
    store.set('b');
    expect(told).toEqual(['second']);
  });

  it('tells the listeners of the change even when one unsubscribes while being told', () => {
    const store = createStore(0);
    const told: string[] = [];
    const stop = store.subscribe(() => {
      told.push('once');
      stop();
    });
    store.subscribe(() => told.push('always'));
    store.set(1);
    store.set(2);
    expect(told).toEqual(['once', 'always', 'always']);
  });

  it('replaces the value quietly on reset', () => {
    const store = createStore('a');
    let told = 0;
    store.subscribe(() => told++);
    store.reset('b');
    expect(store.get()).toBe('b');
    expect(told).toBe(0);
  });

  it('works with its methods passed around on their own (no `this`)', () => {
    const store = createStore(5);
    const { get, set, subscribe } = store;
    let told = 0;
    subscribe(() => told++);
    set(6);
    expect(get()).toBe(6);
    expect(told).toBe(1);
  });
});

describe('useStore', () => {
  const mounted: (() => void)[] = [];
  afterEach(() => {
    for (const unmount of mounted.splice(0)) unmount();
  });

  /** Renders `read()` into a fresh element; counts renders. */
  function show(read: () => string) {
    const el = document.createElement('div');
    const root = createRoot(el);
    const renders = { count: 0 };
    function Shown() {
      renders.count++;
      return read();
    }
    act(() => root.render(createElement(Shown)));
    let gone = false;
    const unmount = () => {
      if (!gone) act(() => root.unmount());
      gone = true;
    };
    mounted.push(unmount);
    return { el, renders, unmount };
  }

  it('renders the value, and again when it changes', () => {
    const store = createStore('first');
    const { el } = show(function Read() {
      return useStore(store);
    });
    expect(el.textContent).toBe('first');
    act(() => store.set('second'));
    expect(el.textContent).toBe('second');
  });

  it('renders a selected part, and not when another part changes', () => {
    const store = createStore({ pathname: '/', search: '' });
    const { el, renders } = show(function Read() {
      return useStore(store, (s) => s.pathname);
    });
    expect(el.textContent).toBe('/');
    const before = renders.count;
    act(() => store.set((s) => ({ ...s, search: '?q=chair' })));
    expect(renders.count).toBe(before);
    act(() => store.set((s) => ({ ...s, pathname: '/gallery' })));
    expect(el.textContent).toBe('/gallery');
  });

  it('unsubscribes when the component goes', () => {
    const inner = createStore(0);
    let listening = 0;
    const store: Store<number> = {
      get: inner.get,
      subscribe(listener) {
        listening++;
        const stop = inner.subscribe(listener);
        return () => {
          listening--;
          stop();
        };
      },
    };
    const { unmount } = show(function Read() {
      return String(useStore(store));
    });
    expect(listening).toBe(1);
    act(() => inner.set(1));
    expect(listening).toBe(1); // subscribed once, not once per render
    unmount();
    expect(listening).toBe(0);
  });
});
