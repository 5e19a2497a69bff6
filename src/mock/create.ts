import { join } from 'node:path';
import { GeneratorInputError } from '../generator/index.ts';
import { createGeneratorPool, type GeneratorPool } from '../generator/runtime/pool.ts';
import { createMockApp, type MockApp } from './app.ts';
import type { Generator } from './engine.ts';
import type { ImageFetchPolicy } from './fetch-image.ts';
import { diskInputs } from './inputs.ts';
import type { KeyGrant } from './keys.ts';
import { diskModelFiles } from './model-files.ts';
import { SPEED_PROFILES, type SpeedName } from './speed.ts';
import { openMockStore } from './store.ts';
import { openVendorMocks, type VendorMock } from './vendors.ts';
import type { VendorProvider } from '../contract/index.ts';

/** The real generator on worker threads (off the request path), as the engine needs it. */
export function pooledGenerator(pool: GeneratorPool): Generator {
  return {
    imageToGlb: (image, hooks, quality) => pool.imageToGlb(image, hooks, quality),
    viewsToGlb: (images, hooks, quality) => pool.viewsToGlb(images, hooks, quality),
    promptToGlb: (prompt, hooks) => pool.promptToGlb(prompt, hooks),
    cutout: (image) => pool.cutout(image),
    isInputError: (err) => err instanceof GeneratorInputError,
  };
}

export interface MockUpstreamOptions {
  dataDir: string;
  keys: readonly KeyGrant[];
  speed: SpeedName;
  /** Requests per minute per key; 0 for no limit. */
  ratePerMinute: number;
  /** Which private origins the image fetch may reach (Kiln's own origin, PUBLIC_URL). */
  imagePolicy?: ImageFetchPolicy;
  log?: (message: string) => void;
  /** The vendors whose mocks run beside it (MOCK_PROVIDERS), on the same generator. */
  vendors?: readonly VendorProvider[];
}

/** The mock as a user runs it: state under `dataDir/mock/`, real generator, real image fetching. */
export async function openMockUpstream(
  options: MockUpstreamOptions,
): Promise<MockApp & { vendors: VendorMock[] }> {
  const dir = join(options.dataDir, 'mock');
  const store = await openMockStore(join(dir, 'mock.sqlite'));
  const pool = createGeneratorPool();
  const mock = createMockApp({
    store,
    files: diskModelFiles(join(dir, 'models')),
    inputs: diskInputs(join(dir, 'inputs')),
    ...(options.imagePolicy ? { imagePolicy: options.imagePolicy } : {}),
    generator: pooledGenerator(pool),
    keys: options.keys,
    speed: SPEED_PROFILES[options.speed],
    rateLimit:
      options.ratePerMinute > 0 ? { limit: options.ratePerMinute, windowMs: 60_000 } : null,
    ...(options.log ? { log: options.log } : {}),
  });
  await mock.ready;
  const vendors = openVendorMocks(options.vendors ?? [], {
    generator: pooledGenerator(pool),
    speed: options.speed,
    mountPath: (name) => `/mock/${name}`,
    ...(options.imagePolicy ? { imagePolicy: options.imagePolicy } : {}),
  });
  return {
    ...mock,
    vendors,
    async close() {
      await Promise.all(vendors.map((v) => v.close()));
      await mock.close();
      await pool.close();
      await store.close();
    },
  };
}
