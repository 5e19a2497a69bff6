// What the mock's demo generator will model of the photos a create would send, asked before
// anything is charged (mock mode only; issue 32, items 2 and 4): `GET /v1/mock/cutout` and
// `GET /v1/mock/views-check`, mock-only endpoints (src/mock/input-check.ts) reached through
// Kiln's proxy with the key.
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import {
  CutoutCheckSchema,
  ViewsCheckSchema,
  type CutoutCheck,
  type ViewsCheck,
} from '../../contract/index.ts';
import { useInfo } from './account.ts';
import { NO_KEY, queryKeys, useKeyScope } from './query-keys.ts';
import { API_BASE, request } from './transport.ts';

export type { CutoutCheck, ViewsCheck };

const imageQuery = (urls: readonly string[]) =>
  urls.map((u) => `image_url=${encodeURIComponent(u)}`).join('&');

function cutoutQuery(scope: string, url: string) {
  return queryOptions({
    queryKey: queryKeys.cutout(scope, url),
    queryFn: ({ signal }) =>
      request(`${API_BASE}/mock/cutout?${imageQuery([url])}`, {
        signal,
        parse: (body) => CutoutCheckSchema.parse(body),
      }),
    // The same image always cuts out the same; a failed check just says nothing.
    staleTime: Infinity,
    retry: false,
  });
}

/** Whether the studio asks the demo generator about inputs: mock mode, with a key. */
function useAsking(): { scope: string; asking: boolean } {
  const scope = useKeyScope();
  const mock = useInfo().data?.mode === 'mock';
  return { scope, asking: mock && scope !== NO_KEY };
}

/**
 * The cut-out of each image address (in order; undefined while it is asked, when it failed,
 * or outside mock mode), and whether any is still coming.
 */
export function useCutouts(urls: readonly (string | null)[]) {
  const { scope, asking } = useAsking();
  const results = useQueries({
    queries: urls.map((url) => ({ ...cutoutQuery(scope, url ?? ''), enabled: asking && !!url })),
  });
  return {
    cutouts: results.map((r) => r.data as CutoutCheck | undefined),
    checking: results.some(
      (r, i) => !!urls[i] && asking && r.isPending && r.fetchStatus !== 'idle',
    ),
  };
}

/** Whether 2–4 image addresses (front, right, back, left) show one object, in mock mode. */
export function useViewsCheck(urls: readonly string[], enabled = true) {
  const { scope, asking } = useAsking();
  return useQuery({
    queryKey: queryKeys.viewsCheck(scope, urls),
    queryFn: ({ signal }) =>
      request(`${API_BASE}/mock/views-check?${imageQuery(urls)}`, {
        signal,
        parse: (body): ViewsCheck => ViewsCheckSchema.parse(body),
      }),
    enabled: enabled && asking && urls.length >= 2 && urls.length <= 4,
    staleTime: Infinity,
    retry: false,
  });
}
