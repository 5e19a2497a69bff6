/** Globs of the unit test files that run with a fresh module graph each. */
export const ISOLATED_TESTS: string[];
