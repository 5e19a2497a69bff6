import { join } from 'node:path';
import * as generator from '../generator/index.ts';
import { createMockApp, type MockApp } from './app.ts';
import type { Generator } from './engine.ts';
import type { KeyGrant } from './keys.ts';
import { diskModelFiles } from './model-files.ts';
import { SPEED_PROFILES, type SpeedName } from './speed.ts';
import { openMockStore } from './store.ts';

export const realGenerator: Generator = {
  imageToGlb: generator.imageToGlb,
  viewsToGlb: generator.viewsToGlb,
  promptToGlb: generator.promptToGlb,
  isInputError: (err) => err instanceof generator.GeneratorInputError,
};

export interface MockUpstreamOptions {
  dataDir: string;
  keys: readonly KeyGrant[];
  speed: SpeedName;
  /** Requests per minute per key; 0 for no limit. */
  ratePerMinute: number;
  log?: (message: string) => void;
}

/** The mock as a user runs it: state under `dataDir/mock/`, real generator, real image fetching. */
export async function openMockUpstream(options: MockUpstreamOptions): Promise<MockApp> {
  const dir = join(options.dataDir, 'mock');
  const store = await openMockStore(join(dir, 'mock.sqlite'));
  const mock = createMockApp({
    store,
    files: diskModelFiles(join(dir, 'models')),
    generator: realGenerator,
    keys: options.keys,
    speed: SPEED_PROFILES[options.speed],
    rateLimit:
      options.ratePerMinute > 0 ? { limit: options.ratePerMinute, windowMs: 60_000 } : null,
    ...(options.log ? { log: options.log } : {}),
  });
  await mock.ready;
  return {
    ...mock,
    async close() {
      await mock.close();
      await store.close();
    },
  };
}
