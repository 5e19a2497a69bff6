// The server's services, made once from its dependencies: the archive, the library, its
// entries, the listed prices, the upload sweeper and the optimiser, each counted in the metrics.
import { createArchiver } from './library/archive.ts';
import { assetSigner } from './library/asset-access.ts';
import { createEntryService } from './library/entries.ts';
import { listedPrices } from './library/prices.ts';
import { createLibraryService } from './library/service.ts';
import { createOptimiser } from './optimise/index.ts';
import type { Metrics } from './ops/metrics.ts';
import { ownerHasher } from './owner-id.ts';
import { forwardRaw } from './proxy/forward.ts';
import type { ServerDeps } from './deps.ts';
import { createUploadSweeper } from './uploads/retention.ts';

export type Services = ReturnType<typeof createServices>;

export function createServices(deps: ServerDeps, metrics: Metrics) {
  const now = deps.now ?? Date.now;
  const logger = deps.logger;
  const log = deps.log ?? (logger ? (m: string) => logger.info(m) : () => {});
  const ownerOf = ownerHasher(deps.secret);
  const { storage } = deps;
  const archiver = createArchiver({
    store: storage.library,
    blobs: deps.blobs,
    leases: storage.leases,
    holder: storage.holder,
    fetchGlb: deps.fetchGlb,
    now,
    log: (m) => log(`library: ${m}`),
    onOutcome: (outcome) => metrics.archives.inc({ outcome }),
  });
  const signer = assetSigner(deps.secret, now);
  const library = createLibraryService({
    store: storage.library,
    uploads: storage.uploads,
    archiver,
    intents: storage.intents,
    now,
    log: (m) => log(`library: ${m}`),
    onFinished: (model, outcome) => {
      metrics.tasksFinished.inc({ model, outcome });
      const price = lastPrices.get(model);
      if (outcome === 'failed' && price !== undefined)
        metrics.creditsRefunded.inc({ model }, price);
    },
  });
  /** The last prices any key's listing said (a refund is counted at its model's price). */
  const lastPrices = new Map<string, number>();
  const prices = listedPrices(async (incoming) => {
    const res = await forwardRaw(deps.upstream, {
      incoming: new Request(incoming.url, {
        headers: { authorization: incoming.headers.get('authorization') ?? '' },
      }),
      path: '/models',
      timeoutMs: 5_000,
    });
    return res.ok ? res.json() : undefined;
  }, now);
  const pricesNoted: typeof prices = async (owner, incoming) => {
    const found = await prices(owner, incoming);
    for (const [model, price] of found) lastPrices.set(model, price);
    return found;
  };
  const uploadSweeper = createUploadSweeper({
    index: storage.uploads,
    blobs: deps.blobs,
    retentionMs: deps.limits.uploads.retentionMs,
    now,
    log: (m) => log(`uploads: ${m}`),
  });

  const optimiser = createOptimiser({
    signer,
    store: storage.library,
    jobStore: storage.optimiseJobs,
    holder: storage.holder,
    exclusive: storage.exclusive,
    blobs: deps.blobs,
    ownerOf,
    now,
    log: (m) => log(`optimise: ${m}`),
    onFinished: (outcome) => metrics.optimiseFinished.inc({ outcome }),
    ...deps.optimise,
  });
  // Every library entry any route answers, with its share and collections (decision 0105).
  const entries = createEntryService({
    shares: storage.shares,
    collections: storage.collections,
    signer,
    publicUrl: deps.publicUrl,
  });
  return {
    now,
    log,
    ownerOf,
    archiver,
    signer,
    library,
    entries,
    prices: pricesNoted,
    uploadSweeper,
    optimiser,
  };
}
