// Kiln's own `/api`, one call at a time: each function says what one request is (method, path,
// body, how the answer is parsed) and sends nothing. The SPA's transport and the Node client
// (`kiln-api.ts`, used by the MCP server and the command line) both send these, so every caller
// asks Kiln the same way and reads the answer with the same contract schema (decision 0120).
import {
  CollectionListSchema,
  CollectionSchema,
  COLLECTION_MEMBERS_MAX,
  CreditsSchema,
  LibraryBulkResultSchema,
  LibraryEntrySchema,
  LibraryPageSchema,
  OptimiseJobSchema,
  OptimiseStartSchema,
  PublicCollectionSchema,
  PublicShareSchema,
  ShareSchema,
  UploadResultSchema,
  ProviderInfoListSchema,
  type Collection,
  type CollectionMembersPatch,
  type CollectionNameBody,
  type LibraryBulk,
  type LibraryEntry,
  type LibraryPage,
  type LibraryPatch,
  type OptimiseRequestInput,
} from '../../contract/index.ts';
import { libraryFilterParams, type LibraryFilters } from './library-filters.ts';

/** One request to Kiln's `/api`, described; `send` in the SPA or `createKilnApi` sends it. */
export interface Call<T> {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The path on Kiln's origin, query included (`/api/library?q=chair`). */
  path: string;
  /** A JSON body. */
  json?: unknown;
  /** Send the API key as a bearer token (default true; shared links and info need none). */
  auth?: boolean;
  /** The answer's body (undefined for a 204) read by a contract schema. */
  parse: (body: unknown) => T;
}

const seg = (value: string) => encodeURIComponent(value);
const entryPath = (id: string) => `/api/library/${seg(id)}`;
const collectionPath = (id: string) => `/api/collections/${seg(id)}`;
const nothing = (): null => null;

/** A page of the library: `cursor` from the last page's `next_cursor`; `limit` 1–100. */
export interface PageOptions {
  cursor?: string | undefined;
  limit?: number | undefined;
}

const library = {
  /** `GET /api/library`: one page, newest first unless the filters say otherwise. */
  list(filters: Partial<LibraryFilters> = {}, page: PageOptions = {}): Call<LibraryPage> {
    const params = libraryFilterParams(filters);
    if (page.limit !== undefined) params.set('limit', String(page.limit));
    if (page.cursor) params.set('cursor', page.cursor);
    const query = params.toString();
    return {
      method: 'GET',
      path: query ? `/api/library?${query}` : '/api/library',
      parse: (b) => LibraryPageSchema.parse(b),
    };
  },
  /** `GET /api/library/{id}`: one entry, its inputs, model, facts, share and collections. */
  get: (id: string): Call<LibraryEntry> => ({
    method: 'GET',
    path: entryPath(id),
    parse: (b) => LibraryEntrySchema.parse(b),
  }),
  /** `GET /api/library/{id}/same-input`: the key's other generations of the same input. */
  sameInput: (id: string): Call<LibraryEntry[]> => ({
    method: 'GET',
    path: `${entryPath(id)}/same-input`,
    parse: (b) => LibraryPageSchema.parse(b).data,
  }),
  /** `PATCH /api/library/{id}`: hide or show, star or unstar, name (null or '' clears it). */
  patch: (id: string, patch: LibraryPatch): Call<LibraryEntry> => ({
    method: 'PATCH',
    path: entryPath(id),
    json: patch,
    parse: (b) => LibraryEntrySchema.parse(b),
  }),
  /** `DELETE /api/library/{id}`: hides the entry (its model is kept; `patch` shows it again). */
  hide: (id: string): Call<null> => ({ method: 'DELETE', path: entryPath(id), parse: nothing }),
  /** `POST /api/library/bulk`: one action on up to 100 entries. */
  bulk: (body: LibraryBulk) => ({
    method: 'POST' as const,
    path: '/api/library/bulk',
    json: body,
    parse: (b: unknown) => LibraryBulkResultSchema.parse(b),
  }),
};

const collections = {
  /** `GET /api/collections`: the owner's collections, by name. */
  list: () => ({
    method: 'GET' as const,
    path: '/api/collections',
    parse: (b: unknown) => CollectionListSchema.parse(b).data,
  }),
  get: (id: string): Call<Collection> => ({
    method: 'GET',
    path: collectionPath(id),
    parse: (b) => CollectionSchema.parse(b),
  }),
  /** `POST /api/collections`: a bad name is a 400 naming `name`, a name in use a 409. */
  create: (name: string): Call<Collection> => ({
    method: 'POST',
    path: '/api/collections',
    json: { name } satisfies CollectionNameBody,
    parse: (b) => CollectionSchema.parse(b),
  }),
  rename: (id: string, name: string): Call<Collection> => ({
    method: 'PATCH',
    path: collectionPath(id),
    json: { name } satisfies CollectionNameBody,
    parse: (b) => CollectionSchema.parse(b),
  }),
  /** `DELETE /api/collections/{id}`: its models stay in the library. */
  remove: (id: string): Call<null> => ({
    method: 'DELETE',
    path: collectionPath(id),
    parse: nothing,
  }),
  /**
   * `POST /api/collections/{id}/models`: at most COLLECTION_MEMBERS_MAX ids per request, all or
   * nothing (`membersSteps` splits a longer change).
   */
  members: (id: string, patch: CollectionMembersPatch): Call<Collection> => ({
    method: 'POST',
    path: `${collectionPath(id)}/models`,
    json: patch,
    parse: (b) => CollectionSchema.parse(b),
  }),
  share: (id: string) => linkCalls(`${collectionPath(id)}/share`),
  /** `GET /api/collection-shares/{token}`: what a collection's link shows anyone (no key). */
  public: (token: string) => ({
    method: 'GET' as const,
    path: `/api/collection-shares/${seg(token)}`,
    auth: false,
    parse: (b: unknown) => PublicCollectionSchema.parse(b),
  }),
};

/** A change to a collection's members as requests of at most COLLECTION_MEMBERS_MAX ids each. */
export function membersSteps(
  add: readonly string[] = [],
  remove: readonly string[] = [],
): CollectionMembersPatch[] {
  const steps: CollectionMembersPatch[] = [];
  for (let i = 0; i < add.length; i += COLLECTION_MEMBERS_MAX)
    steps.push({ add: add.slice(i, i + COLLECTION_MEMBERS_MAX) });
  for (let i = 0; i < remove.length; i += COLLECTION_MEMBERS_MAX)
    steps.push({ remove: remove.slice(i, i + COLLECTION_MEMBERS_MAX) });
  return steps;
}

/** A public link's three calls (read, make, revoke) at `path`: a model's or a collection's. */
function linkCalls(path: string) {
  return {
    get: () => ({
      method: 'GET' as const,
      path,
      parse: (b: unknown) => ShareSchema.parse(b),
    }),
    create: () => ({
      method: 'POST' as const,
      path,
      parse: (b: unknown) => ShareSchema.parse(b),
    }),
    revoke: (): Call<null> => ({ method: 'DELETE', path, parse: nothing }),
  };
}

const shares = {
  /** A model's public link: `/api/library/{id}/share`. */
  of: (id: string) => linkCalls(`${entryPath(id)}/share`),
  /** `GET /api/shares/{token}`: what a model's link shows anyone (no key). */
  public: (token: string) => ({
    method: 'GET' as const,
    path: `/api/shares/${seg(token)}`,
    auth: false,
    parse: (b: unknown) => PublicShareSchema.parse(b),
  }),
};

const optimise = {
  /** `POST /api/library/{id}/optimise`: a job on the archived model (web, game, print, custom). */
  start: (id: string, body: OptimiseRequestInput) => ({
    method: 'POST' as const,
    path: `${entryPath(id)}/optimise`,
    json: body,
    parse: (b: unknown) => OptimiseStartSchema.parse(b),
  }),
  /** `GET /api/optimise/{job_id}`: progress, then the facts before and after and the file. */
  job: (jobId: string) => ({
    method: 'GET' as const,
    path: `/api/optimise/${seg(jobId)}`,
    parse: (b: unknown) => OptimiseJobSchema.parse(b),
  }),
};

/** Every call Kiln's `/api` answers that the SPA, the MCP server and the command line make. */
export const kilnCalls = {
  /** `GET /api/credits`: the balance, true as of `as_of_ms`, and its history. */
  credits: () => ({
    method: 'GET' as const,
    path: '/api/credits',
    parse: (b: unknown) => CreditsSchema.parse(b),
  }),
  /** `GET /api/providers`: the vendors this Kiln reaches (no key). */
  providers: () => ({
    method: 'GET' as const,
    path: '/api/providers',
    auth: false,
    parse: (b: unknown) => ProviderInfoListSchema.parse(b).data,
  }),
  /** `POST /api/uploads/from-url`: Kiln fetches a public image address once and keeps it. */
  uploadFromUrl: (url: string) => ({
    method: 'POST' as const,
    path: '/api/uploads/from-url',
    json: { url },
    parse: (b: unknown) => UploadResultSchema.parse(b),
  }),
  library,
  collections,
  shares,
  optimise,
};
