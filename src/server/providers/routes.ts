// `/api/providers`: which providers this Kiln reaches, each one's models for a key, and its
// balance as the vendor states it (issue 34). Read-only: nothing here writes or keeps a key.
import { Hono, type Context } from 'hono';
import {
  ERROR_CODES,
  PROVIDER_KEY_HEADER,
  PROVIDER_LABELS,
  type ProviderBalanceRecord,
  type ProviderInfo,
  type ProviderModelRecord,
} from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { providerApiError } from './errors.ts';
import type { ConfiguredProvider, ProviderRegistry } from './registry.ts';

export interface ProviderRouteDeps {
  registry: ProviderRegistry;
  now: () => number;
}

/** The provider a path names, or a 404 that lists the ones there are. */
function providerNamed(registry: ProviderRegistry, name: string): ConfiguredProvider {
  const found = registry.get(name);
  if (found) return found;
  const known = registry.list().map((p) => p.name);
  throw new ApiError(404, {
    code: ERROR_CODES.routeNotFound,
    message: known.length
      ? `No provider "${name}" here; this Kiln reaches ${known.join(', ')}.`
      : `No provider "${name}": this Kiln reaches none besides its own upstream.`,
    param: 'provider',
  });
}

/** The key a request carries for a provider, or a 401 that says where it goes. */
export function providerKey(c: Context, provider: ConfiguredProvider): string {
  const key = c.req.header(PROVIDER_KEY_HEADER)?.trim();
  if (key) return key;
  throw new ApiError(401, {
    code: ERROR_CODES.missingApiKey,
    message: `No ${PROVIDER_LABELS[provider.name]} key. Send it in the ${PROVIDER_KEY_HEADER} header (it starts ${provider.keyHint}).`,
    param: PROVIDER_KEY_HEADER,
  });
}

function infoOf(p: ConfiguredProvider): ProviderInfo {
  return {
    name: p.name,
    label: PROVIDER_LABELS[p.name],
    host: p.host,
    balance: p.hasBalance,
    key_hint: p.keyHint,
    mock_key: p.mockKey ?? null,
  };
}

export async function modelsOf(p: ConfiguredProvider, key: string): Promise<ProviderModelRecord[]> {
  const models = await p.adapter.models(key).catch((err: unknown) => {
    throw providerApiError(PROVIDER_LABELS[p.name], err);
  });
  return models.map((m) => ({
    id: `${p.name}/${m.id}`,
    provider: p.name,
    label: m.label,
    inputs: [...m.inputs],
    price: m.price,
    unit: m.unit,
    description: m.description,
  }));
}

async function balanceOf(
  p: ConfiguredProvider,
  key: string,
  now: number,
): Promise<ProviderBalanceRecord> {
  const label = PROVIDER_LABELS[p.name];
  const stated = await p.adapter.balance(key).catch((err: unknown) => {
    throw providerApiError(label, err);
  });
  if (!stated) {
    // A vendor with no balance call: the key is checked by listing its models instead.
    const models = await modelsOf(p, key);
    return {
      provider: p.name,
      amount: null,
      unit: models[0]?.unit ?? 'USD',
      frozen: null,
      as_of_ms: now,
      note: `${label} offers no balance to read with an API key; see your ${label} dashboard.`,
    };
  }
  return {
    provider: p.name,
    amount: stated.amount,
    unit: stated.unit,
    frozen: stated.frozen ?? null,
    as_of_ms: stated.asOfMs,
    note: null,
  };
}

export function providerRoutes(deps: ProviderRouteDeps) {
  return new Hono()
    .get('/', (c) => c.json({ data: deps.registry.list().map(infoOf) }))
    .get('/:name/models', async (c) => {
      const p = providerNamed(deps.registry, c.req.param('name'));
      return c.json({ data: await modelsOf(p, providerKey(c, p)) });
    })
    .get('/:name/balance', async (c) => {
      const p = providerNamed(deps.registry, c.req.param('name'));
      return c.json(await balanceOf(p, providerKey(c, p), deps.now()));
    });
}
