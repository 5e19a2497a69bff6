// `/mcp`: Kiln's MCP server (src/mcp) over streamable HTTP, stateless, behind the same bearer key
// as `/api`: no key or a malformed one is a 401 naming `authorization` (with a WWW-Authenticate
// challenge), and a key the upstream refuses fails as it fails on `/api` (the accepted-key check,
// decision 0092). Each call's tools reach `/api` through the one client whose fetch is this app's
// own: in-process, never over the network. Vendors' keys come in `x-provider-key-<vendor>`.
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { createKilnApi } from '../../client/kiln/index.ts';
import { ERROR_CODES, isApiKeyShaped } from '../../contract/index.ts';
import {
  LIBRARY_HEADER,
  VENDOR_PROVIDERS,
  type VendorProvider,
} from '../../contract/provider-ids.ts';
import { ApiError } from '../../http/index.ts';
import { factsReader } from '../../mcp/facts.ts';
import { answerMcp } from '../../mcp/http.ts';
import { createKilnMcpServer } from '../../mcp/server.ts';
import { acceptedKey, type AcceptedKeyOptions } from '../middleware/accepted-key.ts';
import { notKeyShaped } from '../middleware/owner.ts';
import { bearerKey } from '../owner-id.ts';

export interface McpRouteDeps extends Omit<AcceptedKeyOptions, 'writes'> {
  /** The origin of the addresses the tools answer (PUBLIC_URL); unset: the request's. */
  publicUrl?: string | undefined;
  /** This app: the tools' calls to `/api` are answered by it in-process. */
  self: (request: Request, env: unknown) => Response | Promise<Response>;
}

/** The header a vendor's key comes in: `x-provider-key-meshy`, … */
const vendorKeyHeader = (vendor: VendorProvider) => `x-provider-key-${vendor}`;

/** A 401 says how to authenticate (RFC 9110), whichever check refused the key. */
const challenge = createMiddleware(async (c, next) => {
  await next();
  if (c.res.status === 401 && !c.res.headers.has('www-authenticate'))
    c.res.headers.set('www-authenticate', 'Bearer realm="kiln"');
});

/** No key, or not a key at all: refused before anything is asked of the upstream. */
const bearerRequired = createMiddleware(async (c, next) => {
  const header = c.req.header('authorization');
  if (!header)
    throw new ApiError(401, {
      code: ERROR_CODES.missingApiKey,
      message: 'No API key. Send it as "Authorization: Bearer tr_…" to use Kiln from an assistant.',
      param: 'authorization',
    });
  const key = bearerKey(header);
  if (!key || !isApiKeyShaped(key)) throw notKeyShaped();
  await next();
});

const notAllowed = (c: Context) => {
  throw new ApiError(
    405,
    {
      code: ERROR_CODES.routeNotFound,
      message: `No route ${c.req.method} /mcp: Kiln's MCP server is stateless (no session, no stream to open), so it answers POST only.`,
    },
    { headers: { allow: 'POST' } },
  );
};

/** The Kiln client for this request's keys, sending to this app in-process. */
function apiFor(c: Context, deps: McpRouteDeps) {
  const providerKeys: Partial<Record<VendorProvider, string>> = {};
  for (const vendor of VENDOR_PROVIDERS) {
    const key = c.req.header(vendorKeyHeader(vendor))?.trim();
    if (key) providerKeys[vendor] = key;
  }
  // The client's address goes along, so per-client limits (uploads) count this caller's.
  const env = { incoming: (c.env as { incoming?: unknown } | undefined)?.incoming };
  const api = createKilnApi({
    baseUrl: deps.publicUrl ?? new URL(c.req.url).origin,
    apiKey: bearerKey(c.req.header('authorization')),
    providerKeys,
    library: c.req.header(LIBRARY_HEADER)?.trim() || undefined,
    fetch: async (input, init) => deps.self(new Request(input, init), env),
  });
  return { api, vendors: VENDOR_PROVIDERS.filter((v) => providerKeys[v]) };
}

/** The `/mcp` routes, and `close` for the facts reader's thread. */
export function mcpRoutes(deps: McpRouteDeps) {
  const facts = factsReader();
  const routes = new Hono();
  routes.use('*', challenge, bearerRequired);
  routes.use('*', acceptedKey({ ...deps, writes: (c) => c.req.method === 'POST' }));
  routes.post('/', (c) => {
    const { api, vendors } = apiFor(c, deps);
    return answerMcp(c.req.raw, createKilnMcpServer({ api, facts, localFiles: false, vendors }));
  });
  routes.all('/', notAllowed);
  return { routes, close: () => facts.close() };
}
