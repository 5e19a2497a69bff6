// `kiln batch` as a script runs it (bin/kiln.mjs, a child process) against a real Kiln with the
// real generator: a folder becomes a model a photo, a second run makes nothing new, and a run
// killed after its first create was written down, run again, makes every model once and is
// charged once, by the mock's own ledger. Each test has a key of its own, so its ledger is its own.
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKilnApi } from '../client/kiln/index.ts';
import { hashKey } from '../mock/keys.ts';
import { runKilnCli, spawnKilnCli, type CliRun } from '../testing/cli.ts';
import { photoPath, readPhoto, type PhotoName } from '../testing/fixtures.ts';
import { startHttpKiln, type HttpKiln } from '../testing/http-kiln.ts';
import { evenSpeed, ledgerOf } from '../testing/mock.ts';
import { LOCK_FILE, sha256Of, STATE_FILE, type BatchItem, type BatchState } from './batch-state.ts';

const KEYS = {
  whole: 'tr_batch_whole',
  resumed: 'tr_batch_resumed',
  replayed: 'tr_batch_replayed',
  stopped: 'tr_batch_stopped',
} as const;
const THREE: PhotoName[] = ['chair.png', 'teapot.png', 'horse.png'];

let kiln: HttpKiln;
const folders: string[] = [];

beforeAll(async () => {
  kiln = await startHttpKiln({
    mock: {
      keys: Object.values(KEYS).map((key) => ({ key, balance: 1000 })),
      // About a second a task besides the generator: long enough to interrupt a batch mid-way.
      speed: evenSpeed(150),
    },
  });
});
afterAll(async () => {
  await kiln.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A new folder holding these fixture photos. */
function photosFolder(names: readonly PhotoName[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'kiln-batch-'));
  folders.push(folder);
  for (const name of names) copyFileSync(photoPath(name), join(folder, name));
  return folder;
}

const envFor = (key: string) => ({ KILN_URL: kiln.baseUrl, KILN_KEY: key, KILN_POLL_MS: '50' });
const batch = (folder: string, key: string, ...flags: string[]) =>
  runKilnCli(['batch', folder, '--model', 'alpha', ...flags], { cwd: folder, env: envFor(key) });

const stateOf = (folder: string): BatchState | null => {
  const path = join(folder, STATE_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as BatchState) : null;
};
const jsonOf = (run: CliRun) => JSON.parse(run.stdout) as { items: BatchItem[]; completed: number };

/** The mock's own account of a key: tasks made and credits taken. */
async function ledger(key: string) {
  const keyHash = hashKey(key);
  const account = await ledgerOf(kiln.kiln.mock.store, keyHash);
  const tasks = await kiln.kiln.mock.store.tasksOf(keyHash);
  return { ...account, tasks: tasks.length };
}

describe('kiln batch', () => {
  it('makes a model of every photo, in its collection; a second run makes nothing new', async () => {
    const folder = photosFolder(THREE);
    const first = await batch(folder, KEYS.whole, '--collection', 'Shoes', '--json');
    expect(first.code, first.stderr).toBe(0);
    const doc = jsonOf(first);
    expect(doc.completed).toBe(3);
    for (const item of doc.items) {
      expect(item).toMatchObject({ status: 'completed', task_id: expect.stringMatching(/^task_/) });
      expect(readFileSync(item.out!).subarray(0, 4).toString()).toBe('glTF');
    }
    expect(first.stderr).toMatch(/^chair\.png: done → kiln-alpha-chair-.+\.glb$/m);

    const api = createKilnApi({ baseUrl: kiln.baseUrl, apiKey: KEYS.whole });
    const shoes = (await api.collections.list()).find((c) => c.name === 'Shoes');
    expect(shoes?.count).toBe(3);

    const second = await batch(folder, KEYS.whole);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout.trim().split('\n')).toEqual(
      doc.items.map((i) => `${i.file}  ${i.task_id}  completed  ${i.out}`),
    );
    expect(second.stderr.match(/done earlier/g)).toHaveLength(3);
    expect(await ledger(KEYS.whole)).toMatchObject({ tasks: 3, completed: 3 });
  });

  it('killed after its first create is written down, then run again: each model made and charged once', async () => {
    const folder = photosFolder(THREE);
    const env = envFor(KEYS.resumed);
    const args = ['batch', folder, '--model', 'alpha', '--concurrency', '1'];
    const killed = spawnKilnCli(args, { cwd: folder, env });
    const atKill = await firstCreateWrittenDown(folder);
    killed.child.kill('SIGKILL');
    expect((await killed.done).signal).toBe('SIGKILL');
    expect(atKill.items.filter((i) => i.status === 'completed')).not.toHaveLength(3);

    const resumed = await batch(folder, KEYS.resumed, '--concurrency', '1', '--json');
    expect(resumed.code, resumed.stderr).toBe(0);
    const doc = jsonOf(resumed);
    expect(doc.completed).toBe(3);
    // The tasks made before the kill are the ones the resumed run waited on.
    for (const before of atKill.items.filter((i) => i.task_id))
      expect(doc.items.find((i) => i.file === before.file)?.task_id).toBe(before.task_id);

    const account = await ledger(KEYS.resumed);
    expect(account).toMatchObject({ tasks: 3, completed: 3, pending: 0, failed: 0 });
    expect(account.balance).toBe(account.expected);
    const api = createKilnApi({ baseUrl: kiln.baseUrl, apiKey: KEYS.resumed });
    expect((await api.library.list()).data).toHaveLength(3);
  });

  it('a create sent but not written down goes again with the same key: the same task, not a second', async () => {
    const folder = photosFolder(['chair.png']);
    const api = createKilnApi({ baseUrl: kiln.baseUrl, apiKey: KEYS.replayed });
    const photo = await api.upload(readPhoto('chair.png'), 'chair.png', 'image/png');
    const idempotencyKey = `kiln-cli-${crypto.randomUUID()}`;
    const sent = await api.create({ model: 'alpha', image_url: photo.url }, { idempotencyKey });
    // What a run killed between sending the create and hearing its answer leaves behind.
    const state: BatchState = { version: 1, items: [sendingItem(idempotencyKey, photo.url)] };
    writeFileSync(join(folder, STATE_FILE), JSON.stringify(state));

    const run = await batch(folder, KEYS.replayed, '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(jsonOf(run).items).toEqual([
      expect.objectContaining({ task_id: sent.id, status: 'completed' }),
    ]);
    expect(await ledger(KEYS.replayed)).toMatchObject({ tasks: 1, completed: 1 });
  });

  it('Ctrl-C stops it with exit 130 and keeps where each photo is', async () => {
    const folder = photosFolder(['teapot.png']);
    const run = spawnKilnCli(['batch', folder, '--model', 'alpha'], {
      cwd: folder,
      env: envFor(KEYS.stopped),
    });
    await firstCreateWrittenDown(folder, (i) => i.task_id !== null);
    run.child.kill('SIGINT');
    const ended = await run.done;
    expect(ended.code, ended.stderr).toBe(130);
    expect(ended.stderr).toMatch(/^kiln: interrupted; run the same command again to resume/m);
    expect(stateOf(folder)?.items).toEqual([
      expect.objectContaining({ task_id: expect.any(String) }),
    ]);
    expect(existsSync(join(folder, LOCK_FILE))).toBe(false);
  });
});

/** The state once an item says its create may have gone (a key written down), or `ready` says. */
async function firstCreateWrittenDown(
  folder: string,
  ready: (item: BatchItem) => boolean = (i) => i.idempotency_key !== null,
): Promise<BatchState> {
  for (let i = 0; i < 3000; i++) {
    const state = stateOf(folder);
    if (state?.items.some(ready)) return state;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the batch never wrote down a create');
}

/** The chair's item as a run leaves it when killed with its create on the way. */
function sendingItem(idempotencyKey: string, uploadUrl: string): BatchItem {
  return {
    file: 'chair.png',
    sha256: sha256Of(readPhoto('chair.png')),
    model: 'alpha',
    idempotency_key: idempotencyKey,
    upload_url: uploadUrl,
    task_id: null,
    status: 'sending',
    collection_id: null,
    out: null,
    error: null,
  };
}
