// A real server process, a burst of keyed creates, kill -9 in the middle, a restart, and a retry
// of every key: exactly one task and one charge per key, whatever moment the kill hit.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TaskSchema } from '../contract/index.ts';
import { spawnEntry, type Spawned } from '../testing/spawn-server.ts';

const dirs: string[] = [];
const procs: Spawned[] = [];
afterEach(async () => {
  await Promise.all(procs.splice(0).map((p) => p.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const KEY = 'tr_demo_kiln';
const START = 10_000;
const env = (dataDir: string) => ({
  DATA_DIR: dataDir,
  MOCK_SPEED: 'fast',
  MOCK_KEYS: `${KEY}:${START}`,
  MOCK_RATE_LIMIT: '0',
  CREATE_RATE_LIMIT: '0',
});

function create(base: string, i: number): Promise<Response> {
  return fetch(`${base}/api/v1/3d/generations`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      'idempotency-key': `burst-${i}`,
    },
    body: JSON.stringify({ model: 'beta-text', prompt: `prompt number ${i}` }),
  });
}

describe('idempotency survives a crash', () => {
  it('40 keyed creates, kill -9 mid-burst, restart, retry every key: one task and one charge each', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kiln-crash-'));
    dirs.push(dataDir);
    const first = await spawnEntry('src/server/main.ts', env(dataDir));
    procs.push(first);
    const burst = Array.from({ length: 40 }, (_, i) =>
      create(first.url, i).then(
        (r) => r.status,
        () => 'cut' as const,
      ),
    );
    await new Promise((r) => setTimeout(r, 120));
    await first.kill9();
    const before = await Promise.all(burst);
    expect(before).toContain('cut'); // the kill really landed mid-burst

    const second = await spawnEntry('src/server/main.ts', env(dataDir));
    procs.push(second);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await create(second.url, i);
      expect([200, 202], `key burst-${i}`).toContain(res.status);
      ids.push(TaskSchema.parse(await res.json()).id);
      // A second retry answers the same task.
      const again = await create(second.url, i);
      expect(TaskSchema.parse(await again.json()).id).toBe(ids[i]);
    }
    expect(new Set(ids).size).toBe(40);
    await second.stop();

    // The mock's ledger, read from its database file.
    const db = new Database(join(dataDir, 'mock', 'mock.sqlite'), { readonly: true });
    const tasks = db.prepare('select id, request_json, credits, status from tasks').all() as {
      id: string;
      request_json: string;
      credits: number;
      status: string;
    }[];
    const balance = (db.prepare('select balance from accounts').get() as { balance: number })
      .balance;
    db.close();
    const perPrompt = new Map<string, number>();
    for (const t of tasks) {
      const prompt = (JSON.parse(t.request_json) as { prompt: string }).prompt;
      perPrompt.set(prompt, (perPrompt.get(prompt) ?? 0) + 1);
    }
    expect(tasks).toHaveLength(40);
    expect([...perPrompt.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(tasks.map((t) => t.id))).toEqual(new Set(ids));
    const charged = tasks.filter((t) => t.status !== 'failed').reduce((s, t) => s + t.credits, 0);
    expect(balance).toBe(START - charged);
    expect(charged).toBe(40 * 10);
  }, 120_000);
});
