// What the upload routes are given (routes.ts, store-upload.ts, from-url.ts).
import type { BlobStore } from '../storage/blobs.ts';
import type { Counters } from '../storage/counters.ts';
import type { UploadIndex } from '../storage/uploads.ts';
import type { UploadUrlFor } from './url-strategy.ts';

export interface UploadRoutesDeps {
  blobs: BlobStore;
  index: UploadIndex;
  counters: Counters;
  now: () => number;
  /** Uploads per minute per client; 0 = no limit. */
  perMinute: number;
  /** Total bytes of stored uploads before 507 (UPLOAD_QUOTA). */
  quotaBytes: number;
  /** Load balancer hops whose X-Forwarded-For is believed (TRUST_PROXY). */
  trustedProxies?: number;
  /** Names a stored upload for the upstream (see `uploadUrlStrategy`). */
  urlFor: UploadUrlFor;
  /** Largest image accepted, in bytes (default 20 MiB). */
  maxBytes?: number;
  /**
   * Fetches an image someone pasted the address of (`POST /from-url`), under the archive's
   * address policy (public addresses only, size and time capped); throws `SafeFetchError`.
   */
  fetchImage?: (url: string, maxBytes: number) => Promise<Uint8Array>;
  /** This Kiln's other origins (PUBLIC_URL, its listening address): its uploads pasted back. */
  ownOrigins?: () => string[];
  /** Told how each upload ended, and the bytes of a new one (the metrics). */
  onOutcome?: (outcome: 'stored' | 'duplicate' | 'refused' | 'quota_full', bytes?: number) => void;
}
