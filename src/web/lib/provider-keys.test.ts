// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { forgetKey, saveKey } from './key-store.ts';
import {
  currentLibraryKey,
  currentProviderKey,
  newLibraryKey,
  providerKeyProblem,
  recogniseProviderKey,
  removeProviderKey,
  saveProviderKey,
} from './provider-keys.ts';

const MESHY = 'msy_kilnDemoKey000000000000000000000001';
const FAL = '6f1c2a7e-3b4d-4e5f-9a8b-7c6d5e4f3a2b:8d3f1a2b4c5d6e7f8091a2b3c4d5e6f7';

beforeEach(() => {
  removeProviderKey('meshy');
  removeProviderKey('fal');
  forgetKey();
});

describe('the library key', () => {
  it('is kl_ and 43 base64url characters of 32 random bytes', () => {
    const key = newLibraryKey((b) => b.fill(0xfb));
    expect(key).toMatch(/^kl_[A-Za-z0-9_-]{43}$/);
    expect(key).toBe(`kl_${Buffer.alloc(32, 0xfb).toString('base64url')}`);
    expect(newLibraryKey()).not.toBe(newLibraryKey());
  });

  it('is the saved spec key, pinned when a vendor key is connected, and outlives removing it', () => {
    localStorage.removeItem('kiln.libraryKey');
    saveKey('tr_existing_library', 'device');
    expect(currentLibraryKey()).toBe('tr_existing_library');
    saveProviderKey('meshy', ` ${MESHY} `);
    expect(currentProviderKey('meshy')).toBe(MESHY);
    expect(localStorage.getItem('kiln.libraryKey')).toBe('tr_existing_library');
    // Another spec key later does not move the library; removing the vendor key neither.
    saveKey('tr_another', 'device');
    removeProviderKey('meshy');
    expect(currentProviderKey('meshy')).toBeNull();
    expect(currentLibraryKey()).toBe('tr_existing_library');
  });
});

describe('vendor keys', () => {
  it('are recognised by their documented shape, and a wrong one is said', () => {
    expect(recogniseProviderKey(MESHY)).toBe('meshy');
    expect(recogniseProviderKey(FAL)).toBe('fal');
    expect(recogniseProviderKey('tr_demo_kiln')).toBeUndefined();
    expect(providerKeyProblem('meshy', MESHY)).toBeNull();
    expect(providerKeyProblem('fal', FAL)).toBeNull();
    expect(providerKeyProblem('meshy', '')).toBe('Paste the key.');
    expect(providerKeyProblem('meshy', FAL)).toMatch(/fal key, not a meshy key/);
    expect(providerKeyProblem('fal', 'abc')).toMatch(/<key id>:<key secret>/);
    expect(providerKeyProblem('meshy', 'msy_ab cd')).toMatch(/space/);
  });
});
