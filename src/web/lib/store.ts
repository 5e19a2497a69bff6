import { useSyncExternalStore } from 'react';

/**
 * Kiln's one pattern for state that lives outside React (the key, the address, a draft handed
 * to the form, the batch): a value and who to tell when it changes. Components read it with
 * `useStore`, so what a component follows is an import anyone can see.
 */
export interface Store<T> {
  /** The value now (outside render too). A function type is not a store's value. */
  get(): T;
  /** Calls `listener` after each change; returns the undo. Needs no `this` (passed around). */
  subscribe(listener: () => void): () => void;
}

export interface WritableStore<T> extends Store<T> {
  /** Replaces the value (or derives it from the last one); tells the listeners when it changed. */
  set(next: T | ((previous: T) => T)): void;
  /**
   * Replaces the value without telling anyone: only for a render that sets what it reads next
   * (telling would update a component while one renders, which React refuses).
   */
  reset(value: T): void;
}

/** A store holding `initial`. A value `Object.is` the current one changes nothing. */
export function createStore<T>(initial: T): WritableStore<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    set(next) {
      const resolved =
        typeof next === 'function' ? (next as (previous: T) => T)(value) : (next as T);
      if (Object.is(resolved, value)) return;
      value = resolved;
      for (const listener of [...listeners]) listener();
    },
    reset(next) {
      value = next;
    },
  };
}

/** The store's value as state: the component renders again when it changes. */
export function useStore<T>(store: Store<T>): T;
/**
 * A part of the store's value as state (`select` must return the same value for the same
 * state: a field, not a new object).
 */
export function useStore<T, S>(store: Store<T>, select: (value: T) => S): S;
export function useStore<T, S>(store: Store<T>, select?: (value: T) => S): T | S {
  // `subscribe` is passed as it is (a stable function: React subscribes once per store).
  return useSyncExternalStore(store.subscribe, () => (select ? select(store.get()) : store.get()));
}
