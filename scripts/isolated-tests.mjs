// The unit test files that run with a fresh module graph each (Vitest's `isolate`); every other
// file shares its worker's modules with the files before it (vitest.config.ts, decision 0128).
// A file belongs here when it replaces what another file would then meet: a module (vi.mock), a
// global (vi.stubGlobal, globalThis.x =), the environment (vi.stubEnv, process.env.X =) or the
// clock (vi.useFakeTimers), or runs in a DOM environment. scripts/isolated-tests.test.ts fails
// on a file that does any of these and is not listed.
export const ISOLATED_TESTS = [
  // The SPA's tests: stores, globals and a DOM.
  'src/web/**/*.test.{ts,tsx}',
  'src/client/**/*.test.ts',
  'src/server/library/seen-tasks.test.ts',
  'src/server/share/files.test.ts',
  'src/server/collections/preview.test.ts',
  'src/mock/hardening.test.ts',
];
