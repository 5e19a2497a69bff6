// The library store: every task made through Kiln (owner = HMAC of the API key, never the key)
// and what each key's balance was. One store over one connection, in parts by concern:
// the rows one by one (library-tasks.ts), the lists (library-list.ts), the archive
// (library-archive.ts) and the balances (library-balances.ts); the row itself in library-row.ts.
import type { Kysely } from 'kysely';
import { libraryArchive, type LibraryArchiveStore } from './library-archive.ts';
import { libraryBalances, type LibraryBalanceStore } from './library-balances.ts';
import { libraryLists, type LibraryListStore } from './library-list.ts';
import { libraryTasks, type LibraryTaskStore } from './library-tasks.ts';
import type { Tables } from './schema.ts';

export type { LibraryRow } from './library-row.ts';
export {
  creditsKeyOf,
  type LibraryCursor,
  type LibraryFilter,
  type LibraryListOptions,
} from './library-list.ts';
export type { LedgerTask, Refusal } from './library-balances.ts';

/** Library rows and balances: every task made through Kiln, and what each key's balance was. */
export interface LibraryStore
  extends LibraryTaskStore, LibraryListStore, LibraryArchiveStore, LibraryBalanceStore {}

export function libraryStore(db: Kysely<Tables>): LibraryStore {
  return {
    ...libraryTasks(db),
    ...libraryLists(db),
    ...libraryArchive(db),
    ...libraryBalances(db),
  };
}
