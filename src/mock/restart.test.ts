import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PendingTaskSchema, TaskSchema, type Task } from '../contract/index.ts';
import { spawnEntry, type Spawned } from '../testing/spawn-server.ts';
import { hashKey } from './keys.ts';
import { ledgerOf, photoDataUri, startTestMock } from '../testing/mock.ts';

const dirs: string[] = [];
const procs: Spawned[] = [];
afterEach(async () => {
  await Promise.all(procs.splice(0).map((p) => p.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir() {
  const d = mkdtempSync(join(tmpdir(), 'kiln-mock-'));
  dirs.push(d);
  return d;
}

describe('restart', () => {
  it('resumes tasks a stopped engine left pending, and the ledger balances', async () => {
    const file = join(tempDir(), 'mock.sqlite');
    const slow = {
      initializing: 60_000,
      downloading: 0,
      generating: 0,
      processing: 0,
      uploading: 0,
    };
    const first = await startTestMock({
      storeFile: file,
      keys: [{ key: 'tr_test_key', balance: 100 }],
      speed: slow,
    });
    const ids: string[] = [];
    for (const body of [
      { model: 'beta-text', prompt: 'a cube' },
      { model: 'alpha', image_url: photoDataUri('chair.png') },
      { model: 'alpha', image_url: 'http://127.0.0.1:9/gone.png' },
    ]) {
      const res = await first.request('/3d/generations', {
        method: 'POST',
        body: JSON.stringify(body),
      });
      ids.push(PendingTaskSchema.parse(await res.json()).id);
    }
    await first.close();

    const second = await startTestMock({
      storeFile: file,
      keys: [{ key: 'tr_test_key', balance: 100 }],
    });
    const final: Task[] = [];
    for (const id of ids)
      for (;;) {
        const t = TaskSchema.parse(await (await second.request(`/tasks/${id}`)).json());
        if (t.status !== 'pending') {
          final.push(t);
          break;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    expect(final.map((t) => t.status)).toEqual(['completed', 'completed', 'failed']);
    const ledger = await ledgerOf(second.store, hashKey('tr_test_key'));
    expect(ledger).toMatchObject({ balance: 80, expected: 80, pending: 0 });
    await second.close();
  });

  it('after kill -9 mid-task, a restarted mock finishes or refunds every task and the ledger balances', async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, MOCK_KEYS: 'tr_crash_test:200', MOCK_RATE_LIMIT: '0' };
    const auth = { authorization: 'Bearer tr_crash_test', 'content-type': 'application/json' };
    const first = await spawnEntry('src/mock/main.ts', { ...env, MOCK_SPEED: 'realistic' });
    procs.push(first);
    const ids: string[] = [];
    for (const body of [
      { model: 'beta-text', prompt: 'a teapot' },
      { model: 'beta', image_url: photoDataUri('robot.png') },
      { model: 'beta-text', prompt: 'mock:fail' },
      { model: 'gamma', image_url: 'http://127.0.0.1:9/unreachable.png' },
    ]) {
      const res = await fetch(`${first.url}/v1/3d/generations`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(202);
      ids.push(PendingTaskSchema.parse(await res.json()).id);
    }
    await first.kill9();

    // Right after the crash: credits are held by pending tasks, nothing is lost.
    const db = new Database(join(dataDir, 'mock', 'mock.sqlite'), { readonly: true });
    const balanceNow = db.prepare('select balance from accounts').pluck().get();
    expect(balanceNow).toBe(200 - 10 - 15 - 10 - 30);
    db.close();

    const second = await spawnEntry('src/mock/main.ts', { ...env, MOCK_SPEED: 'fast' });
    procs.push(second);
    const statuses: string[] = [];
    for (const id of ids)
      for (let i = 0; ; i++) {
        const t = TaskSchema.parse(
          await (await fetch(`${second.url}/v1/tasks/${id}`, { headers: auth })).json(),
        );
        if (t.status !== 'pending') {
          statuses.push(t.status);
          break;
        }
        if (i > 300) throw new Error(`task ${id} still pending after restart`);
        await new Promise((r) => setTimeout(r, 100));
      }
    expect(statuses).toEqual(['completed', 'completed', 'failed', 'failed']);
    await second.stop();

    const after = new Database(join(dataDir, 'mock', 'mock.sqlite'), { readonly: true });
    const account = after
      .prepare('select balance, starting_balance from accounts where key_hash = ?')
      .get(hashKey('tr_crash_test')) as {
      balance: number;
      starting_balance: number;
    };
    const completed = after
      .prepare("select coalesce(sum(credits),0) from tasks where status = 'completed'")
      .pluck()
      .get() as number;
    after.close();
    expect(account.balance).toBe(account.starting_balance - completed);
    expect(account.balance).toBe(200 - 10 - 15);
  }, 120_000);
});
