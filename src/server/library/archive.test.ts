import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diskBlobStore } from '../storage/blobs.ts';
import { openSqliteStorage, type Storage } from '../storage/database.ts';
import { createArchiver } from './archive.ts';
import { finishedAt } from '../../testing/library-rows.ts';

let storage: Storage | undefined;
let dir: string | undefined;
afterEach(async () => {
  await storage?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  storage = dir = undefined;
});

const GLB = new Uint8Array([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0, 12, 0, 0, 0]);

describe('archiver across replicas', () => {
  it('takes over the download of a replica that died holding the lease, once the lease runs out', async () => {
    storage = await openSqliteStorage(':memory:');
    dir = mkdtempSync(join(tmpdir(), 'kiln-archive-'));
    const blobs = diskBlobStore(dir);
    let now = 1_900_000_000_000;
    await storage.library.insert(finishedAt(now));
    const fetched = { a: 0, b: 0 };
    const replica = (name: 'a' | 'b', fetchGlb: () => Promise<Uint8Array>) =>
      createArchiver({
        store: storage!.library,
        blobs,
        leases: storage!.leases,
        holder: name,
        fetchGlb: () => {
          fetched[name]++;
          return fetchGlb();
        },
        now: () => now,
        log: () => {},
      });
    // Replica A claims the task and "dies" mid-download: its fetch never ends.
    const a = replica('a', () => new Promise<Uint8Array>(() => {}));
    const b = replica('b', () => Promise.resolve(GLB));
    const [row] = await storage.library.archiveDue(now, 10);
    void a.firstSighting(row!);
    await new Promise((r) => setTimeout(r, 20));
    expect(fetched.a).toBe(1);
    // B's sweep leaves it while A's lease holds…
    await b.sweep();
    expect(fetched.b).toBe(0);
    now += 30_000;
    await b.sweep();
    expect(fetched.b).toBe(0);
    // …and takes it over once the lease has run out: one download, archived.
    now += 31_000;
    await b.sweep();
    expect(fetched.b).toBe(1);
    expect((await storage.library.get('o', 't1'))?.assetSha256).toMatch(/^[a-f0-9]{64}$/);
    await b.sweep();
    expect(fetched.b).toBe(1);
  });
});
