import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived signed addresses for the owner's files (decision 0077): an archived model, its
 * picture, an optimised copy. Kiln's own pages get them in library entries and optimise results
 * (an `<img>` or a model loader sends no key); anybody else needs the owner's key, or a live
 * share's token, which has addresses of its own. A bare content hash opens nothing.
 *
 * An address is valid until `exp` (seconds), which is rounded up to a window boundary so that
 * the same file keeps the same address for a while (browser caches keep working): with the
 * default window of 6 hours, an address lives between 6 and 12 hours.
 */
export interface AssetSigner {
  /** `path` (`/api/assets/{sha}.glb`) with `?exp=…&sig=…`. */
  sign(path: string): string;
  /** Seconds the signature is still good for, or 0 when it is missing, wrong or past. */
  validFor(path: string, exp: string | undefined, sig: string | undefined): number;
}

const SIGNED_WINDOW_MS = 6 * 60 * 60 * 1000;

export function assetSigner(
  secret: Buffer,
  now: () => number = Date.now,
  windowMs = SIGNED_WINDOW_MS,
): AssetSigner {
  // A key of its own, derived from the owner-id secret (replicas share it).
  const key = createHmac('sha256', secret).update('kiln:signed-asset-urls').digest();
  const mac = (path: string, exp: number) =>
    createHmac('sha256', key).update(`${path}\n${exp}`).digest('base64url');
  return {
    sign(path) {
      const exp = ((Math.floor(now() / windowMs) + 2) * windowMs) / 1000;
      return `${path}?exp=${exp}&sig=${mac(path, exp)}`;
    },
    validFor(path, exp, sig) {
      if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return 0;
      const left = Number(exp) - Math.floor(now() / 1000);
      if (left <= 0) return 0;
      const want = Buffer.from(mac(path, Number(exp)));
      const got = Buffer.from(sig);
      return got.length === want.length && timingSafeEqual(got, want) ? left : 0;
    },
  };
}
