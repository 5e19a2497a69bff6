import { describe, expect, it } from 'vitest';
import { outageWords } from './connection-banner.tsx';

describe('the outage banner says what really happens in each mode', () => {
  it('mock mode: the built-in mock stopped with Kiln and restarts its tasks; nothing keeps running', () => {
    const words = outageWords({ kind: 'kiln' }, 'mock');
    expect(words).toMatch(/^Kiln’s server cannot be reached\. Its built-in mock upstream stopped/);
    expect(words).toContain('start again from the beginning when Kiln is back');
    expect(words).not.toMatch(/keep running/);
  });

  it('a real upstream keeps the tasks already sent', () => {
    expect(outageWords({ kind: 'kiln' }, 'upstream')).toContain(
      'Tasks already sent keep running upstream',
    );
  });

  it('claims neither before the mode is known', () => {
    expect(outageWords({ kind: 'kiln' }, undefined)).toBe(
      'Kiln’s server cannot be reached. This page reconnects by itself.',
    );
  });

  it('names the store, and where tasks run, when Kiln answers but its storage does not', () => {
    const storage = { kind: 'storage', message: 'Kiln’s database cannot be reached.' } as const;
    expect(outageWords(storage, 'mock')).toBe(
      'Kiln’s database cannot be reached. Tasks keep running in the built-in mock upstream; this page catches up by itself.',
    );
    expect(outageWords(storage, 'upstream')).toMatch(/Tasks keep running upstream;/);
    expect(outageWords({ kind: 'upstream' }, 'upstream')).toMatch(
      /^The image-to-3D service cannot be reached through Kiln/,
    );
  });
});
