// The restore drill of docs/operations.md, run on loopback (issue 25): back up a running stack
// (pg_dump and the bucket's objects), restore both elsewhere, and a new replica on the copy serves
// the same library, models, uploads and balance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreditsSchema, LibraryPageSchema, TaskSchema } from '../contract/index.ts';
import { readPhoto } from '../testing/fixtures.ts';
import { restoreDrill } from '../testing/restore-drill.ts';
import { STACK_KEY, startStack, type Stack } from '../testing/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ replicas: 1, mockSpeed: 'fast' });
});
afterAll(() => stack?.stop());

const headers = { authorization: `Bearer ${STACK_KEY}`, 'content-type': 'application/json' };

describe('backup and restore', () => {
  it('a replica on the restored database and bucket serves what the old one did', async () => {
    const upload = (await (
      await fetch(`${stack.url}/api/uploads`, {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: Buffer.from(readPhoto('chair.png')),
      })
    ).json()) as { url: string; sha256: string };
    for (const prompt of ['a backed-up vase', 'a backed-up lamp'])
      TaskSchema.parse(
        await (
          await fetch(`${stack.url}/api/v1/3d/generations`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ model: 'beta-text', prompt, mode: 'sync' }),
          })
        ).json(),
      );
    const read = async (base: string) => ({
      library: LibraryPageSchema.parse(
        await (await fetch(`${base}/api/library`, { headers })).json(),
      ),
      credits: CreditsSchema.parse(await (await fetch(`${base}/api/credits`, { headers })).json()),
    });
    let before = await read(stack.url);
    for (let i = 0; i < 40 && !before.library.data.every((e) => e.archived); i++) {
      await new Promise((r) => setTimeout(r, 250));
      before = await read(stack.url);
    }
    expect(before.library.data.every((e) => e.archived)).toBe(true);

    const drill = await restoreDrill(stack);
    try {
      expect(drill.objects).toBeGreaterThanOrEqual(3);
      const after = await read(drill.url);
      expect(after.library.data.map((e) => [e.id, e.status, e.prompt])).toEqual(
        before.library.data.map((e) => [e.id, e.status, e.prompt]),
      );
      expect(after.credits.balance).toBe(before.credits.balance);
      for (const entry of after.library.data) {
        const glb = await fetch(`${drill.url}${entry.model_url}`);
        expect(glb.status).toBe(200);
        const old = await fetch(
          `${stack.url}${before.library.data.find((e) => e.id === entry.id)!.model_url}`,
        );
        expect(Buffer.from(await glb.arrayBuffer())).toEqual(Buffer.from(await old.arrayBuffer()));
      }
      const image = await fetch(`${drill.url}/api/uploads/${upload.sha256}.png`);
      expect(image.status).toBe(200);
    } finally {
      await drill.stop();
    }
  }, 180_000);
});
