// Shared by the mock's tests and the client's integration tests: an in-process mock with fast fakes.
import { Document, NodeIO } from '@gltf-transform/core';
import { readFileSync } from 'node:fs';
import { photoPath } from './fixtures.ts';
import {
  GeneratorInputError,
  imageToGlb,
  photoCutout,
  promptToGlb,
  viewsToGlb,
} from '../generator/index.ts';
import { createMockApp, type MockApp, type MockAppDeps } from '../mock/app.ts';
import type { Generator } from '../mock/engine.ts';
import { dirname, join } from 'node:path';
import { diskInputs, memoryInputs } from '../mock/inputs.ts';
import { memoryModelFiles } from '../mock/model-files.ts';
import { SPEED_PROFILES, type SpeedProfile } from '../mock/speed.ts';
import { openMockStore, type MockStore } from '../mock/store.ts';

function fixturePhoto(name: string): Buffer {
  return readFileSync(photoPath(name));
}

export function photoDataUri(name: string): string {
  return `data:image/png;base64,${fixturePhoto(name).toString('base64')}`;
}

let emptyGlb: Uint8Array | undefined;
/** A generator that answers at once with a tiny valid GLB; images are only checked for a PNG/JPEG header. */
export const fakeGenerator: Generator = {
  async imageToGlb(image) {
    if (!looksLikeImage(image)) throw new FakeInputError('not an image');
    return (emptyGlb ??= await new NodeIO().writeBinary(new Document()));
  },
  async viewsToGlb(images) {
    if (!images.every(looksLikeImage)) throw new FakeInputError('not an image');
    return (emptyGlb ??= await new NodeIO().writeBinary(new Document()));
  },
  async promptToGlb() {
    return (emptyGlb ??= await new NodeIO().writeBinary(new Document()));
  },
  cutout: (image) => photoCutout(image),
  isInputError: (err) => err instanceof FakeInputError,
};
class FakeInputError extends Error {}

/** The demo generator itself, in this thread (the test mock's own makes empty models). */
export const realGenerator: Generator = {
  imageToGlb: (image) => imageToGlb(image),
  viewsToGlb: (images) => viewsToGlb(images),
  promptToGlb: (prompt) => promptToGlb(prompt),
  cutout: (image) => photoCutout(image),
  isInputError: (err) => err instanceof GeneratorInputError,
};
function looksLikeImage(b: Uint8Array): boolean {
  return (b[0] === 0x89 && b[1] === 0x50) || (b[0] === 0xff && b[1] === 0xd8);
}

export interface TestMock extends MockApp {
  store: MockStore;
  request(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
}

const BASE = 'http://mock.test/v1';

/** A speed profile whose five stages each last `ms`. */
export const evenSpeed = (ms: number): SpeedProfile => ({
  initializing: ms,
  downloading: ms,
  generating: ms,
  processing: ms,
  uploading: ms,
});

/** A mock with an in-memory store, mounted at /v1 of http://mock.test. */
export async function startTestMock(
  options: Partial<Omit<MockAppDeps, 'speed'>> & { speed?: SpeedProfile; storeFile?: string } = {},
): Promise<TestMock> {
  const store = options.store ?? (await openMockStore(options.storeFile ?? ':memory:'));
  const mock = createMockApp({
    files: memoryModelFiles(),
    // Inline inputs outlive the app when the store does (a restart test reopens the file).
    inputs: options.storeFile
      ? diskInputs(join(dirname(options.storeFile), 'inputs'))
      : memoryInputs(),
    generator: fakeGenerator,
    // A second account: tests of what one key may not see or change of another's.
    keys: [
      { key: 'tr_test_key', balance: 1000 },
      { key: 'tr_other_key', balance: 1000 },
    ],
    ...options,
    speed: options.speed ?? SPEED_PROFILES.instant,
    store,
  });
  await mock.ready;
  const { Hono } = await import('hono');
  const root = new Hono().route('/v1', mock.app);
  return {
    ...mock,
    store,
    app: mock.app,
    request(path, init = {}) {
      const { key = 'tr_test_key', ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== null) headers.set('authorization', `Bearer ${key}`);
      if (rest.body !== undefined) headers.set('content-type', 'application/json');
      return Promise.resolve(root.request(`${BASE}${path}`, { ...rest, headers }));
    },
    async close() {
      await mock.close();
      if (!options.store) await store.close();
    },
  };
}

/** balance = starting − Σ credits of tasks not failed, for one key; and no pending task left. */
export async function ledgerOf(store: MockStore, keyHash: string) {
  const account = await store.account(keyHash);
  const tasks = await store.tasksOf(keyHash);
  const charged = tasks.filter((t) => t.status !== 'failed').reduce((s, t) => s + t.credits, 0);
  return {
    balance: account?.balance,
    expected: (account?.startingBalance ?? 0) - charged,
    pending: tasks.filter((t) => t.status === 'pending').length,
    completed: tasks.filter((t) => t.status === 'completed').length,
    failed: tasks.filter((t) => t.status === 'failed').length,
  };
}
