import { AuthenticationError, createClient } from '../../client/index.ts';
import { API_BASE } from './api-client.ts';

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
  const client = createClient({ baseURL: API_BASE, apiKey, maxRetries: 0 });
  try {
    await client.listModels({ ...(signal ? { signal } : {}), timeoutMs: 10_000 });
    return { ok: true };
  } catch (error) {
    if (error instanceof AuthenticationError) return { ok: false, refused: error.message };
    return { ok: true, unchecked: error instanceof Error ? error.message : String(error) };
  }
}
