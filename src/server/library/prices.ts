import { ModelListSchema } from '../../contract/index.ts';

/** Credits per task of each model, as the upstream's listing says (empty when it says none). */
export type PriceLookup = (
  owner: string,
  incoming: Request,
) => Promise<ReadonlyMap<string, number>>;

/**
 * The listing's prices (`credits_per_task`, Kiln's mock's field; a real upstream may give none),
 * asked once per key (cached by its owner id, never by the key) every ten minutes. A listing that fails or names no prices gives an empty
 * map: the ledger then learns prices from completed tasks.
 */
export function listedPrices(
  list: (incoming: Request) => Promise<unknown>,
  now: () => number,
  ttlMs = 10 * 60_000,
): PriceLookup {
  const cache = new Map<string, { atMs: number; prices: Map<string, number> }>();
  return async (owner, incoming) => {
    const hit = cache.get(owner);
    if (hit && now() - hit.atMs < ttlMs) return hit.prices;
    const prices = new Map<string, number>();
    try {
      const parsed = ModelListSchema.safeParse(await list(incoming));
      if (parsed.success)
        for (const m of parsed.data.data)
          if (typeof m.credits_per_task === 'number') prices.set(m.id, m.credits_per_task);
    } catch {
      // no listing: learned prices only
    }
    cache.delete(owner);
    cache.set(owner, { atMs: now(), prices });
    if (cache.size > 1000) cache.delete(cache.keys().next().value as string);
    return prices;
  };
}
