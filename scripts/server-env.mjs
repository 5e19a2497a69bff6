// The environment a Kiln server process starts with (decision 0096): glibc's malloc kept to two
// arenas unless the operator's environment says otherwise. glibc reads MALLOC_ARENA_MAX once, as
// the process starts, so it is set by whatever starts the server (`npm start`, the test stack).

/** glibc's malloc arenas per Kiln server: the main one and one shared by every other thread. */
export const MALLOC_ARENA_MAX = '2';

/**
 * `env` with MALLOC_ARENA_MAX=2 added when it names none. A value the operator set is kept: a
 * number, or empty for glibc's own default (8 arenas a core). Other allocators ignore it.
 */
export function serverEnv(env) {
  return { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? MALLOC_ARENA_MAX };
}
