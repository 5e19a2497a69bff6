// Which vendors this Kiln reaches and where (issue 34): each vendor's public API by default, its
// `*_API_URL` when set, or the built-in mock mounted at /mock/<vendor> (MOCK_PROVIDERS), reached
// in-process. Made once by main.ts.
import type { VendorProvider } from '../../contract/index.ts';
import {
  FAL_DEFAULT_API_URL,
  FAL_DEFAULT_PLATFORM_URL,
  createFalAdapter,
} from '../../providers/fal/adapter.ts';
import { MESHY_DEFAULT_BASE_URL, createMeshyAdapter } from '../../providers/meshy/index.ts';
import { TRIPO_DEFAULT_API_URL, createTripoAdapter } from '../../providers/tripo/adapter.ts';
import type { ProviderAdapter } from '../../providers/types.ts';
import { originBoundFetch, type ConfiguredProvider } from './registry.ts';

export interface ProviderUrls {
  meshy?: string | undefined;
  tripo?: string | undefined;
  fal?: string | undefined;
  falPlatform?: string | undefined;
}

interface Vendor {
  keyHint: string;
  hasBalance: boolean;
  /** The vendor's base URLs: where its API is, and any second API it has (fal's Platform API). */
  urls(urls: ProviderUrls, mockRoot?: string): string[];
  adapter(urls: string[], fetch: typeof globalThis.fetch): ProviderAdapter;
}

const VENDORS: Partial<Record<VendorProvider, Vendor>> = {
  meshy: {
    keyHint: 'msy_',
    hasBalance: true,
    urls: (u, mock) => [mock ?? u.meshy ?? MESHY_DEFAULT_BASE_URL],
    adapter: ([baseUrl], fetch) => createMeshyAdapter({ baseUrl: baseUrl!, fetch }),
  },
  tripo: {
    keyHint: 'tsk_',
    hasBalance: true,
    urls: (u, mock) => [mock ? `${mock}/v2/openapi` : (u.tripo ?? TRIPO_DEFAULT_API_URL)],
    adapter: ([baseUrl], fetch) => createTripoAdapter({ baseUrl: baseUrl!, fetch }),
  },
  fal: {
    keyHint: '<key id>:<key secret>',
    hasBalance: true,
    urls: (u, mock) =>
      mock
        ? [mock, `${mock}/v1`]
        : [u.fal ?? FAL_DEFAULT_API_URL, u.falPlatform ?? FAL_DEFAULT_PLATFORM_URL],
    adapter: ([baseUrl, platformUrl], fetch) =>
      createFalAdapter({ baseUrl: baseUrl!, platformUrl: platformUrl!, fetch }),
  },
};

/** A vendor's mock, reached in-process: its requests go to `fetch` with Kiln's own origin. */
export interface MountedMock {
  name: VendorProvider;
  demoKey: string;
  /** Kiln's origin once it listens (http://127.0.0.1:PORT). */
  origin: () => string;
  fetch: (request: Request) => Promise<Response>;
}

/** The address adapters of a mounted mock are given: rewritten to Kiln's origin on each call. */
const MOCK_ORIGIN = 'http://kiln-mock.invalid';

function inProcessFetch(mock: MountedMock): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = request.url.replace(MOCK_ORIGIN, mock.origin());
    return mock.fetch(new Request(url, request));
  };
}

export function configuredProviders(
  urls: ProviderUrls,
  mocks: readonly MountedMock[] = [],
): ConfiguredProvider[] {
  return (Object.entries(VENDORS) as [VendorProvider, Vendor][]).map(([name, vendor]) => {
    const mock = mocks.find((m) => m.name === name);
    const bases = vendor.urls(urls, mock ? `${MOCK_ORIGIN}/mock/${name}` : undefined);
    const fetch = mock ? inProcessFetch(mock) : originBoundFetch(bases);
    return {
      name,
      adapter: vendor.adapter(bases, fetch),
      host: mock ? `built-in mock (/mock/${name})` : new URL(bases[0]!).host,
      keyHint: vendor.keyHint,
      hasBalance: vendor.hasBalance,
      ...(mock ? { mockKey: mock.demoKey } : {}),
    };
  });
}
