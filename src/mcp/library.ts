// Lookups several tools share: a collection named by id or by name, an entry once Kiln has kept
// its copy, and the facts of that copy.
import { NotFoundError } from '../client/index.ts';
import type { KilnApi } from '../client/kiln/index.ts';
import { COLLECTION_ID, type Collection, type LibraryEntry } from '../contract/index.ts';
import type { McpContext, Report } from './context.ts';
import type { ModelFacts } from './facts.ts';
import { ToolInputError } from './results.ts';

/** A collection by its id (`col_…`) or its name (any case), or a refusal naming `field`. */
export async function findCollection(
  api: KilnApi,
  value: string,
  field = 'collection',
): Promise<Collection> {
  if (COLLECTION_ID.test(value)) {
    try {
      return await api.collections.get(value);
    } catch (err) {
      if (err instanceof NotFoundError)
        throw new ToolInputError(field, `there is no collection ${value} (list_collections).`);
      throw err;
    }
  }
  const wanted = value.trim().toLowerCase();
  const found = (await api.collections.list()).find((c) => c.name.toLowerCase() === wanted);
  if (!found)
    throw new ToolInputError(
      field,
      `there is no collection named "${value}" (list_collections lists them; create_collection makes one).`,
    );
  return found;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((done, fail) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        fail(signal.reason);
      },
      { once: true },
    );
  });

/** How long a completed model's copy is waited for before answering with what there is. */
const ARCHIVE_WAIT_MS = 30_000;

/** The entry once Kiln keeps its own copy of the model (or gave up, or the wait is over). */
export async function archivedEntry(
  api: KilnApi,
  id: string,
  report: Report,
  signal: AbortSignal,
): Promise<LibraryEntry> {
  const until = Date.now() + ARCHIVE_WAIT_MS;
  let entry = await api.library.get(id);
  while (!entry.archived && entry.status === 'completed' && Date.now() < until) {
    if (entry.archive?.state === 'failed') break;
    report(95, 'Keeping a copy in the library');
    await sleep(250, signal);
    entry = await api.library.get(id);
  }
  return entry;
}

/** An archived model's content hash, from its address (`/api/assets/{sha256}.glb?…`). */
const ASSET = /^\/api\/assets\/([a-f0-9]{64})\.glb(?:\?|$)/;

/** The facts of the entry's model, or why there are none yet. */
export async function factsOf(
  ctx: McpContext,
  entry: LibraryEntry,
): Promise<ModelFacts | { unavailable: string }> {
  const path = entry.model_url;
  const sha256 = path ? ASSET.exec(path)?.[1] : undefined;
  if (!path || !sha256)
    return {
      unavailable:
        entry.status === 'completed'
          ? 'Kiln has no copy of this model yet; ask again in a moment.'
          : `The model is ${entry.status}: it has no file yet.`,
    };
  try {
    return await ctx.facts.read(sha256, async () => (await ctx.api.download(path)).bytes);
  } catch (err) {
    return { unavailable: `The model file could not be read: ${(err as Error).message}` };
  }
}
