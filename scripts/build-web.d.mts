/** Runs `vite build` when dist/ is stale; returns the build's exit status (0 when up to date). */
export function buildWebIfStale(): number;
