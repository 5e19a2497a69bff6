// What `npm run mcp` reads from its environment, checked once: Kiln's address (KILN_URL), the
// API key (KILN_KEY), each vendor's key (KILN_MESHY_KEY, KILN_TRIPO_KEY, KILN_FAL_KEY) and the
// library's own key (KILN_LIBRARY, decision 0114). A problem is one line naming the variable.
import { readVendorEnv } from '../client/kiln/env.ts';
import { kilnBaseUrl, type KilnApiOptions } from '../client/kiln/index.ts';
import { API_KEY_PREFIX, isApiKeyShaped } from '../contract/index.ts';
import type { VendorProvider } from '../contract/provider-ids.ts';

/** Where Kiln listens by default (`npm start`, `PORT`). */
const DEFAULT_KILN_URL = 'http://127.0.0.1:8080';

export type McpEnv =
  { ok: true; api: KilnApiOptions; vendors: VendorProvider[] } | { ok: false; problem: string };

export function readMcpEnv(env: Readonly<Record<string, string | undefined>>): McpEnv {
  const url = env.KILN_URL?.trim() || DEFAULT_KILN_URL;
  let baseUrl: string;
  try {
    baseUrl = kilnBaseUrl(url);
  } catch {
    return {
      ok: false,
      problem: `KILN_URL ${JSON.stringify(url)} is not an http or https address (such as ${DEFAULT_KILN_URL}).`,
    };
  }
  const apiKey = env.KILN_KEY?.trim();
  if (!apiKey)
    return {
      ok: false,
      problem: `KILN_KEY is not set: set it to your Kiln API key (${API_KEY_PREFIX}…).`,
    };
  if (!isApiKeyShaped(apiKey))
    return {
      ok: false,
      problem: `KILN_KEY is not a Kiln API key: one starts with ${API_KEY_PREFIX} and has no spaces.`,
    };
  const { providerKeys, library, vendors } = readVendorEnv(env);
  return { ok: true, api: { baseUrl, apiKey, providerKeys, library }, vendors };
}
