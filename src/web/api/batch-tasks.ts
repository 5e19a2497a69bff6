import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { InsufficientCreditsError } from '../../client/index.ts';
import type { CreateGenerationInput, Task, UploadResult } from '../../contract/index.ts';
import { rememberRequest } from '../lib/request-memory.ts';
import { useClient, useKeyScope } from './api-client.ts';
import { announce } from '../lib/tab-sync.ts';
import { queryKeys } from './query-keys.ts';
import { uploadImage, uploadPath } from './upload.ts';

/** What a batch sends, bound to the current key: one attempt per call (the batch retries). */
export interface BatchApi {
  /** The key scope the calls are made for. */
  scope: string;
  /**
   * `POST /3d/generations` with this Idempotency-Key, once (no retries inside: the batch's
   * runner retries, pacing 429s for every item at once). The same key and body again replays
   * the first answer.
   */
  create(body: CreateGenerationInput, idempotencyKey: string, signal?: AbortSignal): Promise<Task>;
  /** `POST /api/uploads` with progress. */
  upload(
    file: Blob,
    options: { signal?: AbortSignal; onProgress?: (fraction: number) => void },
  ): Promise<UploadResult>;
  /** Where this browser shows an upload. */
  uploadPath(result: UploadResult): string;
}

/** The batch's calls for the current key; a new task lands in the caches as one made by the form. */
export function useBatchApi(): BatchApi {
  const client = useClient();
  const scope = useKeyScope();
  const queryClient = useQueryClient();
  return useMemo(
    () => ({
      scope,
      async create(body, idempotencyKey, signal) {
        let task: Task;
        try {
          task = await client.createGeneration(body, {
            idempotencyKey,
            maxRetries: 0,
            ...(signal ? { signal } : {}),
          });
        } catch (err) {
          // A refusal for want of credits tells the server the balance: the header shows it.
          if (err instanceof InsufficientCreditsError)
            void queryClient.invalidateQueries({ queryKey: queryKeys.credits(scope) });
          throw err;
        }
        rememberRequest(task.id, body);
        queryClient.setQueryData(queryKeys.task(scope, task.id), task);
        void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) });
        void queryClient.invalidateQueries({ queryKey: queryKeys.credits(scope) });
        announce();
        return task;
      },
      upload: (file, options) => uploadImage(file, options),
      uploadPath,
    }),
    [client, scope, queryClient],
  );
}
