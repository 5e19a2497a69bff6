// What the library's routes are given (routes.ts, credits-route.ts).
import type { OwnerOf } from '../owner-id.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { CollectionStore } from '../storage/collections.ts';
import type { IntentStore } from '../storage/intents.ts';
import type { LibraryRow, LibraryStore } from '../storage/library.ts';
import type { EntryService } from './entries.ts';
import type { PriceLookup } from './prices.ts';

export interface LibraryRouteDeps {
  store: LibraryStore;
  /** Builds every entry answered, with its share and collections (entries.ts). */
  entries: EntryService;
  /** The `?collection=` filter's collections: the caller's own only. */
  collections: Pick<CollectionStore, 'get'>;
  ownerOf: OwnerOf;
  /** Where thumbnails are kept. */
  blobs: BlobStore;
  /** Creates recorded before they were forwarded (the balance counts those in flight). */
  intents?: IntentStore;
  /** The upstream listing's prices, for charges whose task has not said its price. */
  prices?: PriceLookup;
  now?: () => number;
  /** Asks the upstream about pending rows nobody has polled lately (proxy/catch-up.ts). */
  catchUp?: CatchUp;
  /** 0 when this process alone writes the database (embedded SQLite): one clock. */
  clockMarginMs?: number;
  /**
   * A key's balance as its upstream holds it now, where that can be asked (the embedded mock:
   * the API has no balance call); used only before any task has stated one (decision 0100).
   */
  statedBalance?: StatedBalance;
}

/** The balance the upstream holds for a key now, or undefined when it cannot say. */
export type StatedBalance = (apiKey: string) => Promise<number | undefined>;

/**
 * Asks the upstream, with the reader's key, about rows that may be behind it; answers how many
 * moved (proxy/catch-up.ts makes one).
 */
export type CatchUp = (
  owner: string,
  incoming: Request,
  rows: readonly LibraryRow[],
) => Promise<number>;
