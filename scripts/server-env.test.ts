// The environment a Kiln server starts with (decision 0096): glibc's malloc kept to two arenas.
// Without it each replica's RSS ended a 20-minute soak 60–70 MB higher, held in 15 arenas, and
// still rising (bench/results/2026-11-28-soak.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MALLOC_ARENA_MAX, serverEnv } from './server-env.mjs';

describe('serverEnv', () => {
  it('bounds glibc to two malloc arenas when the environment names none', () => {
    expect(MALLOC_ARENA_MAX).toBe('2');
    expect(serverEnv({ PORT: '8080' })).toEqual({ PORT: '8080', MALLOC_ARENA_MAX: '2' });
  });

  it("keeps the operator's value, empty (glibc's default) included", () => {
    expect(serverEnv({ MALLOC_ARENA_MAX: '4' }).MALLOC_ARENA_MAX).toBe('4');
    expect(serverEnv({ MALLOC_ARENA_MAX: '' }).MALLOC_ARENA_MAX).toBe('');
  });

  it('is what `npm start` gives the server process', () => {
    const start = readFileSync(new URL('./start.mjs', import.meta.url), 'utf8');
    expect(start).toMatch(/env: serverEnv\(process\.env\)/);
  });
});
