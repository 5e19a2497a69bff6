// The keys a Node process (`npm run mcp`, `kiln`) reads from its environment for vendors'
// models, in one place: each vendor's key (KILN_MESHY_KEY, KILN_TRIPO_KEY, KILN_FAL_KEY) and the
// library's own key (KILN_LIBRARY, decision 0114: with vendors' keys it names the library).
import { VENDOR_PROVIDERS, type VendorProvider } from '../../contract/provider-ids.ts';

/** The variable a vendor's key is read from: `KILN_MESHY_KEY`, … */
export const vendorKeyVariable = (vendor: VendorProvider) => `KILN_${vendor.toUpperCase()}_KEY`;

export interface VendorEnv {
  /** Each vendor whose key is set, with it. */
  providerKeys: Partial<Record<VendorProvider, string>>;
  /** KILN_LIBRARY, when set. */
  library: string | undefined;
  /** The vendors whose keys are set, in VENDOR_PROVIDERS's order. */
  vendors: VendorProvider[];
}

export function readVendorEnv(env: Readonly<Record<string, string | undefined>>): VendorEnv {
  const providerKeys: Partial<Record<VendorProvider, string>> = {};
  for (const vendor of VENDOR_PROVIDERS) {
    const key = env[vendorKeyVariable(vendor)]?.trim();
    if (key) providerKeys[vendor] = key;
  }
  return {
    providerKeys,
    library: env.KILN_LIBRARY?.trim() || undefined,
    vendors: VENDOR_PROVIDERS.filter((v) => providerKeys[v]),
  };
}
