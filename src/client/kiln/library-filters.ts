// What `GET /api/library` is asked to keep and in which order: the gallery's filters, the MCP
// server's search and `kiln ls` alike, written as one query string so equal filters read equal.
import type { LibraryKind, LibrarySort, LibraryStatusFilter } from '../../contract/index.ts';
import type { VendorProvider } from '../../contract/provider-ids.ts';

/** A library entry's maker: one of the vendors, or the spec's API (Kiln's upstream). */
export type ProviderName = VendorProvider | 'spec';

export interface LibraryFilters {
  /** Words to find in the model's name, the prompt or a photo's file name. */
  q: string;
  /** One model id, or '' for every model. */
  model: string;
  kind: LibraryKind | '';
  status: LibraryStatusFilter | '';
  /** Only starred tasks. */
  favourite: boolean;
  /** The hidden tasks instead of the shown ones (the gallery's Hidden view, decision 0095). */
  hidden: boolean;
  sort: LibrarySort;
  /** Only the models in this collection (`col_…`, decision 0087), or '' for every model. */
  collection: string;
  /** Only one provider's models, or '' for all (filtered in Kiln's query, so pages stay right). */
  provider: ProviderName | '';
}

export const NO_FILTERS: LibraryFilters = {
  q: '',
  model: '',
  kind: '',
  status: '',
  favourite: false,
  hidden: false,
  sort: 'newest',
  collection: '',
  provider: '',
};

/**
 * The filters as query parameters, in one order, defaults left out ("q=chair&sort=credits";
 * a collection first, "collection=col_…&q=chair"):
 * the API's query and the gallery's address alike, so equal filters give equal strings.
 */
export function libraryFilterParams(filters: Partial<LibraryFilters>): URLSearchParams {
  const f = { ...NO_FILTERS, ...filters };
  const params = new URLSearchParams();
  if (f.collection) params.set('collection', f.collection);
  const q = f.q.trim().replace(/\s+/g, ' ');
  if (q) params.set('q', q);
  if (f.model) params.set('model', f.model);
  if (f.kind) params.set('kind', f.kind);
  if (f.status) params.set('status', f.status);
  if (f.favourite) params.set('favourite', '1');
  if (f.hidden) params.set('hidden', '1');
  if (f.sort !== 'newest') params.set('sort', f.sort);
  if (f.provider) params.set('provider', f.provider);
  return params;
}
