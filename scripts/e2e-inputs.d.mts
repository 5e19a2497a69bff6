/** Makes the browser tests' fixture GLBs and the SPA when missing or stale; throws on failure. */
export function prepareE2eInputs(): void;
