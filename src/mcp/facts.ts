// A model file's facts for `get_model` and `generate`, read on a worker thread of Kiln's one pool
// (src/workers), so the process serving MCP keeps answering while a large model is read; each
// file (named by its content hash) is read once and remembered.
import { createWorkerPool } from '../workers/index.ts';
import type { ModelFacts } from './read-facts.ts';

export type { ModelFacts } from './read-facts.ts';

/** Files whose facts are remembered (the oldest go first). */
const REMEMBERED = 200;
/** The longest one file's reading may take. */
const READ_MS = 60_000;

export interface FactsReader {
  /** The facts of the GLB whose content hash is `sha256`; `load` fetches its bytes, once. */
  read(sha256: string, load: () => Promise<Uint8Array>): Promise<ModelFacts>;
  /** Ends the thread (jobs waiting are dropped). */
  close(): Promise<void>;
}

export function factsReader(): FactsReader {
  const pool = createWorkerPool<Uint8Array, ModelFacts>({
    job: new URL('./facts-job.ts', import.meta.url),
    threads: 1,
    maxQueue: 32,
  });
  const known = new Map<string, Promise<ModelFacts>>();
  return {
    read(sha256, load) {
      let facts = known.get(sha256);
      if (!facts) {
        facts = load().then((bytes) => pool.run(bytes, { timeoutMs: READ_MS }));
        // A failure is not remembered: the next ask tries again.
        facts.catch(() => known.delete(sha256));
        known.set(sha256, facts);
        if (known.size > REMEMBERED) known.delete(known.keys().next().value as string);
      }
      return facts;
    },
    close: () => pool.close({ dropQueued: true }),
  };
}
