// The "Done when" of the foundation: a create → poll → completed → GLB download round trip on a
// real port, against /mock/v1 directly and through the /api/v1 proxy, with the demo key.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateBytes } from 'gltf-validator';
import {
  CompletedTaskSchema,
  PendingTaskSchema,
  TaskSchema,
  type Task,
} from '../contract/index.ts';
import { spawnEntry, type Spawned } from '../testing/spawn-server.ts';
import { photoDataUri } from '../testing/mock.ts';

let server: Spawned;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kiln-rt-'));
  server = await spawnEntry('src/server/main.ts', { DATA_DIR: dataDir, MOCK_SPEED: 'fast' });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const auth = { authorization: 'Bearer tr_demo_kiln', 'content-type': 'application/json' };

async function roundTrip(base: string, body: object) {
  const created = await fetch(`${base}/3d/generations`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify(body),
  });
  expect(created.status).toBe(202);
  const { id } = PendingTaskSchema.parse(await created.json());
  let task: Task;
  for (let i = 0; ; i++) {
    task = TaskSchema.parse(
      await (await fetch(`${base}/tasks/${encodeURIComponent(id)}`, { headers: auth })).json(),
    );
    if (task.status !== 'pending') break;
    if (i > 100) throw new Error('never completed');
    await new Promise((r) => setTimeout(r, 200));
  }
  const done = CompletedTaskSchema.parse(task);
  const glb = await fetch(done.data.model_url);
  expect(glb.status).toBe(200);
  const bytes = new Uint8Array(await glb.arrayBuffer());
  const report = await validateBytes(bytes);
  expect(report.issues.numErrors).toBe(0);
  return { done, bytes };
}

describe('round trip on a real port', () => {
  it('prints the URL and the demo key at start', () => {
    expect(server.output()).toContain('demo key: tr_demo_kiln');
    expect(server.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
  });

  it('completes a single-image task against /mock/v1 and serves a valid GLB', async () => {
    const { done } = await roundTrip(`${server.url}/mock/v1`, {
      model: 'alpha',
      image_url: photoDataUri('chair.png'),
    });
    expect(done.data.model_url.startsWith(`${server.url}/mock/v1/files/`)).toBe(true);
    expect(done.usage.credits_consumed).toBe(10);
  });

  it('completes a text task through the /api/v1 proxy', async () => {
    const { done } = await roundTrip(`${server.url}/api/v1`, {
      model: 'beta-text',
      prompt: 'a small red vase',
    });
    expect(done.data.model).toBe('beta-text');
  });

  it('passes upstream errors through the proxy unchanged', async () => {
    const res = await fetch(`${server.url}/api/v1/3d/generations`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ model: 'beta-text', prompt: 'x'.repeat(2001) }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: 'prompt', code: 'prompt_too_long' } });
  });
});
