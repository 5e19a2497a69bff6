// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { apiKey, currentApiKey, forgetKey, keyPersistence, saveKey } from './key-store.ts';

describe('the key store', () => {
  it('keeps the key where asked, tells its followers, and forgets it', () => {
    let told = 0;
    const stop = apiKey.subscribe(() => told++);
    saveKey('tr_device_key', 'device');
    expect([currentApiKey(), keyPersistence(), told]).toEqual(['tr_device_key', 'device', 1]);
    saveKey('tr_session_key', 'session');
    expect([currentApiKey(), keyPersistence()]).toEqual(['tr_session_key', 'session']);
    expect(localStorage.getItem('kiln.apiKey')).toBeNull();
    forgetKey();
    expect([currentApiKey(), keyPersistence(), told]).toEqual([null, null, 3]);
    stop();
  });

  it('follows another tab that saves or forgets the key on this device', () => {
    let told = 0;
    const stop = apiKey.subscribe(() => told++);
    localStorage.setItem('kiln.apiKey', 'tr_other_tab');
    window.dispatchEvent(new StorageEvent('storage', { key: 'kiln.apiKey' }));
    expect(apiKey.get()).toBe('tr_other_tab');
    window.dispatchEvent(new StorageEvent('storage', { key: 'something.else' }));
    expect(told).toBe(1);
    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    expect(apiKey.get()).toBeNull();
    expect(told).toBe(2);
    stop();
  });
});
