import { useRef, useState } from 'react';
import { describeError } from './describe-error.ts';
import { saveBlob } from './save-blob.ts';

/** A zip being made: nothing, under way (bytes so far), or why it failed. */
export type ZipState =
  { state: 'idle' } | { state: 'busy'; bytes: number } | { state: 'failed'; message: string };

/**
 * Download a zip the server makes (a selection's, a collection's) and save it: `download` starts
 * it (a new one stops the one under way), `zip` says how far it is or why it failed.
 */
export function useZipDownload(
  fetchZip: (options: {
    signal: AbortSignal;
    onProgress: (bytes: number) => void;
  }) => Promise<{ blob: Blob; fileName: string }>,
) {
  const [zip, setZip] = useState<ZipState>({ state: 'idle' });
  const abort = useRef<AbortController | null>(null);

  const download = async () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setZip({ state: 'busy', bytes: 0 });
    try {
      const { blob, fileName } = await fetchZip({
        signal: controller.signal,
        onProgress: (bytes) => setZip({ state: 'busy', bytes }),
      });
      saveBlob(blob, fileName);
      setZip({ state: 'idle' });
    } catch (err) {
      if (controller.signal.aborted) return setZip({ state: 'idle' });
      setZip({ state: 'failed', message: describeError(err).message });
    }
  };
  return { zip, download };
}
