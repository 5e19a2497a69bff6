export { createKilnApi, kilnBaseUrl } from './kiln-api.ts';
export type { CreateBody, Downloaded, KilnApi, KilnApiOptions, SendOptions } from './kiln-api.ts';
export { kilnCalls, membersSteps, type Call, type PageOptions } from './calls.ts';
export {
  libraryFilterParams,
  NO_FILTERS,
  type LibraryFilters,
  type ProviderName,
} from './library-filters.ts';
