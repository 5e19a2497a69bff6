// What the share routes are given (routes.ts, owner-routes.ts, link-routes.ts).
import type { OwnerOf } from '../owner-id.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { LibraryStore } from '../storage/library.ts';
import type { ShareStore } from '../storage/shares.ts';

export interface ShareRouteDeps {
  shares: ShareStore;
  library: LibraryStore;
  blobs: BlobStore;
  ownerOf: OwnerOf;
  /** PUBLIC_URL: the origin links are made on; else the request's own. */
  publicUrl?: string | undefined;
  now: () => number;
  /** A new token (tests may fix it); default: 144 random bits. */
  newToken?: () => string;
}
