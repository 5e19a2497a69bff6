import { describe, expect, it } from 'vitest';
import { isAllowedBy } from './url-rules.ts';

describe('isAllowedBy', () => {
  it('lets an origin allow exactly itself: scheme, host and effective port (a pure check)', () => {
    const publicUrl = ['https://kiln.example.com'];
    expect(isAllowedBy('https://kiln.example.com/api/uploads/a.png', publicUrl)).toBe(true);
    expect(isAllowedBy('https://kiln.example.com:443/a.png', publicUrl)).toBe(true);
    expect(isAllowedBy('https://KILN.example.com/a.png', publicUrl)).toBe(true);
    for (const other of [
      'https://kiln.example.com:8443/a.png',
      'https://kiln.example.com:5432/',
      'http://kiln.example.com/a.png',
      'http://kiln.example.com:443/a.png',
      'https://other.example.com/a.png',
    ])
      expect(isAllowedBy(other, publicUrl), other).toBe(false);
    const withPort = ['http://127.0.0.1:8080'];
    expect(isAllowedBy('http://127.0.0.1:8080/x', withPort)).toBe(true);
    expect(isAllowedBy('http://127.0.0.1:8081/x', withPort)).toBe(false);
    expect(isAllowedBy('http://127.0.0.1/x', ['http://127.0.0.1'])).toBe(true);
    expect(isAllowedBy('http://127.0.0.1:6379/x', ['http://127.0.0.1'])).toBe(false);
  });
});
