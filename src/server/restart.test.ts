// Real processes on real ports: uploads fetched by the mock over HTTP, a kill -9 mid-task,
// and bad configuration refused with the variable's name.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CreditsSchema,
  LibraryEntrySchema,
  LibraryPageSchema,
  TaskSchema,
  UploadResultSchema,
  type Task,
} from '../contract/index.ts';
import { runEntryToExit, spawnEntry, type Spawned } from '../testing/spawn-server.ts';
import { photoPath } from '../testing/fixtures.ts';

const dirs: string[] = [];
const procs: Spawned[] = [];
afterEach(async () => {
  await Promise.all(procs.splice(0).map((p) => p.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const auth = { authorization: 'Bearer tr_demo_kiln' };

async function waitDone(base: string, id: string): Promise<Task> {
  for (let i = 0; i < 300; i++) {
    const t = TaskSchema.parse(
      await (await fetch(`${base}/api/v1/tasks/${id}`, { headers: auth })).json(),
    );
    if (t.status !== 'pending') return t;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`task ${id} never finished`);
}

describe('the server as a process', () => {
  it('uploads a photo, generates from its URL, and survives kill -9 mid-task', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kiln-restart-'));
    dirs.push(dataDir);
    const first = await spawnEntry('src/server/main.ts', {
      DATA_DIR: dataDir,
      MOCK_SPEED: 'realistic',
    });
    procs.push(first);

    const form = new FormData();
    form.append(
      'file',
      new Blob([readFileSync(photoPath('horse.png'))], { type: 'image/png' }),
      'horse.png',
    );
    const up = await fetch(`${first.url}/api/uploads`, { method: 'POST', body: form });
    expect(up.status).toBe(201);
    const upload = UploadResultSchema.parse(await up.json());
    expect(upload.url).toBe(`${first.url}/api/uploads/${upload.sha256}.png`);

    const created = await fetch(`${first.url}/api/v1/3d/generations`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'restart-1' },
      body: JSON.stringify({ model: 'beta', image_url: upload.url }),
    });
    expect(created.status).toBe(202);
    const { id } = TaskSchema.parse(await created.json());
    await first.kill9();

    // Same DATA_DIR, new process (and a new port): the library, the task and the ledger are all there.
    const second = await spawnEntry('src/server/main.ts', {
      DATA_DIR: dataDir,
      MOCK_SPEED: 'fast',
    });
    procs.push(second);
    const before = LibraryPageSchema.parse(
      await (await fetch(`${second.url}/api/library`, { headers: auth })).json(),
    );
    expect(before.data.map((e) => e.id)).toEqual([id]);
    expect(before.data[0]?.images[0]?.upload).toBe(`/api/uploads/${upload.sha256}.png`);

    // The resumed task fetches the upload from the new process (its URL names the old port, so it fails
    // there and refunds) — or completes; either way the library and the balance agree.
    const final = await waitDone(second.url, id);
    const credits = CreditsSchema.parse(
      await (await fetch(`${second.url}/api/credits`, { headers: auth })).json(),
    );
    if (final.status === 'completed') expect(credits.balance).toBe(985);
    else expect(final.error?.code).toBe('image_download_failed');
    const after = LibraryPageSchema.parse(
      await (await fetch(`${second.url}/api/library`, { headers: auth })).json(),
    );
    expect(after.data[0]?.status).toBe(final.status);

    // A fresh upload on the new process generates end to end, and the GLB is archived.
    const again = await fetch(`${second.url}/api/uploads`, { method: 'POST', body: form });
    const upload2 = UploadResultSchema.parse(await again.json());
    const sync = await fetch(`${second.url}/api/v1/3d/generations`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'beta', image_url: upload2.url, mode: 'sync' }),
    });
    expect(sync.status).toBe(200);
    const { id: id2 } = TaskSchema.parse(await sync.json());
    const entry = LibraryEntrySchema.parse(
      await (await fetch(`${second.url}/api/library/${id2}`, { headers: auth })).json(),
    );
    const asset = entry.model_url;
    expect(asset).toMatch(/^\/api\/assets\/[a-f0-9]{64}\.glb\?exp=\d+&sig=[\w-]{43}$/);
    const glb = await fetch(`${second.url}${asset ?? ''}`);
    expect(glb.status).toBe(200);
    expect(glb.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
  }, 120_000);

  it.each([
    [
      'only tr_demo_kiln, never another key first in MOCK_KEYS',
      'tr_alice_key:10,tr_bob_key:5',
      {},
      undefined,
    ],
    ['tr_demo_kiln when MOCK_KEYS grants it', 'tr_alice_key:10,tr_demo_kiln:7', {}, 'tr_demo_kiln'],
    [
      'the key MOCK_DEMO_KEY names',
      'tr_alice_key:10,tr_bob_key:5',
      { MOCK_DEMO_KEY: 'tr_bob_key' },
      'tr_bob_key',
    ],
  ])('publishes %s as the demo key', async (_label, keys, extra, demo) => {
    const proc = await spawnEntry('src/server/main.ts', {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'kiln-demo-')),
      MOCK_KEYS: keys,
      ...extra,
    });
    procs.push(proc);
    const info = (await (await fetch(`${proc.url}/api/info`)).json()) as { demoKey?: string };
    expect(info.demoKey).toBe(demo);
    if (demo) expect(proc.output()).toContain(`demo key: ${demo}`);
    else expect(proc.output()).not.toMatch(/demo key|tr_alice_key/);
  });

  // Every bad value is named by readKilnConfig (kiln-config.test.ts); here, that the process
  // refuses to start on one: a bad value, and a rule between variables.
  it.concurrent.for<[string, string, Record<string, string>?]>([
    ['PORT', 'abc'],
    ['KILN_SECRET', '', { DATABASE_URL: 'postgres://kiln@127.0.0.1:1/kiln' }],
  ])(
    'refuses %s=%s with a message naming the variable, and exits 2',
    // A process may take a minute to load the server on a busy machine.
    { timeout: 200_000 },
    async ([name, value, extra], { expect }) => {
      const r = await runEntryToExit(
        'src/server/main.ts',
        {
          ...process.env,
          [name]: value,
          ...extra,
          PORT: name === 'PORT' ? value : '0',
          DATA_DIR: join(tmpdir(), 'kiln-never'),
        },
        180_000,
      );
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('bad configuration');
      expect(r.stderr).toContain(`${name}:`);
    },
  );
});
