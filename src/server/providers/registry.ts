// The providers this Kiln reaches (issue 34): each vendor's adapter, where it is, and how a person
// recognises its keys. Made once by main.ts from MESHY_API_URL, TRIPO_API_URL, FAL_API_URL and
// MOCK_PROVIDERS; every route asks here.
import type { VendorProvider } from '../../contract/index.ts';
import type { ProviderAdapter } from '../../providers/types.ts';

export interface ConfiguredProvider {
  name: VendorProvider;
  adapter: ProviderAdapter;
  /** Where Kiln reaches it, as a person reads it (the base URL's host). */
  host: string;
  /** How its keys start ("msy_…"). */
  keyHint: string;
  /** Whether the vendor has a balance call. */
  hasBalance: boolean;
  /** The built-in mock's demo key, when the vendor is the built-in mock. */
  mockKey?: string;
}

export interface ProviderRegistry {
  list(): readonly ConfiguredProvider[];
  get(name: string): ConfiguredProvider | undefined;
}

export function providerRegistry(providers: readonly ConfiguredProvider[] = []): ProviderRegistry {
  const byName = new Map(providers.map((p) => [p.name as string, p]));
  return {
    list: () => providers,
    get: (name) => byName.get(name),
  };
}

/**
 * A fetch that reaches the vendor's configured origins only (its base URLs): an adapter cannot be
 * talked into calling anywhere else (issue 34: outbound requests go only to configured hosts).
 */
export function originBoundFetch(
  baseUrls: readonly string[],
  inner: typeof fetch = fetch,
): typeof fetch {
  const origins = new Set(baseUrls.map((u) => new URL(u).origin));
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!origins.has(url.origin))
      throw new TypeError(
        `Refused: ${url.origin} is not a configured provider address (${[...origins].join(', ')}).`,
      );
    return inner(input, init);
  };
}
