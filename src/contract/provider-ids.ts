// Providers' names, model ids and task ids, and the headers their keys travel in: no zod, so
// the SPA's shell (transport, key stores) can use them within its size budget.
/**
 * The providers behind Kiln's one create route (issue 34). `spec` is the spec's upstream (its six
 * aliases stay bare); every other provider's models are named `provider/model`, and their tasks
 * `provider_ref` (the spec's own ids start `task_`).
 */
export const VENDOR_PROVIDERS = ['meshy', 'tripo', 'fal'] as const;
export type VendorProvider = (typeof VENDOR_PROVIDERS)[number];

export const PROVIDER_LABELS: Readonly<Record<VendorProvider | 'spec', string>> = {
  spec: 'Kiln API',
  meshy: 'Meshy',
  tripo: 'Tripo',
  fal: 'fal',
};

export function isVendorProvider(value: unknown): value is VendorProvider {
  return typeof value === 'string' && (VENDOR_PROVIDERS as readonly string[]).includes(value);
}

/** `meshy/meshy-6` → { provider: 'meshy', model: 'meshy-6' }; a bare alias or anything else → undefined. */
export function splitModelId(id: string): { provider: VendorProvider; model: string } | undefined {
  const slash = id.indexOf('/');
  if (slash <= 0) return undefined;
  const provider = id.slice(0, slash);
  const model = id.slice(slash + 1);
  return isVendorProvider(provider) && model ? { provider, model } : undefined;
}

/** The provider a model id or a task's model belongs to: `spec` for the bare aliases. */
export function providerOfModel(id: string): VendorProvider | 'spec' {
  return splitModelId(id)?.provider ?? 'spec';
}

/** The task id Kiln gives a vendor's task: `meshy_<ref>`. */
export function providerTaskId(provider: VendorProvider, ref: string): string {
  return `${provider}_${ref}`;
}

/** `meshy_<ref>` → its provider and the adapter's ref; a spec task id → undefined. */
export function splitTaskId(id: string): { provider: VendorProvider; ref: string } | undefined {
  const under = id.indexOf('_');
  if (under <= 0) return undefined;
  const provider = id.slice(0, under);
  const ref = id.slice(under + 1);
  return isVendorProvider(provider) && ref ? { provider, ref } : undefined;
}

/** The header a provider's key travels in (the bearer names the library; decision 0114). */
export const PROVIDER_KEY_HEADER = 'x-provider-key';

/**
 * The header naming an artist's library (decision 0114): one library holds the models of every
 * provider key the artist connects, so it is named by a key of its own.
 */
export const LIBRARY_HEADER = 'x-kiln-library';
