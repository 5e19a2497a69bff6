// The vendors' mocks `npm start` runs beside the spec's (MOCK_PROVIDERS, issue 34): each a faithful
// mock of one vendor's API (src/mock/<vendor>/), sharing the spec mock's generator pool, mounted
// by the server at /mock/<vendor>, each with the demo key the start banner prints.
import type { Hono } from 'hono';
import type { VendorProvider } from '../contract/index.ts';
import type { Generator } from './engine.ts';
import { FAL_DEMO_KEYS, createFalMock } from './fal/app.ts';
import type { ImageFetchPolicy } from './fetch-image.ts';
import { MESHY_DEMO_KEYS, createMeshyMock } from './meshy/index.ts';
import type { SpeedName } from './speed.ts';
import { TRIPO_DEMO_KEYS, createTripoMock } from './tripo/app.ts';

export interface VendorMock {
  name: VendorProvider;
  /** Mounts its routes on the root app at `path` (`/mock/<vendor>`). */
  mount(root: Hono, path: string): void;
  /** The key a person pastes to try it (printed by `npm start`). */
  demoKey: string;
  close(): Promise<void>;
}

export interface VendorMockOptions {
  generator: Generator;
  speed: SpeedName;
  /** Where each is mounted, for the addresses it answers with: `/mock/<vendor>` on Kiln's origin. */
  mountPath: (name: VendorProvider) => string;
  imagePolicy?: ImageFetchPolicy;
}

type Factory = (options: VendorMockOptions) => Omit<VendorMock, 'name'>;

const FACTORIES: Partial<Record<VendorProvider, Factory>> = {
  meshy: (o) => {
    const mock = createMeshyMock({
      generator: o.generator,
      speed: o.speed === 'realistic' ? 'real' : 'fast',
      ...(o.imagePolicy ? { imagePolicy: o.imagePolicy } : {}),
    });
    return {
      mount: (root, path) => void root.route(path, mock.app),
      demoKey: MESHY_DEMO_KEYS[0].key,
      close: () => mock.close(),
    };
  },
  tripo: (o) => {
    const mock = createTripoMock({
      generator: o.generator,
      speed: o.speed === 'realistic' ? 'real' : 'fast',
      ...(o.imagePolicy ? { imagePolicy: o.imagePolicy } : {}),
    });
    return {
      mount: (root, path) => void root.route(path, mock.app),
      demoKey: TRIPO_DEMO_KEYS[0]!.key,
      close: () => mock.close(),
    };
  },
  fal: (o) => {
    const mock = createFalMock({
      generator: o.generator,
      speed: o.speed === 'realistic' ? 'real' : 'fast',
      mountPath: o.mountPath('fal'),
      ...(o.imagePolicy ? { imagePolicy: o.imagePolicy } : {}),
    });
    return {
      mount: (root, path) => void root.route(path, mock.app),
      demoKey: FAL_DEMO_KEYS[0]!.key,
      close: () => mock.close(),
    };
  },
};

/** The vendors Kiln has a mock of. */
export const MOCKED_VENDORS = Object.keys(FACTORIES) as VendorProvider[];

export function openVendorMocks(
  names: readonly VendorProvider[],
  options: VendorMockOptions,
): VendorMock[] {
  return names.flatMap((name) => {
    const factory = FACTORIES[name];
    return factory ? [{ name, ...factory(options) }] : [];
  });
}
