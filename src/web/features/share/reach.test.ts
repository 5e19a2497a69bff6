import { describe, expect, it } from 'vitest';
import { onlyOnThisComputer } from './reach.ts';

describe('a link only this computer can open', () => {
  it('is one on a loopback name or address', () => {
    for (const url of [
      'http://127.0.0.1:8080/s/abc',
      'http://127.5.6.7/s/abc',
      'http://localhost:8080/s/abc',
      'http://LOCALHOST/s/abc',
      'http://kiln.localhost/s/abc',
      'http://[::1]:8080/s/abc',
      'http://[::ffff:127.0.0.1]:8080/s/abc',
    ])
      expect(onlyOnThisComputer(url), url).toBe(true);
  });

  it('is not one on a network or public address, nor a malformed one', () => {
    for (const url of [
      'http://192.168.1.20:8080/s/abc',
      'https://kiln.example/s/abc',
      'http://127.0.0.1.example/s/abc',
      'http://[::2]/s/abc',
      'not a url',
    ])
      expect(onlyOnThisComputer(url), url).toBe(false);
  });
});
