/** glibc's malloc arenas per Kiln server: the main one and one shared by every other thread. */
export const MALLOC_ARENA_MAX: '2';
/** `env` with MALLOC_ARENA_MAX=2 added when it names none; a value already set is kept. */
export function serverEnv<E extends Record<string, string | undefined>>(
  env: E,
): E & { MALLOC_ARENA_MAX: string };
