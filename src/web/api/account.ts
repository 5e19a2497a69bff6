// The account and the server that keeps it: what the server is (`/api/info`: mock or upstream,
// the demo key), the key's balance (`/api/credits`), and whether a key works. In the app shell
// (`useInfo`), so what the rest needs loads when first asked: the one client's calls with the
// contract's schemas (and zod) with the first balance, the upstream's client with the first key
// checked.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { NO_KEY, queryKeys, useKeyScope } from './query-keys.ts';
import { kilnCall, request } from './transport.ts';

// ---- Info ------------------------------------------------------------------------------------

interface ServerInfo {
  mode: 'mock' | 'upstream';
  demoKey?: string;
}

/**
 * Checked by hand: the shell stays free of zod (its weight goes with the pages), so `/api/info` is
 * the SPA's own call, not one of the one client's (whose calls parse with the contract).
 */
function parseInfo(body: unknown): ServerInfo {
  const b = body as { mode?: unknown; demoKey?: unknown } | null;
  if (!b || (b.mode !== 'mock' && b.mode !== 'upstream'))
    throw new Error('Kiln’s server sent unexpected /api/info.');
  return { mode: b.mode, ...(typeof b.demoKey === 'string' ? { demoKey: b.demoKey } : {}) };
}

const infoQuery = queryOptions({
  queryKey: queryKeys.info(),
  queryFn: ({ signal }) => request('/api/info', { signal, auth: false, parse: parseInfo }),
  staleTime: Infinity,
});

export function useInfo() {
  return useQuery(infoQuery);
}

// ---- Credits ---------------------------------------------------------------------------------

function creditsQuery(scope: string) {
  return queryOptions({
    queryKey: queryKeys.credits(scope),
    // `kilnCall` loads the calls, and the contract's schema, with the first balance.
    queryFn: ({ signal }) => kilnCall((k) => k.credits(), { signal }),
    enabled: scope !== NO_KEY,
    refetchOnWindowFocus: true,
  });
}

/** The last known balance and its history (GET /api/credits). */
export function useCredits() {
  return useQuery(creditsQuery(useKeyScope()));
}

// ---- Key check -------------------------------------------------------------------------------

/** What the upstream said of a key before it is kept. */
export type KeyCheck =
  | { ok: true }
  /** Refused (401): the API's reason. */
  | { ok: false; refused: string }
  /** Not checked (the API could not be reached, or failed): the key is kept all the same. */
  | { ok: true; unchecked: string };

/**
 * Asks the API whether a key works, with the cheapest authenticated request (the model list),
 * as soon as the artist enters it: a refused key is said on the key screen, not at the first
 * Generate. Anything other than a refusal lets the key through (the studio says what follows).
 */
export async function checkKey(apiKey: string, signal?: AbortSignal): Promise<KeyCheck> {
  const [{ upstreamClient }, { AuthenticationError }] = await Promise.all([
    import('./tasks.ts'),
    import('../../client/errors.ts'),
  ]);
  const client = upstreamClient(apiKey, { maxRetries: 0 });
  try {
    await client.listModels({ ...(signal ? { signal } : {}), timeoutMs: 10_000 });
    return { ok: true };
  } catch (error) {
    if (error instanceof AuthenticationError) return { ok: false, refused: error.message };
    return { ok: true, unchecked: error instanceof Error ? error.message : String(error) };
  }
}
