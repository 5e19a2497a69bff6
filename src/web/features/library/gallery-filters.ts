// The gallery's filters and its address: /gallery?collection=col_…&q=chair&model=alpha&kind=photo
// &status=failed&favourite=1&hidden=1&sort=credits. The address is the state (a link or a reload shows the same
// gallery, back and forward step through filter changes); these are its pure halves.
import {
  COLLECTION_ID,
  LIBRARY_KINDS,
  LIBRARY_SORTS,
  LIBRARY_STATUSES,
  type LibraryKind,
  type LibrarySort,
  type LibraryStatusFilter,
} from '../../../contract/index.ts';
import {
  NO_FILTERS,
  libraryFilterParams,
  type LibraryFilters,
  type ProviderName,
} from '../../api/library.ts';
import { isVendorProvider, PROVIDER_LABELS } from '../../../contract/index.ts';

export type { LibraryFilters };
export { NO_FILTERS };

const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;

/**
 * The filters an address carries. A value the gallery does not know (an old or hand-typed link)
 * is dropped rather than refused: the gallery shows more, never an error.
 */
export function filtersFromSearch(search: string): LibraryFilters {
  const params = new URLSearchParams(search);
  const model = (params.get('model') ?? '').trim();
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    model: model.length <= 100 && !/\s/.test(model) ? model : '',
    kind: oneOf<LibraryKind>(params.get('kind'), LIBRARY_KINDS) ?? '',
    status: oneOf<LibraryStatusFilter>(params.get('status'), LIBRARY_STATUSES) ?? '',
    favourite: ['1', 'true'].includes(params.get('favourite') ?? ''),
    hidden: ['1', 'true'].includes(params.get('hidden') ?? ''),
    sort: oneOf<LibrarySort>(params.get('sort'), LIBRARY_SORTS) ?? 'newest',
    collection: COLLECTION_ID.test(params.get('collection') ?? '')
      ? (params.get('collection') ?? '')
      : '',
    provider: providerParam(params.get('provider')),
  };
}

function providerParam(value: string | null): ProviderName | '' {
  return value === 'spec' || isVendorProvider(value) ? value : '';
}

/** The address's query string for these filters ("?q=chair&sort=credits", or "" for none). */
export function searchOfFilters(filters: LibraryFilters): string {
  const query = libraryFilterParams(filters).toString();
  return query ? `?${query}` : '';
}

/**
 * How many filters narrow the list (the search counts as one; the order is not a filter, and
 * neither is the collection: it is where the gallery is, said by its heading).
 */
export function activeFilterCount(filters: LibraryFilters): number {
  return [
    filters.q.trim() !== '',
    filters.model !== '',
    filters.kind !== '',
    filters.status !== '',
    filters.favourite,
    filters.hidden,
    filters.provider !== '',
  ].filter(Boolean).length;
}

/** The same filters with none of them set, keeping the order and the collection. */
export function clearedFilters(filters: LibraryFilters): LibraryFilters {
  return { ...NO_FILTERS, sort: filters.sort, collection: filters.collection };
}

/** The same filters in every model ("All models"): the collection left, the rest kept. */
export function withoutCollection(filters: LibraryFilters): LibraryFilters {
  return { ...filters, collection: '' };
}

export const SORT_LABELS: Record<LibrarySort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  credits: 'Most credits first',
};
export const KIND_LABELS: Record<LibraryKind, string> = {
  photo: 'Photo',
  views: 'Views',
  prompt: 'Prompt',
};
export const STATUS_LABELS: Record<LibraryStatusFilter, string> = {
  completed: 'Completed',
  failed: 'Failed',
  pending: 'In progress',
};

/**
 * What the list shows, in words: "12 tasks" / "1 task", with "so far" while more pages are
 * there, the filters ("matching “chair”, photos, failed, favourites, alpha") and the order.
 */
export function describeList(filters: LibraryFilters, count: number, more: boolean): string {
  const tasks = `${count} ${count === 1 ? 'task' : 'tasks'}${more ? ' shown so far' : ''}`;
  return `${[tasks, ...filterWords(filters)].join(', ')}; ${SORT_LABELS[filters.sort].toLowerCase()}.`;
}

/** The filters in words, for "nothing matches": "Tasks matching “chair”, failed." */
export function describeFilters(filters: LibraryFilters): string {
  return `Tasks ${filterWords(filters).join(', ')}.`;
}

function filterWords(filters: LibraryFilters): string[] {
  const parts: string[] = [];
  const q = filters.q.trim();
  if (q) parts.push(`matching “${q}”`);
  if (filters.model) parts.push(`made with ${filters.model}`);
  if (filters.provider) parts.push(`from ${PROVIDER_LABELS[filters.provider]}`);
  if (filters.kind)
    parts.push(
      `from ${filters.kind === 'photo' ? 'one photo' : filters.kind === 'views' ? 'several views' : 'a prompt'}`,
    );
  if (filters.status) parts.push(STATUS_LABELS[filters.status].toLowerCase());
  if (filters.favourite) parts.push('favourites');
  if (filters.hidden) parts.push('hidden');
  return parts;
}
