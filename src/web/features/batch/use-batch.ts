import { useEffect, useMemo } from 'react';
import { type BatchApi, newIdempotencyKey } from '../../api/tasks.ts';
import { describeError } from '../../lib/describe-error.ts';
import { useStore } from '../../lib/store.ts';
import { createBatchController } from './batch-controller.ts';
import type { BatchView } from './batch-state.ts';
import { browserPhotoStore } from './photo-store.ts';

/** The one batch controller of this tab: it goes on sending while the artist is on other pages. */
export const batchController = createBatchController({
  photos: browserPhotoStore,
  describe: (err) => describeError(err).message,
  newKey: newIdempotencyKey,
});

/** The current key's batch; what a reload interrupted is sent again as soon as it is shown. */
export function useBatch(api: BatchApi): BatchView {
  // Opened before the first read, so the page never shows the wrong key's batch.
  useMemo(() => batchController.open(api.scope), [api.scope]);
  const view = useStore(batchController.view);
  useEffect(() => {
    void batchController.resume(api);
  }, [api]);
  return view;
}
