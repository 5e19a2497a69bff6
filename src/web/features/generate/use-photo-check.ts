import { useCutouts, useViewsCheck } from '../../api/input-check.ts';
import type { ModelChoice } from '../../api/tasks.ts';
import { useWaitAtMost } from '../../ui/input-check.tsx';
import type { ImageItem } from './use-image-items.ts';

/** The longest Generate waits for the photos' check before going ahead without it. */
const CHECK_HOLD_MS = 10_000;

/**
 * What the demo generator will make of the photos (mock mode): the cut-out of each, whether the
 * views show one object, and whether Generate still waits for them (a few seconds at most,
 * issue 32). `refusedAt` is the place of the first photo no tier can model (-1: none);
 * `cautioned`, that one is cut out with a caution or the views disagree.
 */
export function usePhotoCheck(kind: ModelChoice['input'] | undefined, items: readonly ImageItem[]) {
  const readyUrls = items.map((i) => (i.status === 'ready' ? i.url : null));
  const cutouts = useCutouts(kind === 'text' ? [] : readyUrls);
  const allReady = readyUrls.length >= 2 && readyUrls.every((u) => u !== null);
  const viewsCheck = useViewsCheck(readyUrls as string[], kind === 'multiview' && allReady);
  const checkingViews = viewsCheck.isPending && viewsCheck.fetchStatus !== 'idle';
  const checking = useWaitAtMost(
    cutouts.checking || checkingViews,
    readyUrls.join(' '),
    CHECK_HOLD_MS,
  );
  const photos = kind !== undefined && kind !== 'text';
  return {
    cutouts: cutouts.cutouts,
    views: viewsCheck.data,
    checking: photos && checking,
    refusedAt: photos ? cutouts.cutouts.findIndex((c) => c?.usable === false) : -1,
    cautioned:
      photos && (cutouts.cutouts.some((c) => c?.warning) || viewsCheck.data?.agree === false),
  };
}
