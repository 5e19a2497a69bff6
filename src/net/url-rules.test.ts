import { describe, expect, it } from 'vitest';
import { exactOrigins, isAllowedBy } from './url-rules.ts';

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

describe('exactOrigins: Kiln’s own addresses, each allowing exactly its origin', () => {
  const allows = (url: string, own: string[]) => isAllowedBy(url, exactOrigins(own));

  it('a bare host is its scheme’s default port, and only that', () => {
    const bare = ['http://127.0.0.1'];
    expect(exactOrigins(bare)).toEqual(['http://127.0.0.1']);
    expect(allows('http://127.0.0.1/api/uploads/a.png', bare)).toBe(true);
    expect(allows('http://127.0.0.1:80/a.png', bare)).toBe(true);
    for (const other of [
      'http://127.0.0.1:8080/a.png',
      'http://127.0.0.1:6379/',
      'http://127.0.0.1:443/',
    ])
      expect(allows(other, bare), other).toBe(false);
    // What the mock used to pass (`new URL(PUBLIC_URL).host`): a bare hostname, every port.
    expect(isAllowedBy('http://127.0.0.1:6379/', [new URL(bare[0]!).host])).toBe(true);
  });

  it('an explicit default port is the same origin as none', () => {
    expect(exactOrigins(['http://127.0.0.1:80', 'https://kiln.example.com:443/kiln/'])).toEqual([
      'http://127.0.0.1',
      'https://kiln.example.com',
    ]);
    expect(allows('http://127.0.0.1/a.png', ['http://127.0.0.1:80'])).toBe(true);
    expect(allows('https://kiln.example.com/a.png', ['https://kiln.example.com:443'])).toBe(true);
    expect(allows('https://kiln.example.com:8443/a.png', ['https://kiln.example.com:443'])).toBe(
      false,
    );
  });

  it('another port of the same host is refused', () => {
    const own = ['http://127.0.0.1:8080'];
    expect(allows('http://127.0.0.1:8080/a.png', own)).toBe(true);
    expect(allows('http://127.0.0.1:8081/a.png', own)).toBe(false);
    expect(allows('http://127.0.0.1/a.png', own)).toBe(false);
  });

  it('another scheme is refused, on its own default port or on the origin’s', () => {
    expect(allows('https://127.0.0.1/a.png', ['http://127.0.0.1'])).toBe(false);
    expect(allows('https://127.0.0.1:80/a.png', ['http://127.0.0.1'])).toBe(false);
    expect(allows('http://kiln.example.com/a.png', ['https://kiln.example.com'])).toBe(false);
    expect(allows('http://kiln.example.com:443/a.png', ['https://kiln.example.com'])).toBe(false);
  });

  it('IPv6 [::1]: the same rule in brackets', () => {
    expect(exactOrigins(['http://[::1]', 'http://[::1]:8080'])).toEqual([
      'http://[::1]',
      'http://[::1]:8080',
    ]);
    expect(allows('http://[::1]/a.png', ['http://[::1]'])).toBe(true);
    expect(allows('http://[::1]:80/a.png', ['http://[::1]'])).toBe(true);
    expect(allows('http://[::1]:8080/a.png', ['http://[::1]'])).toBe(false);
    expect(allows('http://[::1]:8080/a.png', ['http://[::1]:8080'])).toBe(true);
    expect(allows('http://[0:0:0:0:0:0:0:1]:8080/a.png', ['http://[::1]:8080'])).toBe(true);
    expect(allows('http://127.0.0.1:8080/a.png', ['http://[::1]:8080'])).toBe(false);
    expect(allows('https://[::1]:8080/a.png', ['http://[::1]:8080'])).toBe(false);
  });

  it('leaves out unset, unparseable and non-http(s) entries', () => {
    expect(exactOrigins([undefined, '', 'not a url', 'ftp://127.0.0.1', 'file:///etc'])).toEqual(
      [],
    );
  });
});
